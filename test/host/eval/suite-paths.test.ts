// Suite paths resolve inside the suite folder and never through a link: every
// refusal below is ZB_EVAL_PATH_INVALID, stated by hand per case.
import test, { type ExecutionContext } from 'ava';
import { mkdirSync, realpathSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ErrorCode } from '../../../src/errors.js';
import { readSuiteFile, resolveSuitePath } from '../../../src/host/eval/suite-paths.js';
import { tempDir } from '../../fixtures/temp.js';

/** suite/graders/check.js, suite/fixtures/basic/a.txt, outside/secret.js and outside/dir/secret.js next to the suite. */
function suiteTree(t: ExecutionContext) {
  const root = realpathSync(tempDir(t, 'zb-suite-'));
  const suite = path.join(root, 'suite');
  const outside = path.join(root, 'outside');
  mkdirSync(path.join(suite, 'graders'), { recursive: true });
  mkdirSync(path.join(suite, 'fixtures', 'basic'), { recursive: true });
  mkdirSync(path.join(outside, 'dir'), { recursive: true });
  writeFileSync(path.join(suite, 'graders', 'check.js'), 'export function grade() { return { pass: true, reason: "ok" }; }');
  writeFileSync(path.join(suite, 'fixtures', 'basic', 'a.txt'), 'a');
  writeFileSync(path.join(outside, 'secret.js'), 'secret');
  writeFileSync(path.join(outside, 'dir', 'secret.js'), 'secret');
  return { root, suite, outside };
}

const code = (error: unknown) => (error as { code?: ErrorCode } | undefined)?.code;

test('a grader file inside the suite folder resolves to its canonical path', (t) => {
  const { suite } = suiteTree(t);
  t.is(resolveSuitePath(suite, 'graders/check.js', 'file', 'the grader', { maxBytes: 1000 }), path.join(suite, 'graders', 'check.js'));
});

test('a fixture folder resolves when a directory is asked for', (t) => {
  const { suite } = suiteTree(t);
  t.is(resolveSuitePath(suite, 'fixtures/basic', 'directory', 'the workspace fixture'), path.join(suite, 'fixtures', 'basic'));
});

test('the suite folder itself may be reached through a link the user chose', (t) => {
  const { root, suite } = suiteTree(t);
  symlinkSync(suite, path.join(root, 'suite-link'));
  t.is(resolveSuitePath(path.join(root, 'suite-link'), 'graders/check.js', 'file', 'the grader'), path.join(suite, 'graders', 'check.js'));
});

test('readSuiteFile returns the text of a good file', (t) => {
  const { suite } = suiteTree(t);
  t.is(readSuiteFile(suite, 'graders/check.js', 'the grader', 1000), 'export function grade() { return { pass: true, reason: "ok" }; }');
});

const refused = test.macro({
  exec(t, arrange: (tree: ReturnType<typeof suiteTree>) => void, relative: string, kind: 'file' | 'directory', maxBytes?: number) {
    const tree = suiteTree(t);
    arrange(tree);
    const options = maxBytes === undefined ? {} : { maxBytes };
    const error = t.throws(() => resolveSuitePath(tree.suite, relative, kind, 'the grader', options));
    t.is(code(error), 'ZB_EVAL_PATH_INVALID');
    t.regex(error.message, /the grader/);
    t.regex(error.message, /Fix:/);
    if (kind === 'file') {
      // The reading entry point refuses the same path before opening anything.
      t.is(code(t.throws(() => readSuiteFile(tree.suite, relative, 'the grader', maxBytes ?? 1_000_000))), 'ZB_EVAL_PATH_INVALID');
    }
  },
  title: (given = '') => `${given} is refused with ZB_EVAL_PATH_INVALID`,
});

const nothing = () => undefined;
test('a path climbing out with ..', refused, nothing, '../outside/secret.js', 'file');
test('an absolute path', refused, nothing, '/etc/passwd', 'file');
test('a path with .. in the middle', refused, nothing, 'graders/../graders/check.js', 'file');
test('a path with an empty segment', refused, nothing, 'graders//check.js', 'file');
test('an empty path', refused, nothing, '', 'file');
test('a path that does not exist', refused, nothing, 'graders/missing.js', 'file');
test(
  'a grader file that is a symlink to a file outside',
  refused,
  ({ suite, outside }) => symlinkSync(path.join(outside, 'secret.js'), path.join(suite, 'graders', 'linked.js')),
  'graders/linked.js',
  'file',
);
test('a grader file that is a symlink to a file inside the suite folder', refused, ({ suite }) => symlinkSync('check.js', path.join(suite, 'graders', 'alias.js')), 'graders/alias.js', 'file');
test('a grader under a symlinked folder', refused, ({ suite, outside }) => symlinkSync(path.join(outside, 'dir'), path.join(suite, 'linked-dir')), 'linked-dir/secret.js', 'file');
test('a fixture folder that is a symlink', refused, ({ suite, outside }) => symlinkSync(path.join(outside, 'dir'), path.join(suite, 'fixtures', 'linked')), 'fixtures/linked', 'directory');
test('a directory given where a file is needed', refused, nothing, 'graders', 'file');
test('a file given where a directory is needed', refused, nothing, 'graders/check.js', 'directory');
test('a path through a regular file', refused, nothing, 'graders/check.js/x', 'file');
test('a file over the size bound', refused, ({ suite }) => writeFileSync(path.join(suite, 'graders', 'big.js'), 'x'.repeat(1001)), 'graders/big.js', 'file', 1000);
test('a sparse 1 GiB file over the size bound', refused, ({ suite }) => truncateSync(path.join(suite, 'graders', 'check.js'), 1024 ** 3), 'graders/check.js', 'file', 1_000_000);

test('a file of exactly the size bound is accepted', (t) => {
  const { suite } = suiteTree(t);
  writeFileSync(path.join(suite, 'graders', 'edge.js'), 'x'.repeat(1000));
  t.is(readSuiteFile(suite, 'graders/edge.js', 'the grader', 1000), 'x'.repeat(1000));
});

test('a suite file that is not UTF-8 is refused', (t) => {
  const { suite } = suiteTree(t);
  writeFileSync(path.join(suite, 'graders', 'bad.js'), Buffer.from([0xff, 0xfe, 0x00, 0xc3]));
  t.is(code(t.throws(() => readSuiteFile(suite, 'graders/bad.js', 'the grader', 1000))), 'ZB_EVAL_PATH_INVALID');
});
