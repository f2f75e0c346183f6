// Finding (issue 21 §2/§3: what git runs when the user continues): the user is in the middle of their own
// `git rebase -i --exec ./scripts/check.sh` (stopped at a step, the usual moment to ask an agent for help). Their
// todo's exec lines are the user's, and pass the closed grammar unseen (the todo did not change), but the file an
// exec line names is no control location: an agent with only the write tool rewrites scripts/check.sh, and the
// user's `git rebase --continue` runs it, unconfined. A config value naming a program (core.fsmonitor = tools/fsm,
// an alias `!./x`) is protected, and so is what a hook runs; the programs a pending todo's exec lines name are not.
import test from 'ava';
import { appendFileSync, chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { git, gitMayFail, makeAgent, makeRepo, makeWorld, runAgent } from './harness.js';

test("the write tool cannot rewrite what an exec line of the user's pending rebase runs", async (t) => {
  const world = makeWorld(t);
  const workspace = makeRepo(path.join(world.root, 'ws'));
  for (const name of ['a', 'b']) {
    writeFileSync(path.join(workspace, name), `${name}\n`);
    git(workspace, ['add', name]);
    git(workspace, ['commit', '-qm', name]);
  }
  // The user's own check script (untracked, excluded locally), and their rebase stopped at a break.
  mkdirSync(path.join(workspace, 'scripts'));
  writeFileSync(path.join(workspace, 'scripts', 'check.sh'), '#!/bin/sh\nexit 0\n');
  chmodSync(path.join(workspace, 'scripts', 'check.sh'), 0o755);
  appendFileSync(path.join(workspace, '.git', 'info', 'exclude'), 'scripts/\n');
  git(workspace, ['rebase', '-q', '-i', '--exec', './scripts/check.sh', 'HEAD~2'], { ...process.env, GIT_SEQUENCE_EDITOR: 'sed -i 1ibreak' });
  mkdirSync(world.state);
  const agent = makeAgent(world.root, 'writer', { mode: 'none' });
  const result = await runAgent(world, agent, workspace, [['write', { path: 'scripts/check.sh', content: `#!/bin/sh\ntouch ${world.marker}\n` }]]);
  t.log(
    result.stdout
      .split('\n')
      .filter((line) => line.includes('tool.result'))
      .join('\n')
      .slice(0, 800),
  );
  gitMayFail(workspace, ['rebase', '--continue']);
  t.false(existsSync(world.marker), "the user's git rebase --continue ran the exec target the agent wrote");
});
