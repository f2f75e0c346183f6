// Review s53b, raw error out of the aftercare, and with it a fail-open (git-directory-state.ts `recordGitDirectory`).
// The after-scan records every directory holding a HEAD entry in any case. Its listing (readdir of the directory)
// works while the directory's own path is shorter than PATH_MAX (4096), but the lstat of a child (`dir/head`) is
// then longer than PATH_MAX and throws ENAMETOOLONG, uncaught: scanGitMetadata throws a raw Error out of
// finishGitStateCheck before removeUnsafeGitChanges, restoreProtected or setAsideNewUnsafeNames ran. Nothing the
// command left is undone. So one command that also makes `src/.git` (HEAD, objects/, refs/, hooks/pre-commit) keeps
// the hook: the user's `git commit` in src/ runs it, unconfined. (The walk itself lists the deep directory fine.)
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { project } from '../adversarial-s36i/harness.js';
import { agentWrites, deepProject, deepTree, PLANT, userCommitsInSrc } from './deep-tree.js';

// `dir/head` is past PATH_MAX (a `head` so the scan records the directory).
const DEEP = deepTree(': > head');

test('a directory too deep to look into never stops the aftercare from undoing a planted hook', async (t) => {
  const ws = deepProject(t, { 'src/app.js': '1;\n', 'one.sh': PLANT + DEEP });
  const out = await agentWrites(t, ws, 'x.txt', 'x\n', 'sh one.sh');
  t.log('run:', out.slice(-800));
  t.log('hook kept:', existsSync(path.join(ws, 'src/.git/hooks/pre-commit')));
  userCommitsInSrc(t, ws);
  // SAFE: the aftercare undid the hook (or zotbox refused in a typed way and undid it); the user's commit runs nothing.
  t.false(existsSync(path.join(ws, 'PWNED')));
  t.false(/ENAMETOOLONG/u.test(out) && !/ZB_/u.test(out), 'a raw ENAMETOOLONG out of the aftercare');
  // The run stops, typed, naming the directory zotbox cannot look into.
  t.regex(out, /ZB_CONFINEMENT_GIT_PROGRAM/u);
  t.regex(out, /\/bbbb/u);
  // And says what it could not undo there: the HEAD that makes git open the directory.
  t.regex(out, /removing \S+\/HEAD failed \(ENAMETOOLONG\): review it by hand/u);
});

test('control: the same plant without the deep directory is undone', async (t) => {
  const ws = project(t, { 'src/app.js': '1;\n', 'one.sh': PLANT });
  t.log('run:', (await agentWrites(t, ws, 'x.txt', 'x\n', 'sh one.sh')).slice(-500));
  userCommitsInSrc(t, ws);
  t.false(existsSync(path.join(ws, 'PWNED')));
});

test('the write tool and a command in a workspace already holding a directory too deep to look into are refused, typed', async (t) => {
  const ws = deepProject(t, { 'src/app.js': '1;\n', 'y.sh': ': > y.txt\n' });
  execFileSync('sh', ['-c', DEEP], { cwd: ws });
  const out = await agentWrites(t, ws, 'x.txt', 'x\n', 'sh y.sh');
  t.log('run:', out.slice(-900));
  t.false(/unexpected failure/u.test(out), 'a raw error out of a before-scan');
  t.false(existsSync(path.join(ws, 'x.txt')));
  t.false(existsSync(path.join(ws, 'y.txt')));
});
