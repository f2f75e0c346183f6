// Review s65n, finding 5: a path in a config value is resolved by the kernel one component at a time (a link first,
// then its `..`), and by zotbox lexically (control-locations.ts `path.resolve(base, value)`), so they differ once a
// component before a `..` becomes a link. The user's `core.hooksPath = scripts/cache/../hooks` is `scripts/hooks` to
// both while `scripts/cache` is a directory: zotbox binds `scripts/hooks` read-only, and nothing on the way (the
// directory `scripts/cache` is no link, and not what git reads). One confined call makes `evil/a/b` and
// `evil/a/hooks/pre-commit` and replaces `scripts/cache` with a link to `../evil/a/b`: the kernel now reads
// `evil/a/b/../hooks` = `evil/a/hooks`, and the user's `git commit` runs the agent's hook. Control (the same call
// with the link made elsewhere, `scripts/other`): held trivially (git runs the user's hook).
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { git, project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit, userHook } from './fixtures.js';

const swap = (link: string) => `set -e
mkdir -p evil/a/b evil/a/hooks
printf '#!/bin/sh\\ntouch "$(git rev-parse --show-toplevel)/PWNED"\\n' > evil/a/hooks/pre-commit
chmod +x evil/a/hooks/pre-commit
rm -rf '${link}'
ln -s ../evil/a/b '${link}'
`;

for (const [title, link] of [
  ['the directory before the .. replaced by a link', 'scripts/cache'],
  ['control: another directory replaced by a link', 'scripts/other'],
] as const) {
  test(`core.hooksPath = scripts/cache/../hooks, ${title}: git runs the user's hooks`, async (t) => {
    const ws = project(t, { 'src.txt': '1\n', 'one.sh': swap(link) });
    userHook(ws, 'scripts/hooks');
    mkdirSync(path.join(ws, 'scripts', 'cache'));
    mkdirSync(path.join(ws, 'scripts', 'other'));
    appendFileSync(path.join(ws, '.git', 'config'), '[core]\n\thooksPath = scripts/cache/../hooks\n');
    t.is(path.relative(ws, path.resolve(ws, git(ws, 'rev-parse', '--git-path', 'hooks/pre-commit').trim())), path.join('scripts', 'hooks', 'pre-commit'));
    writeFileSync(path.join(ws, 'src.txt'), '2\n');
    // SAFE: the agent's hook never ran.
    t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's hook");
  });
}
