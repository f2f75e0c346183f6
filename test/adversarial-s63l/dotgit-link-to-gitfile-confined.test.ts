// Review s63l, finding 1 confined (real bubblewrap, a full run). The gitfile a user's `.git` link leads to is not bound
// read-only (git-inventory.ts: a `.git` link's target goes to `addGitDirectory`, never to `linkTargets`; sandbox-plan.ts
// binds only gitfiles that ARE `.git` entries), and after the call a `.git` link that leads to a file "names nothing"
// (git-inventory.ts `namedDirectory`: statSync, not a directory). One confined call makes a repository of its own
// (no hook: nothing zotbox refuses) and re-points the user's gitfile at it: the run does not stop, and the user's
// worktree is now the agent's repository's (its index, refs and commits, which zotbox checked against the agent's
// folder, not the user's worktree).
import { readFileSync, mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

const ONE = `set -e
git init -q evil
printf 'gitdir: evil/.git\\n' > store/main.gitfile
`;

test("confined: the gitfile behind a user's .git link is re-pointed and nothing stops", async (t) => {
  const ws = project(t, { 'src/app.js': '1;\n', 'one.sh': ONE });
  mkdirSync(path.join(ws, 'store'));
  renameSync(path.join(ws, '.git'), path.join(ws, 'store', 'main.git'));
  writeFileSync(path.join(ws, 'store', 'main.gitfile'), `gitdir: ${path.join(ws, 'store', 'main.git')}\n`);
  symlinkSync('store/main.gitfile', path.join(ws, '.git'));
  const before = git(ws, 'rev-parse', '--absolute-git-dir').trim();
  const run = await agentWrites(t, ws, 'x1.txt', 'x\n', 'sh one.sh');
  t.log('run:', run.slice(-700));
  const after = git(ws, 'rev-parse', '--absolute-git-dir').trim();
  t.log('user git dir before:', before, 'after:', after, 'gitfile:', readFileSync(path.join(ws, 'store', 'main.gitfile'), 'utf8').trim());
  // SAFE: the user's git still opens their own repository (the gitfile put back, or the run stopped and said so).
  t.is(after, before, "the user's git now opens the agent's repository");
});
