// A real eval keeps each run's changed files with a unified diff of the fixture's text
// against the text after the run (issue 27 §4), made at case end: a modified fixture
// file, an added file, and the per-run bound on the number of files listed.
import test from 'ava';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { evalIn, evalWorld, writeSuite, writeTranscript } from '../../fixtures/eval-world.js';
import { MAX_REPORTED_FILES } from '../../../src/host/eval/run-files.js';

test('a run that edits a fixture file and adds one: each listed with its diff against the fixture, the untouched file not at all', async (t) => {
  const world = evalWorld(t, { fs: { read: ['${workspace}'], write: ['${workspace}'] }, bash: { mode: 'none' } });
  writeFileSync(path.join(world.suites, 'fixture', 'gone.txt'), 'bye\n');
  const edits = writeTranscript(world, 'edits', [
    { tool: { name: 'write', input: { path: 'README.md', content: '# fixture\n\nmore <script>x</script>\n' } } },
    { tool: { name: 'write', input: { path: 'new.txt', content: 'a\nb\n' } } },
    { text: 'done' },
  ]);
  const suite = writeSuite(world, 's', { defaults: { workspace: 'fixture' }, cases: [{ id: 'a', prompt: 'p', replay: edits }] });
  const report = await evalIn(world, [suite]);
  const run = report.cases[0]?.runs[0];
  t.deepEqual(run?.files, [
    { path: 'README.md', change: 'modified', size: 35, diff: '@@ -1,1 +1,3 @@\n # fixture\n+\n+more <script>x</script>' },
    { path: 'new.txt', change: 'added', size: 4, diff: '@@ -0,0 +1,2 @@\n+a\n+b' },
  ]);
  t.is(run?.files_cut, undefined);
});

test(`past ${MAX_REPORTED_FILES} changed files, the rest are counted, not listed`, async (t) => {
  const world = evalWorld(t);
  const steps = Array.from({ length: MAX_REPORTED_FILES + 2 }, (_, i) => ({ tool: { name: 'write', input: { path: `f${String(i).padStart(3, '0')}.txt`, content: 'x' } } }));
  const many = writeTranscript(world, 'many', [...steps, { text: 'done' }]);
  const suite = writeSuite(world, 's', { cases: [{ id: 'a', prompt: 'p', replay: many, max_turns: 200 }] });
  const report = await evalIn(world, [suite]);
  const run = report.cases[0]?.runs[0];
  t.is(run?.files?.length, MAX_REPORTED_FILES);
  t.is(run?.files_cut, `2 more files past the ${MAX_REPORTED_FILES} listed`);
});
