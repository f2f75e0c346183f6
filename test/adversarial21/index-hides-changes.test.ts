// Finding "index-hides-changes" of the issue 21 review (briefed without the tests):
// docs/security.md leaves files the user's tools run on request (package.json
// scripts, a Makefile) to the user's review of the agent's changes, and that review
// is `git status` and `git diff`. An agent with python3 allowlisted (git itself is
// refused update-index by the gate; python's git is not) changes package.json and
// sets skip-worktree on it: the user's status would be clean and their `npm test`
// run the agent's script unreviewed. The class (git-index-flags.ts) is tested in
// test/host/executors/confine/git-index-flags.test.ts; here end to end.
import test from 'ava';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeWorld, runAttack } from './world.js';

for (const flag of ['--skip-worktree', '--assume-unchanged'] as const) {
  test(`git update-index ${flag} from python3 is refused, and the user's git status shows the agent's change`, async (t) => {
    const world = makeWorld(t);
    writeFileSync(path.join(world.workspace, 'package.json'), '{"scripts":{"test":"node test.js"}}\n');
    world.git('add', '.');
    world.git('commit', '-q', '-m', 'init');
    const script = ['import os, subprocess', `subprocess.run(['git', 'update-index', '${flag}', 'package.json'], check=True)`, 'os.remove(__file__)'].join('\n');
    const result = await runAttack(world, { mode: 'allowlist', allow: ['git', 'python3'] }, [
      { tool: 'write', input: { path: 'package.json', content: `{"scripts":{"test":"touch ${world.mark}"}}\n` } },
      { tool: 'write', input: { path: 'tidy.py', content: `${script}\n` } },
      { tool: 'bash', input: { command: 'python3 tidy.py' } },
    ]);
    t.regex(result.stdout, /ZB_CONFINEMENT_GIT_PROGRAM/u);
    t.regex(result.stdout, new RegExp(`marked package.json ${flag.slice(2)}`, 'u'));
    t.true(readFileSync(path.join(world.workspace, 'package.json'), 'utf8').includes(world.mark), 'precondition: the agent changed package.json (a write scope grants it)');
    // The user, later, reviews before running the project's tests.
    t.deepEqual(world.git('status', '--porcelain').split('\n').filter(Boolean), [' M package.json'], "the user's git status shows the agent's change");
    t.deepEqual(world.git('ls-files', '-v').split('\n').filter(Boolean), ['H package.json'], 'the flag is gone');
  });
}
