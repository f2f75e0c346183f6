// Shared by the repros of entries too deep to look at (s53b long-path-aftercare-crash, s54c deep-dotgit-link-crash):
// one command plants a hook in a new `src/.git` and makes a directory whose own path is 4093 bytes long, holding one
// entry (`leaf`) whose path is past PATH_MAX. The user then commits in src/.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { ExecutionContext } from 'ava';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

export const PLANT =
  "mkdir -p src/.git/hooks src/.git/objects src/.git/refs/heads && printf 'ref: refs/heads/main\\n' > src/.git/HEAD && printf '#!/bin/sh\\ntouch ../PWNED\\n' > src/.git/hooks/pre-commit && chmod +x src/.git/hooks/pre-commit\n";

/** The shell script that makes deep/…/bbb…/ (4093 bytes) and, in it, runs `leaf` (`: > head`, `ln -s nowhere .git`). */
export function deepTree(leaf: string): string {
  return [
    'mkdir deep && cd deep',
    `s=${'a'.repeat(200)}`,
    'while [ $(( ${#PWD} + 201 )) -lt 4040 ]; do mkdir $s && cd $s; done',
    'n=$(( 4093 - ${#PWD} - 1 ))',
    'b=$(printf "%${n}s" "" | tr " " b)',
    `mkdir $b && cd $b && ${leaf}`,
    '',
  ].join('\n');
}

/** A workspace whose deep/ tree is removed by rm(1) (Node's recursive rm cannot remove a tree past PATH_MAX; LIFO: before the temp dir's own teardown). */
export function deepProject(t: ExecutionContext, files: Readonly<Record<string, string>>): string {
  const ws = project(t, files);
  t.teardown(() => execFileSync('rm', ['-rf', path.join(ws, 'deep')]));
  return ws;
}

/** The user's own commit in src/, which runs whatever hook src/.git holds. */
export function userCommitsInSrc(t: ExecutionContext, ws: string): void {
  try {
    git(path.join(ws, 'src'), 'add', 'app.js');
    git(path.join(ws, 'src'), 'commit', '-q', '-m', 'user change');
  } catch (error) {
    t.log('user git failed:', String(error).slice(0, 300));
  }
}

export { agentWrites };
