// Runs place-scope-child.ts in a private mount namespace whose /dev/shm and /mnt are fresh tmpfs (needs root): the
// real host's files are never at stake. `rw`: /dev/shm is a write scope; `ro`: /dev/shm and /tmp are read scopes.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'place-scope-child.js');
const SCRIPT = 'mount -t tmpfs zb /dev/shm && mount -t tmpfs zb /mnt && exec "$0" --no-node-snapshot "$1" "$2"';

export interface PlaceScopeReport {
  readonly outcome: { exitCode?: number | null; signal?: string | null; stdout?: string };
  readonly used: string[];
  readonly kept: string[];
}

export function inPrivateTmp(mode: 'rw' | 'ro'): PlaceScopeReport {
  const out = execFileSync('unshare', ['-m', '--propagation', 'private', 'sh', '-c', SCRIPT, process.execPath, CHILD, mode], { encoding: 'utf8', timeout: 120_000 });
  return JSON.parse(out) as PlaceScopeReport;
}
