// Finding: where a write scope is /tmp or /dev/shm itself, the plan still has the sandbox's own tmpfs there (an
// expectation of kind 'fresh', not read-only) with the scope bound over it; warm-calls.ts passes every such target to
// the init as `--empty`, and the init empties it at its start (before the host has verified anything) and after
// every call: the user's own /tmp or /dev/shm, every file the sandbox's uid may delete, on that device. A fresh
// sandbox per call never deleted anything. Run in a private mount namespace with tmpfs /tmp, /dev/shm and /mnt
// (needs root, as warm-calls.test.ts): the real host's files are never at stake.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'place-scope-child.js');
const SCRIPT = 'mount -t tmpfs zb /dev/shm && mount -t tmpfs zb /mnt && exec "$0" --no-node-snapshot "$1" "$2"';

interface Report {
  readonly outcome: { exitCode?: number | null; signal?: string | null; stdout?: string };
  readonly used: string[];
  readonly kept: string[];
}

function inPrivateTmp(mode: 'rw' | 'ro'): Report {
  const out = execFileSync('unshare', ['-m', '--propagation', 'private', 'sh', '-c', SCRIPT, process.execPath, CHILD, mode], { encoding: 'utf8', timeout: 120_000 });
  return JSON.parse(out) as Report;
}

test('a command that succeeds where /tmp and /dev/shm are read scopes is reported as succeeding', (t) => {
  const report = inPrivateTmp('ro');
  t.log(report);
  t.like(report.outcome, { exitCode: 0, signal: null, stdout: 'done\n' });
  t.is(report.kept.length, 3);
});
