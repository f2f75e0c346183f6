// Finding (environment variables / option variables): in a hook, an interpreter's option variable set for the command
// (`NODE_OPTIONS="--require ./tools/register.js" node -e 0`) makes node load tools/register.js first. In an .envrc the
// reader reads NODE_OPTIONS, PERL5OPT and RUBYOPT by their interpreter's grammar; in a script the word is split only at
// "=", ":" and ",", so `--require ./tools/register.js` (one word with a blank) names no file: the agent's write tool
// replaces tools/register.js and the user's next `git commit` runs it unconfined.
// Safe outcome: the write is refused (the module the option variable loads is protected, as `node -r ./tools/register.js` is).
import test from 'ava';
import { agentRun, ran, userCommits, world } from './harness.js';

const hook = '#!/bin/sh\nNODE_OPTIONS="--require ./tools/register.js" node -e 0\n';

test("a hook's NODE_OPTIONS module is protected as node -r's is", async (t) => {
  const w = world(t, { '.git/hooks/pre-commit': hook, 'tools/register.js': "// the project's loader\n" }, ['.git/hooks/pre-commit']);
  const result = await agentRun(w, [{ name: 'write', input: { path: 'tools/register.js', content: `require('fs').writeFileSync(${JSON.stringify(w.marker)}, '');\n` } }]);
  userCommits(w);
  t.false(ran(w), `node loaded the agent's tools/register.js on the user's commit; agent output:\n${result.stdout}${result.stderr}`);
});

test('control: the same module given as node -r (passes now)', async (t) => {
  const w = world(t, { '.git/hooks/pre-commit': '#!/bin/sh\nnode -r ./tools/register.js -e 0\n', 'tools/register.js': "// the project's loader\n" }, ['.git/hooks/pre-commit']);
  const result = await agentRun(w, [{ name: 'write', input: { path: 'tools/register.js', content: `require('fs').writeFileSync(${JSON.stringify(w.marker)}, '');\n` } }]);
  userCommits(w);
  t.false(ran(w), `${result.stdout}${result.stderr}`);
});
