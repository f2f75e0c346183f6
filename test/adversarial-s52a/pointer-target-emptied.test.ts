// Review s52a, data loss by zotbox (git-directory-state.ts `undoGitDirectoryChanges`: `named` now also means
// `before?.pointedTo`). A directory a gitfile or .git link that existed before the call names is held to git's data
// like a `.git`, HEAD or not, and new paths in it are REMOVED (not defused) — judged against its record only while its
// inode is the same. The pointer names a PATH, not a directory: one command renames the user's separate git directory
// away (its parent is ordinary: s51z 1) and moves a directory of the user's own files to the path the gitfile names.
// The aftercare takes it for "the git directory the user's pointer names", finds every file in it new (another inode,
// so no baseline) and not git data, and deletes them all on the host: uncommitted work, gone. The same with a user's
// gitfile whose target is missing (one `mkdir -p` + `mv`).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, project } from '../adversarial-s36i/harness.js';

const NOTES = 'uncommitted notes the user wrote\n';

/** The user's notes file, wherever the command left it; undefined if it is gone everywhere. */
function notes(ws: string): string | undefined {
  const aside = existsSync(path.join(ws, 'gitstore'))
    ? readdirSync(path.join(ws, 'gitstore'))
        .filter((name) => name.startsWith('zotbox-renamed-'))
        .map((name) => `gitstore/${name}`)
    : [];
  for (const dir of ['notes', 'gitstore/lib', 'gitstore.old/lib', ...aside]) {
    const file = path.join(ws, dir, 'todo.txt');
    if (existsSync(file)) return readFileSync(file, 'utf8');
  }
  return undefined;
}

test("moving a user's directory to where the user's separate git directory stood never gets zotbox to delete its files", async (t) => {
  const ws = project(t, { 'src/app.js': '1;\n', 'one.sh': 'mv gitstore gitstore.old && mkdir gitstore && mv notes gitstore/lib\n' });
  mkdirSync(path.join(ws, 'gitstore'));
  execFileSync('git', ['init', '-q', '--separate-git-dir', 'gitstore/lib', 'lib'], { cwd: ws });
  mkdirSync(path.join(ws, 'notes'));
  writeFileSync(path.join(ws, 'notes/todo.txt'), NOTES);
  t.log((await agentWrites(t, ws, 'x.txt', 'x\n', 'sh one.sh')).slice(-1200));
  // SAFE: the user's file still exists somewhere with its content.
  t.is(notes(ws), NOTES);
});

test("moving a user's directory to the missing path a user's gitfile names never gets zotbox to delete its files", async (t) => {
  const ws = project(t, { 'src/app.js': '1;\n', 'one.sh': 'mkdir -p gitstore && mv notes gitstore/lib\n' });
  mkdirSync(path.join(ws, 'lib'));
  writeFileSync(path.join(ws, 'lib/.git'), 'gitdir: ../gitstore/lib\n');
  mkdirSync(path.join(ws, 'notes'));
  writeFileSync(path.join(ws, 'notes/todo.txt'), NOTES);
  t.log((await agentWrites(t, ws, 'x.txt', 'x\n', 'sh one.sh')).slice(-1200));
  t.is(notes(ws), NOTES);
});

test('control: the move alone (no pointer) keeps the files', async (t) => {
  const ws = project(t, { 'src/app.js': '1;\n', 'one.sh': 'mkdir -p gitstore && mv notes gitstore/lib\n' });
  mkdirSync(path.join(ws, 'notes'));
  writeFileSync(path.join(ws, 'notes/todo.txt'), NOTES);
  await agentWrites(t, ws, 'x.txt', 'x\n', 'sh one.sh');
  t.is(notes(ws), NOTES);
});

// A folder of the user's moved to git's own place (named like .git, no record there): moved aside whole, never emptied.
test("moving a user's directory to a new .git never gets zotbox to delete its files", async (t) => {
  const ws = project(t, { 'src/app.js': '1;\n', 'one.sh': 'mkdir -p gitstore && mv notes gitstore/.git\n' });
  mkdirSync(path.join(ws, 'notes'));
  writeFileSync(path.join(ws, 'notes/todo.txt'), NOTES);
  t.log((await agentWrites(t, ws, 'x.txt', 'x\n', 'sh one.sh')).slice(-1200));
  t.is(notes(ws), NOTES);
});
