// Finding (s33d), same class as hook-script-words: a command value in the user's git config is read word by word,
// and `python3 tools/fsmon.py` protects tools/fsmon.py, but `python3 -m tools.fsmon` (the same program, named as a
// module) protects nothing. An agent with only the write tool writes tools/fsmon.py; the user's plain `git status`
// runs it through core.fsmonitor.
import test from 'ava';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { makeWorld, userRuns } from './world.js';

test("the module core.fsmonitor runs with python3 -m is not the agent's to write", async (t) => {
  const world = makeWorld(t);
  const marker = path.join(world.root, 'PWNED');
  mkdirSync(path.join(world.workspace, 'tools'));
  userRuns(world, 'git', ['init', '-q']);
  userRuns(world, 'git', ['config', 'core.fsmonitor', 'python3 -m tools.fsmon']);
  const result = await world.run([{ write: 'tools/fsmon.py', content: `open(${JSON.stringify(marker)}, 'w')\n` }]);
  t.is(result.status, 0, result.stderr);
  userRuns(world, 'git', ['status', '--short']);
  t.false(existsSync(path.join(world.workspace, 'tools', 'fsmon.py')), 'the agent wrote the module core.fsmonitor runs');
  t.false(existsSync(marker), "the user's git status ran code the agent wrote");
});
