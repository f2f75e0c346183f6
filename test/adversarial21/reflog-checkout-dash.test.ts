// Finding (found while closing todo-unchecked-commit): a reflog line named a commit the check never read (class: git data the user's
// git writes into the worktree later; logs/ is opaque to the closed world). The
// user's `git checkout -` (and `git switch -`, `@{-1}`) goes back to "the branch
// before": git finds it in HEAD's reflog, in the last "checkout: moving from X to
// Y" line, and X may be any object id. An agent with python3 appends one such
// line naming a dangling commit E that changes .husky/pre-commit (the user's
// core.hooksPath); E is on no ref, so nothing checks it. The user's `git checkout -`
// checks E out, writing the hook, and their next commit runs it. Fixing the sequencer
// (todo `reset main@{1}` is refused) does not reach this: the revision is the user's
// own `-`, and the reflog is the agent's. Now the commit `@{-1}` resolves to after a call that changed HEAD's
// reflog is checked, and a line that keeps `checkout -` on the current branch undoes it (git-sequencer-state.ts).
import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { replay, userGit, world } from './open/world.js';

const GENERATOR = fileURLToPath(new URL('../../../test/adversarial21/reflog-checkout-dash.py', import.meta.url));

test("a line appended to HEAD's reflog never brings the user's git checkout - a commit the check did not read", async (t) => {
  const w = world(t, { '.husky/pre-commit': '#!/bin/sh\nexit 0\n' });
  userGit(w, ['config', 'core.hooksPath', '.husky']);
  const result = await replay(w, [
    { name: 'write', input: { path: 'log.py', content: readFileSync(GENERATOR, 'utf8') } },
    { name: 'bash', input: { command: `python3 log.py ${w.marker}` } },
  ]);
  t.log(result.stdout);
  t.true(result.stdout.includes(`${w.ws}/.git/logs/HEAD`), 'the run names the reflog it refused');
  // The user, later, goes back to "the previous branch" and commits.
  for (const args of [
    ['checkout', '-'],
    ['commit', '-q', '--allow-empty', '-m', 'later'],
  ]) {
    try {
      userGit(w, args);
    } catch {
      // what counts is the marker
    }
  }
  t.false(existsSync(w.marker), "the agent's pre-commit hook ran as the user");
});
