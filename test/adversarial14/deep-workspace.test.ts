// Adversarial review of issue 14 (hostile agent): a run can leave a folder tree
// deeper than PATH_MAX in its case workspace (each mkdir names a short relative
// path; node, allowlisted, is enough). Removing the workspace then fails with
// ENAMETOOLONG; that error escapes the case, so the whole eval rejects: no
// report for any case, and the eval's temp directory is left behind.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { runEval } from '../../src/api/eval.js';
import { removeWorkspace } from '../../src/host/eval/workspace-remove.js';
import { makeEvalWorld, writeSuite, writeTranscript } from './eval-world.js';

/** Node code that builds, from its working directory, folders 30 deep of 200-character names (over 6000 bytes of path). */
const DEEP_TREE = `const fs = require('fs'); const name = 'd'.repeat(200); for (let i = 0; i < 30; i++) { fs.mkdirSync(name); process.chdir(name); } fs.writeFileSync('deep.txt', 'deep');`;

test('removeWorkspace removes a tree deeper than PATH_MAX', async (t) => {
  const world = makeEvalWorld(t);
  const workspace = path.join(world.temp, 'case-deep');
  mkdirSync(workspace);
  execFileSync(process.execPath, ['-e', DEEP_TREE], { cwd: workspace });
  await removeWorkspace(workspace);
  t.false(existsSync(workspace), 'the workspace is still there');
});

test('an agent that leaves a tree deeper than PATH_MAX fails only its own case: the eval still reports every case and leaves no temp directory', async (t) => {
  const world = makeEvalWorld(t, { bash: ['node'] });
  writeTranscript(world, 'deep', [{ tool: 'write', input: { path: 'deep.js', content: DEEP_TREE } }, { tool: 'bash', input: { command: 'node deep.js' } }, { text: 'done' }]);
  writeTranscript(world, 'plain', [{ text: 'done' }]);
  const suite = writeSuite(
    world,
    'deep.yaml',
    [
      'zotbox_eval: 1',
      'agent: agent',
      'cases:',
      '  - id: deep',
      '    prompt: go',
      '    replay: deep.json',
      '  - id: plain',
      '    prompt: go',
      '    replay: plain.json',
      '    expect:',
      '      - text_equals: done',
      '',
    ].join('\n'),
  );
  const report = await runEval({ suiteFiles: [suite], cwd: world.root, env: {}, stateDirectory: world.state, tempDirectory: world.temp, yes: true, maxRuns: 1 });
  t.deepEqual(
    report.cases.map((result) => result.id),
    ['deep', 'plain'],
  );
  t.is(report.cases[1]?.status, 'passed');
  t.deepEqual(readdirSync(world.temp), [], 'the eval left its temp directory behind');
});
