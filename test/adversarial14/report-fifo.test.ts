// Adversarial review of issue 14 (report given to merge or --last-failed):
// readEvalReport reads the path with readFileSync, so a FIFO there is opened and
// read: the command blocks until some process writes to it (for ever if none
// does), and takes whatever that process sends. Every other file zotbox eval reads
// (suites, graders, fixtures, workspace files) refuses what is not a regular file.
import test from 'ava';
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { isZotboxError } from '../../src/errors.js';
import { readEvalReport } from '../../src/api/eval.js';
import { sampleReport } from '../fixtures/eval-reports.js';
import { tempDir } from '../fixtures/temp.js';

test('readEvalReport refuses a FIFO instead of reading from it', (t) => {
  const directory = tempDir(t, 'zb-adv14-fifo-');
  const fifo = path.join(directory, 'report.json');
  execFileSync('mkfifo', [fifo]);
  // A writer, so that the current code returns instead of blocking the test for ever; it waits for a reader.
  const writer = spawn(process.execPath, ['-e', `require('fs').writeFileSync(${JSON.stringify(fifo)}, ${JSON.stringify(JSON.stringify(sampleReport()))})`], { stdio: 'ignore' });
  t.teardown(() => writer.kill('SIGKILL'));
  const error = t.throws(() => readEvalReport(fifo));
  t.true(isZotboxError(error) && error.code === 'ZB_EVAL_REPORT_INVALID', String(error));
});
