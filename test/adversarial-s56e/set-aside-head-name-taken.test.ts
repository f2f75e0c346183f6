// Review s56e, fail-open on review (git-directory-state.ts `unopenable`): a `.git` set aside whole has its HEAD
// renamed to the fixed name `HEAD.zotbox-set-aside`. The agent's command makes that name first (a directory): the
// rename fails (EISDIR), the message says "git still opens it", and the set-aside directory is s55d 4 again: a
// repository git opens, with the agent's config. The user reviewing it with `git log -p` runs its textconv driver.
import { existsSync, readdirSync } from 'node:fs';
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
mkdir .git/HEAD.zotbox-set-aside
`;

test('a .git set aside is never left a repository git opens, whatever names the command made in it', async (t) => {
  const ws = project(t, { 'one.sh': SCRIPT });
  t.log('run:', (await agentWrites(t, ws, 'x.txt', 'x\n', 'sh one.sh')).slice(-900));
  const aside = path.join(ws, 'sub/zotbox-renamed-1');
  t.true(existsSync(aside), 'set aside, as the message says');
  t.log('in it:', readdirSync(aside));
  try {
    t.log(git(aside, 'log', '-p', '-1').slice(0, 300));
  } catch (error) {
    t.log('git log:', String(error).slice(0, 300));
  }
  t.log('textconv ran:', existsSync(path.join(aside, 'PWNED')));
  // SAFE: git does not open it, and the agent's textconv never ran.
  t.false(existsSync(path.join(aside, 'HEAD')));
  t.false(existsSync(path.join(aside, 'PWNED')));
});
