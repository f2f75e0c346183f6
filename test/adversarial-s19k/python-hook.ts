// The Python-hook attack the reviews of the Python reader share (s19k, s21l, s25n): the user's committed hook runs
// `python3 tools/check.py`; ONE confined call (`sh one.sh`, real bubblewrap) writes the agent's files; then the
// user's own `git commit` runs the hook.
import test, { type ExecutionContext } from 'ava';
import { unresolvedOf } from '../adversarial-s09f/harness.js';
import { project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit } from '../adversarial-s64m/fixtures.js';

/** Python that writes PWNED in the directory it runs in. */
export const PY = 'open("PWNED", "w").close()\n';
/** A pickle (protocol 0) whose load calls builtins.exec, which writes PWNED. */
export const PICKLE = "cbuiltins\nexec\n(Vopen('PWNED','w').close()\ntR.";
/** A harmless pickle (the int 1), the user's own. */
export const PICKLE_ONE = 'I1\n.';
/** A Jinja2 template that reaches `os` through a default global's function (no sandbox: jinja2.Environment's default). */
export const TEMPLATE = "{{ cycler.__init__.__globals__.os.popen('touch PWNED').read() }}\n";

/** The agent's one.sh: each file written from base64 (any bytes, any quotes), its folder made. */
export function oneScript(writes: Readonly<Record<string, string | Buffer>>): string {
  return Object.entries(writes)
    .map(([file, text]) => `mkdir -p "$(dirname '${file}')"\nprintf '%s' '${Buffer.from(text).toString('base64')}' | base64 -d > '${file}'\n`)
    .join('');
}

/** The user's committed files with the hook `python3 tools/check.py`, the agent's call, then the user's `git commit`: true when PWNED. */
export async function attack(t: ExecutionContext, files: Readonly<Record<string, string>>, writes: Readonly<Record<string, string | Buffer>>): Promise<boolean> {
  const ws = project(t, { 'src.txt': '1\n', 'one.sh': oneScript(writes), ...files, '.git/hooks/pre-commit': '#!/bin/sh\nexec python3 tools/check.py\n' });
  return agentThenUserCommit(t, ws);
}

/** The start of an ordinary pre-commit program: the modules such a check imports, and the staged files. */
export const HOOK_HEAD =
  'import json, os, re, shutil, subprocess, sys\nfrom pathlib import Path\nstaged = subprocess.run(["git", "diff", "--cached", "--name-only"], capture_output=True, text=True).stdout.split()\n';

/**
 * Each over-denial `[title, body]` as a test: the hook `exec python3 tools/check.py` whose program is HOOK_HEAD + body
 * gets no reason on tools/check.py (the SAFE, wanted outcome). The user's PATH, as in a real run: python3's own search
 * path is then known.
 */
export function overDenialTests(cases: readonly (readonly [string, string])[]): void {
  for (const [title, body] of cases)
    test(`over-denial: an ordinary hook program, ${title}, is not refused`, (t) => {
      const files = { '.githooks/pre-commit': '#!/bin/sh\nexec python3 tools/check.py\n', 'tools/check.py': HOOK_HEAD + body };
      const reasons = unresolvedOf(t, files, {}, '.githooks', process.env.PATH).filter((reason) => reason.includes('/tools/check.py line '));
      t.deepEqual(reasons, []);
    });
}
