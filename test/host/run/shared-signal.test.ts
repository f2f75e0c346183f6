// One AbortSignal shared by any number of runs (issue 26): Node warns
// (MaxListenersExceededWarning) once more than ten listeners wait on one signal,
// so a run must not add its own listener to the caller's signal. The runs are
// real (a replayed model, a real pool) in a child process whose stderr is read.
import test from 'ava';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { tempDir } from '../../fixtures/temp.js';

const child = fileURLToPath(new URL('../../fixtures/many-runs-one-signal.js', import.meta.url));

test('1,000 runs sharing one AbortSignal all complete and print no MaxListenersExceededWarning, 744 of them having waited for the pool', async (t) => {
  const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--no-node-snapshot', child, '1000', tempDir(t, 'zb-signal-'), '256'], {
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
    maxBuffer: 16 * 1024 * 1024,
  });
  t.false(stderr.includes('MaxListenersExceededWarning'), stderr);
  t.is(stderr, '');
  t.deepEqual(JSON.parse(stdout), { statuses: { completed: 1000 }, queued: 744 });
});
