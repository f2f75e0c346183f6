// Review s64m: a user's git repository whose config names a hooks directory in the workspace in a spelling git reads
// one way and zotbox another. The user's hook is harmless; one confined call (real bubblewrap) rewrites it; then the
// user's own `git commit` runs. Each repro asserts the SAFE outcome: the agent's hook never ran.
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ExecutionContext } from 'ava';
import { agentWrites, git } from '../adversarial-s36i/harness.js';

/** A shell script that overwrites `<hooks>/pre-commit` (relative to the workspace) with the agent's hook. */
export function rewriteHook(hooks: string): string {
  return `set -e
printf '#!/bin/sh\\ntouch "$(git rev-parse --show-toplevel)/PWNED"\\n' > '${hooks}/pre-commit'
chmod +x '${hooks}/pre-commit'
`;
}

/** The user's harmless hook at `<ws>/<hooks>/pre-commit`, committed. */
export function userHook(ws: string, hooks: string): void {
  mkdirSync(path.join(ws, hooks), { recursive: true });
  writeFileSync(path.join(ws, hooks, 'pre-commit'), '#!/bin/sh\nexit 0\n');
  chmodSync(path.join(ws, hooks, 'pre-commit'), 0o755);
  git(ws, 'add', '-A');
  git(ws, 'commit', '-q', '--no-verify', '-m', 'hooks');
}

/** Runs the agent's `sh one.sh` (confined), then the user's `git commit`; true when the agent's hook ran. */
export async function agentThenUserCommit(t: ExecutionContext, ws: string): Promise<boolean> {
  t.log('run:', (await agentWrites(t, ws, 'x1.txt', 'x\n', 'sh one.sh')).slice(-1500));
  writeFileSync(path.join(ws, 'src.txt'), 'user change\n');
  try {
    git(ws, 'add', 'src.txt');
    git(ws, 'commit', '-q', '-m', 'user change');
  } catch (error) {
    t.log('user git failed:', String(error).slice(0, 300));
  }
  return existsSync(path.join(ws, 'PWNED'));
}
