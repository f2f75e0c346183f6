// Review s64m, finding 2: git-config-lines.ts `parseConfigEntries` ends a section header at the FIRST "]", also one
// inside the quoted subsection. git reads the quoted subsection to its closing quote (config.c
// `get_extended_base_var`), so `[includeIf "gitdir:**/[w]s/"]` (a glob with a character class) is an includeIf
// header to git and the section `includeif "gitdir:**/[w` to zotbox: control-locations.ts `readConfig` never reads
// the included file (its `path` is taken as a command word: the file itself is protected, what it says is not). The
// user's team config there says `core.hooksPath = scripts/hooks` (`git config --show-origin`: seen, from
// .git/../team.gitconfig), so scripts/hooks is not protected. One confined call rewrites scripts/hooks/pre-commit;
// the user's `git commit` runs it. Control (the same glob without the brackets, `gitdir:**/ws/`): held.
import { appendFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { git, project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit, rewriteHook, userHook } from './fixtures.js';

for (const [title, condition] of [
  ['a character class in an includeIf glob', 'gitdir:**/[w]s/'],
  ['control: the same glob without one', 'gitdir:**/ws/'],
] as const) {
  test(`${title}: the hooks directory its include names is protected`, async (t) => {
    const ws = project(t, { 'src.txt': '1\n', 'one.sh': rewriteHook('scripts/hooks'), 'team.gitconfig': '[core]\n\thooksPath = scripts/hooks\n' });
    userHook(ws, 'scripts/hooks');
    appendFileSync(path.join(ws, '.git', 'config'), `[includeIf "${condition}"]\n\tpath = ../team.gitconfig\n`);
    t.is(git(ws, 'config', 'core.hooksPath').trim(), 'scripts/hooks', 'git reads core.hooksPath through the include');
    writeFileSync(path.join(ws, 'src.txt'), '2\n');
    // SAFE: the agent's hook never ran.
    t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's hook");
  });
}
