// The setup review s09f's cases share (place-s09f.test.ts, place-s09f.open.ts): the s07d layout (the hook ends up in
// scripts/ at run time and runs `bash lib.sh`; zotbox protected the top's lib.sh), a folder link made before the
// agent's call, and the unresolved lines of a workspace read with toolFileReferences.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ExecutionContext } from 'ava';
import { toolFileReferences } from '../../src/host/executors/confine/tool-file-references.js';
import { agentThenUserCommits } from '../adversarial-s05b/harness.js';
import { git, project } from '../adversarial-s36i/harness.js';
import { tempDir } from '../fixtures/temp.js';

export const EDIT = "printf 'touch PWNED\\n' >> scripts/lib.sh\n";
/** The hook runs scripts/lib.sh at run time; zotbox, reading no move, protected lib.sh at the top. */
export const LIBS = { 'scripts/lib.sh': '#!/bin/bash\necho lint\n', 'lib.sh': '#!/bin/bash\necho top\n' };
export const hook = (body: string) => `#!/bin/bash\n${body}\nexit 0\n`;

/** attack() with the user's own folder link made before the agent's call: `link` → scripts/sub. */
export async function attackWithLink(t: ExecutionContext, body: string): Promise<void> {
  const ws = project(t, { 'src.txt': '1\n', 'one.sh': EDIT, '.githooks/pre-commit': hook(body), 'scripts/sub/keep.txt': '1\n', ...LIBS });
  chmodSync(path.join(ws, '.githooks/pre-commit'), 0o755);
  symlinkSync('scripts/sub', path.join(ws, 'link'));
  git(ws, 'config', 'core.hooksPath', '.githooks');
  t.false(await agentThenUserCommits(t, ws), "the user's git commit ran the agent's code");
}

/** The unresolved lines of a workspace whose files are `files` and whose home holds `home`, hooks in `hooks`, with the user's PATH `searchPath` if given. */
export function unresolvedOf(t: ExecutionContext, files: Readonly<Record<string, string>>, home: Readonly<Record<string, string>> = {}, hooks = '.githooks', searchPath?: string): readonly string[] {
  const top = realpathSync(tempDir(t, 'zb-s09f-'));
  for (const [name, text] of Object.entries({
    ...Object.fromEntries(Object.entries(files).map(([k, v]) => [`ws/${k}`, v])),
    ...Object.fromEntries(Object.entries(home).map(([k, v]) => [`home/${k}`, v])),
  })) {
    mkdirSync(path.dirname(path.join(top, name)), { recursive: true });
    writeFileSync(path.join(top, name), text);
  }
  const ws = path.join(top, 'ws');
  mkdirSync(path.join(top, 'home'), { recursive: true });
  execFileSync('git', ['init', '-q'], { cwd: ws });
  return toolFileReferences([], [ws], {
    environment: { HOME: path.join(top, 'home'), ...(searchPath === undefined ? {} : { PATH: searchPath }) },
    hookDirectories: [{ directory: path.join(ws, hooks), top: ws }],
  }).unresolved;
}

export const COUNT = '#!/bin/sh\ngit diff --cached --name-only | wc -l\n';

/**
 * Whether zotbox, reading the hook `body` (with LIBS and `files`) via core.hooksPath .githooks, refuses every writer or
 * protects `file` (the SAFE outcome of the s11g and s13h unit cases).
 */
export function heldFor(t: ExecutionContext, body: string, files: Readonly<Record<string, string>> = {}, file = 'scripts/lib.sh'): boolean {
  const ws = realpathSync(tempDir(t, 'zb-held-'));
  for (const [name, text] of Object.entries({ ...LIBS, ...files, '.githooks/pre-commit': hook(body) })) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    writeFileSync(path.join(ws, name), text);
  }
  execFileSync('git', ['init', '-q'], { cwd: ws });
  const read = toolFileReferences([], [ws], { environment: { HOME: ws }, hookDirectories: [{ directory: path.join(ws, '.githooks'), top: ws }] });
  const target = path.join(ws, file);
  return read.unresolved.length > 0 || read.locations.some((each) => each.path === target || (each.tree && target.startsWith(`${each.path}/`)));
}
