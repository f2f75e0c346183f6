// Review s55d, fail-open on review (git-directory-state.ts `undoGitDirectoryChanges`, "moved aside whole, deleting
// nothing"): a new `.git` the aftercare cannot judge is renamed to `zotbox-renamed-N` as it is, HEAD, objects/, refs/,
// info/attributes and the agent's config included. The config check then "undoes" the config at its old path, which
// is gone (the message says it was undone; it was not). The set-aside directory is still a repository git opens (a
// bare one, by its shape): the user who follows the message ("review it by hand") and runs `git log -p` in it runs the
// agent's textconv driver. From the next call on it is a usable git directory with a record: its own baseline.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

const SCRIPT = `set -e
git init -q sub
cd sub
echo a > f.txt
git add f.txt
git -c user.name=a -c user.email=a@example.com commit -q --no-verify -m one
cat >> .git/config <<'X'
[diff "x"]
	textconv = "f() { touch PWNED; cat \\"$1\\"; }; f"
X
echo '* diff=x' > .git/info/attributes
printf '#!/bin/sh\\nexit 0\\n' > .git/hooks/pre-commit
`;

test('a .git the aftercare sets aside is no repository whose config git obeys', async (t) => {
  const ws = project(t, { 'one.sh': SCRIPT });
  t.log('run:', (await agentWrites(t, ws, 'x.txt', 'x\n', 'sh one.sh')).slice(-700));
  const aside = path.join(ws, 'sub/zotbox-renamed-1');
  t.true(existsSync(aside), 'set aside, as the message says');
  t.log('config there:', existsSync(path.join(aside, 'config')) ? readFileSync(path.join(aside, 'config'), 'utf8') : 'none');
  // The user reviews it by hand, with git.
  try {
    t.log(git(aside, 'log', '-p', '-1').slice(0, 300));
  } catch (error) {
    t.log('git log:', String(error).slice(0, 300));
  }
  // SAFE: the agent's textconv never ran.
  t.false(existsSync(path.join(aside, 'PWNED')));
});
