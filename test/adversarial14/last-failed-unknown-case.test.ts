// Adversarial review of issue 14 (report given to --last-failed): the report's
// failed cases are turned into case keys and used as a filter; a key that names
// no case of the suites given (a renamed suite or case, the wrong suite file, a
// report from another eval) filters everything out, and an eval of no case
// passes: `--last-failed` turns a failing eval green without running the failure again.
import test from 'ava';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCliCaptured } from '../fixtures/cli-harness.js';
import { sampleReport } from '../fixtures/eval-reports.js';
import { makeEvalWorld, writeSuite, writeTranscript } from './eval-world.js';

test('--last-failed with a report whose failed cases are not in the suites does not pass', async (t) => {
  const world = makeEvalWorld(t);
  writeTranscript(world, 'answer', [{ text: 'done' }]);
  const suite = writeSuite(world, 'main.yaml', ['zotbox_eval: 1', 'agent: agent', 'replay: answer.json', 'cases:', '  - id: first', '    prompt: go', ''].join('\n'));
  // The earlier report: its suites (refactor, docs-qa) had failures; none of them is in main.yaml.
  const earlier = sampleReport();
  t.true(earlier.cases.some((result) => result.status === 'failed'));
  const reportFile = path.join(world.root, 'earlier.json');
  writeFileSync(reportFile, JSON.stringify(earlier));
  const result = await runCliCaptured(['eval', suite, '-y', '--last-failed', reportFile, '--reporter', 'line'], { env: { ZOTBOX_HOME: world.state }, cwd: world.root });
  t.not(result.status, 0, `the eval passed having run none of the failed cases: ${result.stdout}`);
});
