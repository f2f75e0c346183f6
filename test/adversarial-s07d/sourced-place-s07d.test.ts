// Review s07d, and s05b row 2: where the shell is after what zotbox does not follow. A hook's relative words
// (`bash lib.sh`) are relative to where its shell is; a file it sources runs in that shell, so a cd there (or PWD set,
// or a pwd or git of the script's own that `cd "$(pwd)"` calls) moves the hook, and zotbox protected lib.sh at the
// top while the hook ran scripts/lib.sh. One CONFINED call (real bubblewrap, the agent's `sh one.sh`) appends
// `touch PWNED` to scripts/lib.sh; then the user's `git commit`. Each test asserts the SAFE outcome by hand: the
// agent's code never ran. The last tests assert what must keep working: the agent may write an unrelated file where
// the hook sources the user's nvm-like or husky-like files.
import test, { type ExecutionContext } from 'ava';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';
import { attack } from '../adversarial-s05b/harness.js';
import { tempDir } from '../fixtures/temp.js';

const EDIT = "printf 'touch PWNED\\n' >> scripts/lib.sh\n";
/** The hook runs scripts/lib.sh at run time; zotbox, reading no move, protected lib.sh at the top. */
const LIBS = { 'scripts/lib.sh': '#!/bin/bash\necho lint\n', 'lib.sh': '#!/bin/bash\necho top\n' };
const hook = (body: string) => `#!/bin/bash\n${body}\nexit 0\n`;

test('a sourced file cds: . ./cdx.sh (cd scripts); bash lib.sh', async (t) => {
  await attack(t, hook('. ./cdx.sh\nbash lib.sh'), { ...LIBS, 'cdx.sh': 'cd scripts\n' }, EDIT);
});

test('a sourced file cds inside a group, after a test: . ./cdx.sh ({ [ -d scripts ] && cd scripts; }); bash lib.sh', async (t) => {
  await attack(t, hook('. ./cdx.sh\nbash lib.sh'), { ...LIBS, 'cdx.sh': '{ [ -d scripts ] && cd scripts; }\n' }, EDIT);
});

test('a function a sourced file defines cds when the hook calls it: . ./fns.sh; to_scripts; bash lib.sh', async (t) => {
  await attack(t, hook('. ./fns.sh\nto_scripts\nbash lib.sh'), { ...LIBS, 'fns.sh': 'to_scripts() {\n  # cd where the scripts are\n  cd scripts\n}\n' }, EDIT);
});

test("the hook's own function calls the sourced file's moving one: . ./fns.sh; go() { to_scripts; }; go; bash lib.sh", async (t) => {
  await attack(t, hook('. ./fns.sh\ngo() { to_scripts; }\ngo\nbash lib.sh'), { ...LIBS, 'fns.sh': 'to_scripts() { cd scripts; }\n' }, EDIT);
});

test('a sourced file sources one that cds: . ./a.sh (. ./cdx.sh); bash lib.sh', async (t) => {
  await attack(t, hook('. ./a.sh\nbash lib.sh'), { ...LIBS, 'a.sh': '. ./cdx.sh\n', 'cdx.sh': 'pushd scripts >/dev/null\n' }, EDIT);
});

test('a sourced file sets PWD: . ./p.sh (PWD=scripts); cd "$PWD"; bash lib.sh', async (t) => {
  await attack(t, hook('. ./p.sh\ncd "$PWD"\nbash lib.sh'), { ...LIBS, 'p.sh': 'PWD=scripts\n' }, EDIT);
});

test('s05b 2: the hook sets PWD: PWD=scripts; cd "$PWD"; bash lib.sh', async (t) => {
  await attack(t, hook('PWD=scripts\ncd "$PWD"\nbash lib.sh'), LIBS, EDIT);
});

test('s05b 2: the hook defines pwd: pwd() { echo scripts; }; cd "$(pwd)"; bash lib.sh', async (t) => {
  await attack(t, hook('pwd() { echo scripts; }\ncd "$(pwd)"\nbash lib.sh'), LIBS, EDIT);
});

test('a sourced file defines git: . ./g.sh; cd "$(git rev-parse --show-toplevel)"; bash lib.sh', async (t) => {
  await attack(t, hook('. ./g.sh\ncd "$(git rev-parse --show-toplevel)"\nbash lib.sh'), { ...LIBS, 'g.sh': 'git() { echo scripts; }\n' }, EDIT);
});

test('after a cd, a relative `.` is read where the cd went too: cd web; . ./env.sh (cd ../scripts); bash lib.sh', async (t) => {
  await attack(t, hook('cd web\n. ./env.sh\nbash lib.sh'), { ...LIBS, 'web/env.sh': 'cd ../scripts\n', 'web/lib.sh': '#!/bin/bash\necho web\n' }, EDIT);
});

/** The user's hook sources `lib` from a home-like folder outside the workspace, then runs tools/check.sh. */
async function writesBeside(t: ExecutionContext, lib: string): Promise<string> {
  const home = tempDir(t, 'zb-s07d-home-');
  mkdirSync(path.join(home, '.nvm'));
  writeFileSync(path.join(home, '.nvm', 'nvm.sh'), lib);
  const ws = project(t, { 'src.txt': '1\n', '.githooks/pre-commit': `#!/bin/bash\n. "${home}/.nvm/nvm.sh"\nnpx lint-staged\n./tools/check.sh\n`, 'tools/check.sh': '#!/bin/sh\necho ok\n' });
  chmodSync(path.join(ws, '.githooks/pre-commit'), 0o755);
  git(ws, 'config', 'core.hooksPath', '.githooks');
  return agentWrites(t, ws, 'notes.txt', 'x\n');
}

test('kept working: a sourced nvm-like file whose cds are in a command substitution and in functions the hook never calls', async (t) => {
  const nvm = '{\nNVM_DIR="$(cd "$(dirname "$0")" >/dev/null && \\pwd)"\nnvm_cd() {\n  \\cd "$@"\n}\nnvm() { (nvm_cd "$NVM_DIR" && ls); }\nnvm_download() { eval curl $*; }\n}\n';
  t.regex(await writesBeside(t, nvm), /✔ write notes\.txt \(2 B written\)/u);
});

test('kept working: a sourced file that defines functions and moves nothing', async (t) => {
  t.regex(await writesBeside(t, 'log() { echo "$@"; }\n[ -n "$CI" ] && log ci\n'), /✔ write notes\.txt \(2 B written\)/u);
});
