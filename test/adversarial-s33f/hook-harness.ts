// Shared by the s33f repros: a real repository whose pre-commit hook (written by the user) runs tools/evil.sh in a
// spelling the shell grammar reader misreads; the question is whether the agent may write tools/evil.sh.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ExecutionContext } from 'ava';
import { userGitEnvironment } from '../../src/host/executors/confine/control-locations.js';
import { currentControlLocations, refuseProtectedWrite } from '../../src/host/executors/confine/protected-locations.js';
import { tempDir } from '../fixtures/temp.js';

export interface HookCase {
  readonly root: string;
  /** Whether the user's real `git commit` runs tools/evil.sh (the premise: the hook does run it). */
  readonly commitRunsIt: () => boolean;
  /** Whether the write tool's check lets the agent write `relative` (undefined: allowed; else the refusal). */
  readonly writeRefusal: (relative: string) => string | undefined;
}

export function hookCase(t: ExecutionContext, hook: string, hookName = '.git/hooks/pre-commit'): HookCase {
  const root = fs.realpathSync(tempDir(t, 'zb-s33f-'));
  execFileSync('git', ['init', '-q', root]);
  fs.mkdirSync(path.dirname(path.join(root, hookName)), { recursive: true });
  fs.writeFileSync(path.join(root, hookName), hook, { mode: 0o755 });
  if (hookName !== '.git/hooks/pre-commit') execFileSync('git', ['-C', root, 'config', 'core.hooksPath', path.dirname(hookName)]);
  return {
    root,
    commitRunsIt: () => {
      fs.mkdirSync(path.join(root, 'tools'), { recursive: true });
      fs.writeFileSync(path.join(root, 'tools/evil.sh'), 'touch "$(git rev-parse --show-toplevel)/RAN"\n');
      const git = ['-C', root, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '--allow-empty', '-m', 'x'];
      try {
        execFileSync('git', git, { stdio: 'ignore' });
      } catch {
        // A hook that exits non-zero still ran: RAN tells.
      }
      const ran = fs.existsSync(path.join(root, 'RAN'));
      fs.rmSync(path.join(root, 'tools'), { recursive: true, force: true });
      fs.rmSync(path.join(root, 'RAN'), { force: true });
      return ran;
    },
    writeRefusal: (relative) => {
      const controls = currentControlLocations([root], [], userGitEnvironment(process.env, os.homedir()));
      try {
        refuseProtectedWrite(path.join(root, relative), [root], controls);
        return undefined;
      } catch (error) {
        return (error as Error).message;
      }
    },
  };
}

/** A real repository holding `files` (tool files the user wrote): whether the agent may write `relative`. */
export function workspaceRefusal(t: ExecutionContext, files: Readonly<Record<string, string>>, relative: string): { root: string; refusal: string | undefined } {
  const root = fs.realpathSync(tempDir(t, 'zb-s33f-'));
  execFileSync('git', ['init', '-q', root]);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text, { mode: 0o755 });
  }
  const controls = currentControlLocations([root], [], userGitEnvironment(process.env, os.homedir()));
  try {
    refuseProtectedWrite(path.join(root, relative), [root], controls);
    return { root, refusal: undefined };
  } catch (error) {
    return { root, refusal: (error as Error).message };
  }
}
