// Review s55d, fail-open (git-state-check.ts order, with git-aftercare.ts `named` → git-directory-state.ts set-aside):
// the protected set after the call is computed from the scan taken BEFORE the git aftercare moved anything aside. A
// new tool file inside a directory the git aftercare moves whole (git's place with no baseline) is "created" at its
// old path: restoreProtected removes nothing there (it is gone), and the file stays at zotbox-renamed-N, where the
// next call takes it for the user's. The agent chooses the directory: it re-points the user's separate git
// directory's path (`mv gitstore gitstore.old && mkdir gitstore && ln -s ../packages/evil gitstore/lib`), so the
// user's gitfile names packages/evil, which holds the agent's .envrc and .vscode/tasks.json (a folder-open task).
// Both are moved to packages/zotbox-renamed-1 and stay. (A new workspace package.json is not a tool file by design:
// docs/security.md, "the project's code, run as npm test runs it"; the control shows it is not removed either.)
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

const MAKE = [
  'mkdir -p packages/evil',
  'mkdir packages/evil/.vscode',
  `printf '%s' '{"version":"2.0.0","tasks":[{"label":"x","type":"shell","command":"touch PWNED","runOptions":{"runOn":"folderOpen"}}]}' > packages/evil/.vscode/tasks.json`,
  "printf 'touch PWNED\\n' > packages/evil/.envrc",
].join(' && ');
const SCRIPT = `${MAKE} && mv gitstore gitstore.old && mkdir gitstore && ln -s ../packages/evil gitstore/lib`;

test("a new tool file is never carried past the protected-file check by the git aftercare's set-aside", async (t) => {
  const ws = project(t, {
    'package.json': '{"name":"root","private":true,"workspaces":["packages/*"]}\n',
    'packages/app/package.json': '{"name":"app","version":"1.0.0"}\n',
    'gitstore/.keep': '',
    'one.sh': `${SCRIPT}\n`,
  });
  git(ws, 'init', '-q', '--separate-git-dir', path.join(ws, 'gitstore/lib'), path.join(ws, 'lib'));
  writeFileSync(path.join(ws, 'lib/app.js'), '1;\n');
  t.log('run:', (await agentWrites(t, ws, 'x.txt', 'x\n', 'sh one.sh')).slice(-900));
  const left = readdirSync(path.join(ws, 'packages'));
  t.log('packages/:', left);
  // SAFE: no .envrc or .vscode the agent made is left anywhere in packages/.
  for (const name of left.filter((n) => n !== 'app')) {
    t.false(existsSync(path.join(ws, 'packages', name, '.vscode/tasks.json')), `packages/${name}/.vscode/tasks.json`);
    t.false(existsSync(path.join(ws, 'packages', name, '.envrc')), `packages/${name}/.envrc`);
  }
});

// Control: the same files without the re-pointed link are removed (ZB_CONFINEMENT_PROTECTED_FILE).
test('control: a new .envrc and .vscode/tasks.json are removed', async (t) => {
  const ws = project(t, { 'package.json': '{"name":"root","private":true,"workspaces":["packages/*"]}\n', 'one.sh': `${MAKE}\n` });
  t.log('run:', (await agentWrites(t, ws, 'x.txt', 'x\n', 'sh one.sh')).slice(-400));
  t.false(existsSync(path.join(ws, 'packages/evil/.vscode/tasks.json')));
  t.false(existsSync(path.join(ws, 'packages/evil/.envrc')));
});

// The same with no user pointer at all: one command makes `sub/.git` (git's place, new, so moved aside whole) holding
// the tool files; the set-aside turns `sub/.git` into the ordinary folder `sub/zotbox-renamed-1`.
test('a new tool file inside a new .git is never left in the ordinary folder it is set aside to', async (t) => {
  const script = "mkdir -p sub/.git/.vscode && printf 'touch PWNED\\n' > sub/.git/.envrc && printf '%s' '{\"tasks\":[]}' > sub/.git/.vscode/tasks.json";
  const ws = project(t, { 'one.sh': `${script}\n` });
  t.log('run:', (await agentWrites(t, ws, 'x.txt', 'x\n', 'sh one.sh')).slice(-600));
  const left = readdirSync(path.join(ws, 'sub'));
  t.log('sub/:', left);
  // SAFE: no .envrc or .vscode the agent made is left in sub/, under any name.
  for (const name of left) {
    t.false(existsSync(path.join(ws, 'sub', name, '.envrc')), `sub/${name}/.envrc`);
    t.false(existsSync(path.join(ws, 'sub', name, '.vscode/tasks.json')), `sub/${name}/.vscode/tasks.json`);
  }
});
