// Review s53b, fail-open of the name rule (set-aside.ts used by git-directory-state.ts, with agent-name-checks.ts).
// Names below a component `.git` are left out of the name scan (isInsideToolData: git never stages them), so the
// after-scan's `unsafeNames` holds none of them. The git aftercare, which runs first, moves a new `.git` it cannot
// judge aside whole to `zotbox-renamed-N` beside it, an ordinary directory name; setAsideNewUnsafeNames then works
// on the inventory taken before that move and never looks into the directory set aside. The unsafe names the agent
// made inside it stay, and from the next call on they were "there before", the user's. The user's `git add -A`
// stages them (`src/zotbox-renamed-1/-rf`, `src/zotbox-renamed-1/$(touch PWNED)`), and every hook or script that
// hands staged names to a program or a shell meets them.
import test from 'ava';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

const UNSAFE = /(^|\/)(-|[^/]*\$\()/u;

test('unsafe names inside a .git that the aftercare sets aside are set aside too (or never kept)', async (t) => {
  const ws = project(t, { 'src/app.js': '1;\n', 'one.sh': "mkdir -p src/.git && : > 'src/.git/-rf' && : > 'src/.git/$(touch PWNED)'\n" });
  t.log('run:', (await agentWrites(t, ws, 'x.txt', 'x\n', 'sh one.sh')).slice(-600));
  git(ws, 'add', '-A');
  const staged = git(ws, 'ls-files').split('\n');
  t.log(
    'staged:',
    staged.filter((name) => name.startsWith('src/')),
  );
  // SAFE: no name the agent made that reads as an option or shell code is left where the user's git stages it.
  t.deepEqual(
    staged.filter((name) => UNSAFE.test(name)),
    [],
  );
});

test('control: the same names made in an ordinary directory are set aside', async (t) => {
  const ws = project(t, { 'src/app.js': '1;\n', 'one.sh': "mkdir -p src/d && : > 'src/d/-rf' && : > 'src/d/$(touch PWNED)'\n" });
  t.log('run:', (await agentWrites(t, ws, 'x.txt', 'x\n', 'sh one.sh')).slice(-600));
  git(ws, 'add', '-A');
  t.deepEqual(
    git(ws, 'ls-files')
      .split('\n')
      .filter((name) => UNSAFE.test(name)),
    [],
  );
});
