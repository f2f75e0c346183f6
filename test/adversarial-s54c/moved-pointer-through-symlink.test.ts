// Review s54c, fail-open (git-moved-entries.ts `movedPointers` with git-inventory.ts `namedDirectory`): a moved
// gitfile is kept when it "names the same directory" (device and inode), but that is looked up through whatever
// symlinks stand on its path NOW, and the agent makes them. `mkdir deep && ln -s ../gitstore deep/gitstore && mv lib
// deep/lib`: the user's relative `gitdir: ../gitstore/lib` names deep/gitstore/lib, the same directory through the
// agent's link: kept, the user's. From the next call on it is "a pointer that was there before", and its path runs
// through an ordinary symlink of the agent's: `ln -sfn ../evil deep/gitstore` makes it name evil/lib (no HEAD: not
// owned, not usable, nothing judged, no stop); in call three evil/lib is "the pointed-to directory's record", hook
// included, and HEAD, objects/, refs/ are data. The user's `git commit` in deep/lib runs the agent's hook.
import { existsSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

const HOOK = 'mkdir -p evil/lib/hooks && printf \'#!/bin/sh\\ntouch "$PWD/PWNED"\\n\' > evil/lib/hooks/pre-commit && chmod +x evil/lib/hooks/pre-commit';
const ARM = "mkdir -p evil/lib/objects evil/lib/refs/heads && printf 'ref: refs/heads/main\\n' > evil/lib/HEAD";

async function attack(t: import('ava').ExecutionContext, first: string, second: string, pointer: 'relative' | 'absolute' | 'link'): Promise<string> {
  const ws = project(t, { 'one.sh': `${first} && ${HOOK}\n`, 'two.sh': `${second}\n`, 'three.sh': `${ARM}\n`, 'gitstore/.keep': '' });
  git(ws, 'init', '-q', '--separate-git-dir', path.join(ws, 'gitstore/lib'), path.join(ws, 'lib'));
  if (pointer === 'relative') writeFileSync(path.join(ws, 'lib/.git'), 'gitdir: ../gitstore/lib\n');
  if (pointer === 'link') {
    rmSync(path.join(ws, 'lib/.git'));
    symlinkSync(path.join(ws, 'gitstore/lib'), path.join(ws, 'lib/.git'));
  }
  writeFileSync(path.join(ws, 'lib/app.js'), '1;\n');
  t.log('run 1:', (await agentWrites(t, ws, 'x.txt', 'x\n', 'sh one.sh')).slice(-500));
  t.log('run 2:', (await agentWrites(t, ws, 'y.txt', 'y\n', 'sh two.sh')).slice(-500));
  t.log('run 3:', (await agentWrites(t, ws, 'z.txt', 'z\n', 'sh three.sh')).slice(-500));
  return ws;
}

function userCommits(t: import('ava').ExecutionContext, worktree: string): void {
  try {
    git(worktree, 'add', 'app.js');
    git(worktree, 'commit', '-q', '-m', 'user change');
  } catch (error) {
    t.log('user git failed:', String(error).slice(0, 300));
  }
}

test("a moved gitfile that names its directory through the agent's symlink never arms a hook later", async (t) => {
  const ws = await attack(t, 'mkdir deep && ln -s ../gitstore deep/gitstore && mv lib deep/lib', 'ln -sfn ../evil deep/gitstore', 'relative');
  userCommits(t, path.join(ws, 'deep/lib'));
  // SAFE: the agent's hook never ran.
  t.false(existsSync(path.join(ws, 'deep/lib/PWNED')));
});

// The same without any move (not the new code): git's own absolute gitfile (`git init --separate-git-dir`) names
// gitstore/lib; the agent renames gitstore (its parent, not the bound directory) and puts a symlink in its place. The
// pointer still names the same directory, so nothing is judged; from the next call on, the symlink is the agent's to
// retarget.
test('a user gitfile whose path the agent routes through its own symlink never arms a hook later', async (t) => {
  const ws = await attack(t, 'mv gitstore gitstore.old && ln -s gitstore.old gitstore', 'ln -sfn evil gitstore', 'absolute');
  userCommits(t, path.join(ws, 'lib'));
  // SAFE: the agent's hook never ran.
  t.false(existsSync(path.join(ws, 'lib/PWNED')));
});

test("a user's .git link whose path the agent routes through its own symlink never arms a hook later", async (t) => {
  const ws = await attack(t, 'mv gitstore gitstore.old && ln -s gitstore.old gitstore', 'ln -sfn evil gitstore', 'link');
  userCommits(t, path.join(ws, 'lib'));
  // SAFE: the agent's hook never ran.
  t.false(existsSync(path.join(ws, 'lib/PWNED')));
});

// The directory the re-pointed link leads to held a HEAD entry (an empty file git does not open) and the hook from the
// call before: its record is no baseline, since it was no git directory then. Found while fixing the above.
test('a directory that only held a HEAD entry, which a re-pointed link makes a user pointer name, brings no baseline', async (t) => {
  const ws = await attack(t, 'mv gitstore gitstore.old && ln -s gitstore.old gitstore && mkdir -p evil/lib && : > evil/lib/HEAD', 'ln -sfn evil gitstore', 'absolute');
  userCommits(t, path.join(ws, 'lib'));
  // SAFE: the agent's hook never ran.
  t.false(existsSync(path.join(ws, 'lib/PWNED')));
});
