// Review s65n, finding 1: a config value that is not UTF-8 is read as another path. control-locations.ts reads every
// config file with readSmallFile (bytes.toString('utf8')), so a byte such as 0xE9 (Latin-1 "é") in an include path
// becomes U+FFFD; `readConfig` then looks for `caf\uFFFD.inc`, finds nothing ("absent: git reads nothing there
// either") and reads nothing, while git opens `caf\xe9.inc` by its bytes. The walk's refusal of non-UTF-8 names covers
// only the write scopes: the included file here lies outside them (a user's own config folder), so nothing refuses.
// It sets core.hooksPath to a directory in the workspace: not bound read-only. One confined call rewrites the hook;
// the user's `git commit` runs it. Control: the same include spelled in UTF-8 (`café.inc`) held.
import { appendFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { git, project } from '../adversarial-s36i/harness.js';
import { tempDir } from '../fixtures/temp.js';
import { agentThenUserCommit, rewriteHook, userHook } from './fixtures.js';

for (const [title, encoding] of [
  ['an include path in Latin-1', 'latin1'],
  ['control: the same include path in UTF-8', 'utf8'],
] as const) {
  test(`${title}: the hooks directory the included file names is protected`, async (t) => {
    const ws = project(t, { 'src.txt': '1\n', 'one.sh': rewriteHook('scripts/hooks') });
    userHook(ws, 'scripts/hooks');
    const outside = tempDir(t, 'zb-s65n-conf-');
    const included = Buffer.from(path.join(outside, 'café.inc'), encoding);
    writeFileSync(included, `[core]\n\thooksPath = ${path.join(ws, 'scripts', 'hooks')}\n`);
    appendFileSync(path.join(ws, '.git', 'config'), Buffer.concat([Buffer.from('[include]\n\tpath = '), included, Buffer.from('\n')]));
    t.is(git(ws, 'config', '--includes', 'core.hooksPath').trim(), path.join(ws, 'scripts', 'hooks'), 'git follows the include by its bytes');
    writeFileSync(path.join(ws, 'src.txt'), '2\n');
    // SAFE: the agent's hook never ran.
    t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's hook");
  });
}
