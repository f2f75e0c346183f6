// Review s65n, finding 4: a user's `.git` is a link to `link/main.gitfile`, where `link` is itself a directory link
// (`link -> store`) in the workspace. git follows the whole chain (setup.c read_gitfile_gently stats `.git` through its
// links). git-inventory.ts binds the gitfile it reaches (store/main.gitfile) read-only, never the directory link on
// the way, and nothing records or puts back `link`. The agent makes a repository of its own (`evil`, no hook) and, in
// a new folder, a gitfile naming it, and re-points `link` at that folder (in one call, or in two). zotbox sees the
// gitfile git now reads as "created", removes it and stops ("put them back as they were"), but `link` still names
// `store2`: the user's git finds no repository (fail-closed, not put back). SAFE: the user's git opens their repository.
import { mkdirSync, readlinkSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { git, project } from '../adversarial-s36i/harness.js';
import { agentWritesWith } from './fixtures.js';

const ONE = `set -e
git init -q evil
mkdir store2
printf 'gitdir: evil/.git\\n' > store2/main.gitfile
`;
const TWO = 'ln -sfn store2 link\n';

for (const [title, commands] of [
  ['in two calls (the gitfile first, the link re-pointed next)', ['sh one.sh', 'sh two.sh']],
  ['in one call', ['sh one.sh && sh two.sh']],
] as const) {
  test(`confined: the directory link on the way to a user's gitfile is re-pointed ${title}`, async (t) => {
    const ws = project(t, { 'src/app.js': '1;\n', 'one.sh': ONE, 'two.sh': TWO });
    mkdirSync(path.join(ws, 'store'));
    renameSync(path.join(ws, '.git'), path.join(ws, 'store', 'main.git'));
    writeFileSync(path.join(ws, 'store', 'main.gitfile'), `gitdir: ${path.join(ws, 'store', 'main.git')}\n`);
    symlinkSync('store', path.join(ws, 'link'));
    symlinkSync('link/main.gitfile', path.join(ws, '.git'));
    const before = git(ws, 'rev-parse', '--absolute-git-dir').trim();
    const run = await agentWritesWith(t, ws, {}, commands);
    t.log('run:', run.slice(-1200));
    let after = '(none)';
    try {
      after = git(ws, 'rev-parse', '--absolute-git-dir').trim();
    } catch (error) {
      after = `(git fails: ${String(error).split('\n')[1] ?? ''})`;
    }
    t.log('user git dir before:', before, 'after:', after, 'link:', readlinkSync(path.join(ws, 'link')));
    // SAFE: the user's git still opens their own repository (the link put back, as the stop message says).
    t.is(after, before, "the user's git no longer opens the user's repository");
  });
}
