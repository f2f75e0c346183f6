// Review s52a, side finding (git-aftercare.ts `removeUnsafeGitChanges`, the gitEntries loop; not one of the new rules).
// s51z 2's fix lets a command move a directory holding a nested repository: a git DIRECTORY that moves is matched to
// its record by inode. A gitFILE that moves with its parent is not: at its new path it is "new", so zotbox deletes it
// ("a gitfile points git at another directory's config and hooks"), although it is the user's own and names the same
// git directory as before. `mv lib lib2` of a worktree whose .git is a gitfile (a separate git directory here; a
// submodule's checkout or a linked worktree alike) leaves lib2/ no longer a repository.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, project } from '../adversarial-s36i/harness.js';

test("moving a worktree whose .git is the user's gitfile never gets zotbox to delete that gitfile", async (t) => {
  const ws = project(t, { 'src/app.js': '1;\n', 'one.sh': 'mv lib lib2\n' });
  mkdirSync(path.join(ws, 'gitstore'));
  execFileSync('git', ['init', '-q', '--separate-git-dir', 'gitstore/lib', 'lib'], { cwd: ws });
  const gitfile = readFileSync(path.join(ws, 'lib/.git'), 'utf8');
  t.log((await agentWrites(t, ws, 'x.txt', 'x\n', 'sh one.sh')).slice(-800));
  // SAFE: the user's gitfile is kept, wherever the command left it.
  const kept = ['lib', 'lib2'].map((top) => path.join(ws, top, '.git')).find((file) => existsSync(file));
  t.is(kept === undefined ? undefined : readFileSync(kept, 'utf8'), gitfile);
});
