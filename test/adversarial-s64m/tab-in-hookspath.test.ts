// Review s64m, finding 4: git turns every blank outside quotes inside a value into a space (config.c `parse_value`:
// `space++` per blank, then that many ' '), so `hooksPath = scripts/my<TAB>hooks` is `scripts/my hooks` to git
// (`git config --get core.hooksPath | od -c`: seen). git-config-lines.ts `unquote` keeps the tab, so zotbox protects
// and lists as a hooks directory `scripts/my\thooks`, which does not exist, and the user's `scripts/my hooks` is not
// bound. One confined call rewrites `scripts/my hooks/pre-commit`; the user's `git commit` runs it. Control (a space
// in the config instead of the tab): held.
import { appendFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { git, project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit, rewriteHook, userHook } from './fixtures.js';

for (const [title, blank] of [
  ['a tab', '\t'],
  ['control: a space', ' '],
] as const) {
  test(`${title} inside an unquoted core.hooksPath: the hooks directory git uses is protected`, async (t) => {
    const ws = project(t, { 'src.txt': '1\n', 'one.sh': rewriteHook('scripts/my hooks') });
    userHook(ws, 'scripts/my hooks');
    appendFileSync(path.join(ws, '.git', 'config'), `[core]\n\thooksPath = scripts/my${blank}hooks\n`);
    t.is(git(ws, 'config', 'core.hooksPath').trim(), 'scripts/my hooks', 'git reads a space');
    writeFileSync(path.join(ws, 'src.txt'), '2\n');
    // SAFE: the agent's hook never ran.
    t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's hook");
  });
}
