// Finding (patterns run or looped over): POSIX sh has no arrays, so a hook keeps its list in the positional parameters
// (`set -- scripts/pre-commit.d/*.sh`) and loops over them with `for part do` (no `in`: the loop is over "$@").
// The reader counts a pattern as run only in `for f in PATTERN`; here it is an argument of `set` (data) and `sh "$part"`
// names nothing, so scripts/pre-commit.d/ is not protected: the agent's write tool changes a script there and adds a new
// one, and the user's next `git commit` runs both unconfined.
// Safe outcome: both writes refused (the pattern's fixed directory protected whole, as for `for f in scripts/pre-commit.d/*.sh`).
import test from 'ava';
import { agentRun, ran, userCommits, world } from './harness.js';

const hook = '#!/bin/sh\nset -- scripts/pre-commit.d/*.sh\nfor part do\n  sh "$part" || exit 1\ndone\n';

test('a pattern set as the positional parameters and looped over is run, as in for-in', async (t) => {
  const w = world(t, { '.git/hooks/pre-commit': hook, 'scripts/pre-commit.d/10-lint.sh': 'echo lint\n' }, ['.git/hooks/pre-commit']);
  const result = await agentRun(w, [{ name: 'write', input: { path: 'scripts/pre-commit.d/05-new.sh', content: `touch '${w.marker}'\n` } }]);
  userCommits(w);
  t.false(ran(w), `the agent's scripts/pre-commit.d/05-new.sh ran on the user's commit; agent output:\n${result.stdout}${result.stderr}`);
});

test('control: the same loop spelled for-in (passes now)', async (t) => {
  const w = world(
    t,
    { '.git/hooks/pre-commit': hook.replace('set -- scripts/pre-commit.d/*.sh\nfor part do', 'for part in scripts/pre-commit.d/*.sh; do'), 'scripts/pre-commit.d/10-lint.sh': 'echo lint\n' },
    ['.git/hooks/pre-commit'],
  );
  const result = await agentRun(w, [{ name: 'write', input: { path: 'scripts/pre-commit.d/05-new.sh', content: `touch '${w.marker}'\n` } }]);
  userCommits(w);
  t.false(ran(w), `${result.stdout}${result.stderr}`);
});

test('the same with an agent that has bash: its command adds the script', async (t) => {
  const w = world(t, { '.git/hooks/pre-commit': hook, 'scripts/pre-commit.d/10-lint.sh': 'echo lint\n' }, ['.git/hooks/pre-commit']);
  const result = await agentRun(w, [{ name: 'bash', input: { command: `printf '%s\\n' "touch '${w.marker}'" > scripts/pre-commit.d/05-new.sh` } }], true);
  userCommits(w);
  t.false(ran(w), `the agent's scripts/pre-commit.d/05-new.sh ran on the user's commit; agent output:\n${result.stdout}${result.stderr}`);
});
