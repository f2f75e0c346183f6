// Review s65n, finding 2: git expands `%(prefix)/` at the start of a path value (config.c interpolate_path:
// system_path(rest), the runtime prefix `/usr` joined with the rest, or the rest itself when it is absolute), so
// `core.hooksPath = %(prefix)/../<ws>/scripts/hooks` is `/usr/../<ws>/scripts/hooks`, and `%(prefix)//<ws>/…` is
// `/<ws>/…` (`git rev-parse --git-path hooks/pre-commit`: seen). user-path-expansion.ts expands only `~`: zotbox takes
// `%(prefix)/…` as a relative path and protects `<top>/%(prefix)/…` and the like, which do not exist. One confined call
// rewrites the hook; the user's `git commit` runs it. Control: the plain absolute path held.
import { appendFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { git, project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit, rewriteHook, userHook } from './fixtures.js';

for (const [title, spelling] of [
  ['%(prefix)/../ before the path', (hooks: string) => `%(prefix)/..${hooks}`],
  ['%(prefix)/ before an absolute path', (hooks: string) => `%(prefix)/${hooks}`],
  ['control: the plain absolute path', (hooks: string) => hooks],
] as const) {
  test(`core.hooksPath with ${title}: the hooks directory git uses is protected`, async (t) => {
    const ws = project(t, { 'src.txt': '1\n', 'one.sh': rewriteHook('scripts/hooks') });
    userHook(ws, 'scripts/hooks');
    const hooks = path.join(ws, 'scripts', 'hooks');
    appendFileSync(path.join(ws, '.git', 'config'), `[core]\n\thooksPath = ${spelling(hooks)}\n`);
    t.is(path.resolve(git(ws, 'rev-parse', '--git-path', 'hooks/pre-commit').trim()), path.join(hooks, 'pre-commit'), "git runs the user's hook there");
    writeFileSync(path.join(ws, 'src.txt'), '2\n');
    // SAFE: the agent's hook never ran.
    t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's hook");
  });
}
