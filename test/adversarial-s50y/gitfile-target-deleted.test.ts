// Review s50y, data loss by zotbox. A gitfile a command makes (`x/.git` holding `gitdir: ../src`) makes its target a
// git directory "pointed to" (git-inventory.ts addGitDirectory(target, true): usable whatever it holds). The git
// aftercare undoes the gitfile, but also checks the target as a new repository (undoGitDirectoryChanges: no earlier
// record), and as it is pointed to it is not defused by removing its HEAD: every path in it that is not git data is
// removed, recursively. The user's own directory (here src/, with files never committed) is deleted by zotbox.
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, project } from '../adversarial-s36i/harness.js';

test("a gitfile a command makes never gets the user's directory it names deleted", async (t) => {
  const ws = project(t, { 'src/app.js': '1;\n', 'src/lib/util.js': '2;\n' });
  writeFileSync(path.join(ws, 'src/draft.js'), 'uncommitted work\n');
  const transcript = await agentWrites(t, ws, 'mk.sh', "mkdir x && printf 'gitdir: ../src\\n' > x/.git\n", 'sh mk.sh');
  t.log(transcript.slice(-900));
  // SAFE: the gitfile is undone (the run may stop), the user's files stay.
  t.false(existsSync(path.join(ws, 'x/.git')));
  t.true(existsSync(path.join(ws, 'src/app.js')));
  t.true(existsSync(path.join(ws, 'src/lib/util.js')));
  t.true(existsSync(path.join(ws, 'src/draft.js')));
});

test('a gitfile naming the workspace itself never gets the workspace (its .git included) deleted', async (t) => {
  const ws = project(t, { 'src/app.js': '1;\n', 'package.json': '{}\n' });
  const transcript = await agentWrites(t, ws, 'mk.sh', "mkdir x && printf 'gitdir: ..\\n' > x/.git\n", 'sh mk.sh');
  t.log(transcript.slice(-900));
  t.true(existsSync(path.join(ws, 'src/app.js')));
  t.true(existsSync(path.join(ws, 'package.json')));
  t.true(existsSync(path.join(ws, '.git/HEAD')));
});

test("a .git symlink a command makes never gets the user's directory it points to deleted", async (t) => {
  const ws = project(t, { 'src/app.js': '1;\n' });
  const transcript = await agentWrites(t, ws, 'mk.sh', 'mkdir x && ln -s ../src x/.git\n', 'sh mk.sh');
  t.log(transcript.slice(-600));
  t.true(existsSync(path.join(ws, 'src/app.js')));
});
