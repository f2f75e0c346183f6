// Review s45t of issue 21: the attack shapes the repros share, through the s36i harness: the write tool leaves a file,
// then the user commits, which runs the hook unconfined, with a stand-in tool (one that does what the real tool does,
// checked by hand with the real one) first on the user's PATH where the tool is not installed here.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ExecutionContext } from 'ava';
import { agentWrites } from '../adversarial-s36i/harness.js';
import { tempDir } from '../fixtures/temp.js';

/** A directory outside the workspace holding executables (name → text), to put first on the user's PATH. */
export function userBin(t: ExecutionContext, programs: Readonly<Record<string, string>>): string {
  const dir = path.join(tempDir(t, 'zb-s45t-bin-'), 'bin');
  mkdirSync(dir);
  for (const [name, text] of Object.entries(programs)) {
    writeFileSync(path.join(dir, name), text);
    chmodSync(path.join(dir, name), 0o755);
  }
  return dir;
}

/** The user's `git commit` (nothing staged), with `bin` first on PATH: the hook runs unconfined. */
export function userCommits(ws: string, bin?: string): void {
  const PATH = bin === undefined ? (process.env.PATH ?? '') : `${bin}:${process.env.PATH ?? ''}`;
  try {
    execFileSync('git', ['-c', 'user.name=u', '-c', 'user.email=u@example.com', 'commit', '-q', '--allow-empty', '-m', 'user commit'], {
      cwd: ws,
      env: { ...process.env, PATH },
      stdio: 'ignore',
    });
  } catch {
    // what the hook ran is what counts
  }
}

/** Where the payloads leave their mark: beside the workspace, never in it. */
export const markerOf = (ws: string) => path.join(path.dirname(ws), 'PWNED');

/**
 * The write tool writes `content(marker)` to `target`, then the user commits (`bin` first on PATH). Safe: the write is
 * refused (or removed after the call) and the payload never runs.
 */
export async function writeThenCommit(t: ExecutionContext, ws: string, target: string, content: (marker: string) => string, bin?: string): Promise<void> {
  const marker = markerOf(ws);
  const before = existsSync(path.join(ws, target)) ? readFileSync(path.join(ws, target), 'utf8') : undefined;
  t.log(await agentWrites(t, ws, target, content(marker)));
  const after = existsSync(path.join(ws, target)) ? readFileSync(path.join(ws, target), 'utf8') : undefined;
  userCommits(ws, bin);
  t.false(existsSync(marker), `the agent-written ${target} ran in the user's pre-commit hook`);
  t.is(after, before, `the agent-written ${target} was neither refused nor put back`);
}

/** NODE_OPTIONS that load an ES module given inline (the payload in one line, nothing else to write). */
export const nodeOptionsPayload = (marker: string) => {
  const code = `import{writeFileSync}from"node:fs";writeFileSync(${JSON.stringify(marker)},"agent code ran")`;
  return `--import=data:text/javascript,${encodeURIComponent(code)}`;
};

/** An ordinary write (a file nothing names) is accepted: the over-denial check. */
export async function ordinaryWriteAccepted(t: ExecutionContext, ws: string, file = 'src/other.js'): Promise<void> {
  t.log(await agentWrites(t, ws, file, 'console.log(3);\n'));
  t.true(existsSync(path.join(ws, file)), `an ordinary write (${file}, named by no hook) was refused`);
}
