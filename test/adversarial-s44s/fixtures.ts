// Review s44s of issue 21: the attack shape the repros share, through the s36i harness: the write tool leaves a file
// that did not exist (`target`), then the user stages a change and commits, which runs the hook unconfined.
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ExecutionContext } from 'ava';
import { agentWrites, git } from '../adversarial-s36i/harness.js';

/** Safe: the new file is refused (or removed after the call), and the payload never runs in the user's commit. */
export async function newFileAttack(t: ExecutionContext, ws: string, target: string, payload: (marker: string) => string): Promise<void> {
  const marker = path.join(path.dirname(ws), 'PWNED');
  t.log(await agentWrites(t, ws, target, payload(marker)));
  writeFileSync(path.join(ws, 'README.md'), 'user change\n');
  git(ws, 'add', 'README.md');
  try {
    git(ws, 'commit', '-q', '-m', 'user commit');
  } catch {
    // what the hook ran is what counts
  }
  t.false(existsSync(marker), "the agent-written file ran in the user's pre-commit hook");
  t.false(existsSync(path.join(ws, target)), `the agent-written ${target} was neither refused nor removed`);
}
