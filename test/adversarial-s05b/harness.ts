// The setup review s05b's cases share (see sourced-places-s05b.test.ts): the user's bash hook reads MAX from
// .limits/*.txt and makes it readonly; one CONFINED call writes the agent's value there; then the user's git commit.
import { execFileSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ExecutionContext } from 'ava';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

const CODE = 'a[$({touch,PWNED})]';

/** The agent's one.sh: writes CODE into .limits/max.txt (a data file the hook reads). */
const LIMIT = `mkdir -p .limits\nprintf '%s\\n' '${CODE}' > .limits/max.txt\n`;

/** lib.sh sets its own MAX, then compares it: harmless in a new bash, not where MAX is readonly. */
export const LIB = '#!/bin/bash\nMAX=3\nif (( MAX > 1 )); then echo many; fi\n';

/** The user's function named like a runner: `bash FILE` sources FILE into this shell. */
export const FNS = 'bash() { . "$@"; }\n';

/** A harmless helper where zotbox looks instead. */
export const LOG = 'log() { echo "$@"; }\n';

/** The hook's head: MAX from the data file, readonly. */
export const HEAD = 'MAX=$(cat .limits/*.txt 2>/dev/null || echo 3)\nreadonly MAX\n';

/** A writer of the user's: makes .cache/fns.sh from the template (it names the file; the hook does not). */
export const GEN = '#!/bin/sh\nmkdir -p .cache\ncp scripts/fns.template .cache/fns.sh\n';

/** Whether a file named PWNED is anywhere in the workspace (outside .git). */
function pwned(ws: string): boolean {
  return execFileSync('find', [ws, '-path', path.join(ws, '.git'), '-prune', '-o', '-name', 'PWNED', '-print'], { encoding: 'utf8' }).trim() !== '';
}

/** The agent's confined `sh one.sh`, then the user's commit; true when the agent's code ran. */
export async function agentThenUserCommits(t: ExecutionContext, ws: string): Promise<boolean> {
  t.log('run:', (await agentWrites(t, ws, 'x1.txt', 'x\n', 'sh one.sh')).slice(-1500));
  writeFileSync(path.join(ws, 'src.txt'), 'user change\n');
  try {
    git(ws, 'add', 'src.txt');
    git(ws, 'commit', '-q', '-m', 'user change');
  } catch (error) {
    t.log('user git failed:', String(error).slice(0, 300));
  }
  return pwned(ws);
}

/** `hook` is the whole hook (its #! line included); `extra` the user's other files (made executable). */
export const attack = async (t: ExecutionContext, hook: string, extra: Record<string, string>, agent = LIMIT) => {
  const ws = project(t, { 'src.txt': '1\n', 'one.sh': agent, '.githooks/pre-commit': hook, ...extra });
  for (const file of ['.githooks/pre-commit', ...Object.keys(extra)]) chmodSync(path.join(ws, file), 0o755);
  git(ws, 'config', 'core.hooksPath', '.githooks');
  // SAFE: the agent's code never ran.
  t.false(await agentThenUserCommits(t, ws), "the user's git commit ran the agent's code");
};

export const hook = (body: string) => `#!/bin/bash\n${HEAD}${body}\nexit 0\n`;
