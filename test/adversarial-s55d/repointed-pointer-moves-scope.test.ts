// Review s55d, data loss by zotbox (git-aftercare.ts `named` with git-directory-state.ts `owned`): a directory a
// user's pointer names after the call is "git's place", and one with no baseline is moved aside whole. What the
// pointer names is looked up through whatever symlinks stand on its path now, and the agent makes them: the bound
// git directory's parent can be renamed (s52a 1). `mv gitstore gitstore.old && mkdir gitstore && ln -s ../src
// gitstore/lib` makes the user's `gitdir: ../gitstore/lib` name the user's own src/: zotbox moves src/ whole to
// zotbox-renamed-N. With `ln -s .. gitstore/lib` it names the write scope's root: zotbox renames the whole workspace
// beside itself, outside the write scope.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

async function repoint(t: import('ava').ExecutionContext, linkTo: string, pointer: 'relative' | 'absolute' = 'relative'): Promise<string> {
  const script = `mv gitstore gitstore.old && mkdir gitstore && ln -s ${linkTo} gitstore/lib\n`;
  const ws = project(t, { 'src/main.ts': 'export const x = 1;\n', 'README.md': 'r\n', 'gitstore/.keep': '', 'one.sh': script });
  git(ws, 'init', '-q', '--separate-git-dir', path.join(ws, 'gitstore/lib'), path.join(ws, 'lib'));
  if (pointer === 'relative') writeFileSync(path.join(ws, 'lib/.git'), 'gitdir: ../gitstore/lib\n');
  writeFileSync(path.join(ws, 'lib/app.js'), '1;\n');
  const out = await agentWrites(t, ws, 'x.txt', 'x\n', 'sh one.sh');
  t.log('run:', out.slice(-700));
  t.log('beside ws:', readdirSync(path.dirname(ws)));
  return ws;
}

test("a re-pointed link never makes zotbox move the user's own folder aside", async (t) => {
  const ws = await repoint(t, '../src');
  // SAFE: the user's src/ stays where it is (the agent's link, not the user's folder, is what is undone).
  t.true(existsSync(path.join(ws, 'src/main.ts')));
});

test('a re-pointed link never makes zotbox move the write scope itself', async (t) => {
  const ws = await repoint(t, '..');
  // SAFE: the workspace stays at its path, with the user's files in it.
  t.true(existsSync(path.join(ws, 'src/main.ts')));
  t.true(existsSync(path.join(ws, 'README.md')));
});

// The same with git's own absolute gitfile (`git init --separate-git-dir`, as git writes it): no relative path needed.
test("a re-pointed link never makes zotbox move the write scope itself (git's absolute gitfile)", async (t) => {
  const ws = await repoint(t, '..', 'absolute');
  // SAFE: the workspace stays at its path, with the user's files in it.
  t.true(existsSync(path.join(ws, 'src/main.ts')));
});
