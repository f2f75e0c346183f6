// Reading which tests caught a mutant from ava's TAP output (scripts/mutant-catches.ts): the title ava prints is the
// file's place among the files run, then the test's title. Expected names written out by hand.
import test from 'ava';
import { matchPattern, tapResults, titlePrefix } from '../../scripts/mutant-catches.js';

test('one file: no prefix; several: their folders below the common one and the name, without .test.js', (t) => {
  t.is(titlePrefix(['dist/test/a/x.test.js'], 'dist/test/a/x.test.js'), '');
  const files = ['dist/test/policy/gate.test.js', 'dist/test/host/run/agent.test.js'];
  t.is(titlePrefix(files, files[0]!), 'policy › gate › ');
  t.is(titlePrefix(files, files[1]!), 'host › run › agent › ');
  // In one folder, the common part is that folder; a name that begins another's is cut at a "/".
  t.is(titlePrefix(['dist/test/ab/x.test.js', 'dist/test/abc/y.test.js'], 'dist/test/abc/y.test.js'), 'abc › y › ');
  t.is(titlePrefix(['dist/test/a/x.test.js', 'dist/test/a/y.test.js'], 'dist/test/a/y.test.js'), 'y › ');
});

test('TAP lines become tests of their files; a hook or a line of no file is unattributed', (t) => {
  const files = ['dist/test/policy/gate.test.js', 'dist/test/policy/gate-more.test.js'];
  const tap = ['TAP version 13', 'not ok 1 - gate-more › a › b fails', '  ---', '    message: x', '  ...', 'ok 2 - gate › passes # SKIP', 'ok 3 - gate › * star ! bang', '', '1..3'].join('\n');
  t.deepEqual(tapResults(tap, files), {
    passed: [
      { file: files[0], title: 'passes' },
      { file: files[0], title: '* star ! bang' },
    ],
    failed: [{ file: files[1], title: 'a › b fails' }],
    unattributed: false,
  });
  t.true(tapResults('not ok 1 - gate › before hook\n', files).unattributed);
  t.true(tapResults('not ok 1 - gate › afterEach.always hook for "x"\n', files).unattributed);
  // A test titled like a hook's word is a test.
  t.deepEqual(tapResults('not ok 1 - gate › after a cd, x\n', files).failed, [{ file: files[0], title: 'after a cd, x' }]);
  t.true(tapResults('not ok 1 - elsewhere › x\n', files).unattributed);
  t.deepEqual(tapResults('\u001b[31mnot ok 1 - only\u001b[39m\n', ['dist/test/x.test.js']).failed, [{ file: 'dist/test/x.test.js', title: 'only' }]);
});

test('a title as ava --match takes it: a leading "!" would negate, so it becomes a wildcard', (t) => {
  t.is(matchPattern('plain title'), 'plain title');
  t.is(matchPattern('!not'), '*not');
  t.is(matchPattern('a * b'), 'a * b');
});
