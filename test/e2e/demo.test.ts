// `npm run demo` is the README's first command: it must work on a fresh clone, offline.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from '../fixtures/paths.js';

test('the demo runs every step and exits 0', (t) => {
  const result = spawnSync(process.execPath, ['--no-node-snapshot', path.join(REPO_ROOT, 'dist/scripts/demo.js')], {
    encoding: 'utf8',
    cwd: REPO_ROOT,
    timeout: 60_000,
  });
  t.is(result.status, 0, result.stderr);
  t.regex(result.stdout, /Demo finished\./);
});
