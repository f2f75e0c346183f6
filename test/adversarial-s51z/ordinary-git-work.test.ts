// Review s51z, over-denial probe (held): ordinary git work in the workspace under the rules of this change (a git
// directory is one git opens, or one named like .git). A nested repository the agent made, committed in, then moved
// in a later run: not refused, not undone, no stop. (Pushing to or cloning from a bare repository in the workspace is
// refused by design: no git transports in the sandbox, docs/security.md.) Not a repro: passes today; to run it, copy
// the built .js to NAME.zz.test.js as for the .open files.
import { existsSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, project } from '../adversarial-s36i/harness.js';

const G = 'git -c user.name=a -c user.email=a@example.com';

test('a nested repository made, committed in, and moved to another directory in a later run', async (t) => {
  const ws = project(t, { 'src/app.js': '1;\n' });
  const one = await agentWrites(t, ws, 'one.sh', `set -e\ngit init -q tools/lib\necho x > tools/lib/a\n${G} -C tools/lib add a\n${G} -C tools/lib commit -q -m a\n`, 'sh one.sh');
  t.notRegex(one, /ZB_/u);
  const two = await agentWrites(t, ws, 'two.sh', 'set -e\nmkdir -p vendor\nmv tools/lib vendor/lib\n', 'sh two.sh');
  t.log(two.slice(-800));
  t.notRegex(two, /ZB_/u);
  t.true(existsSync(path.join(ws, 'vendor/lib/.git/HEAD')));
});
