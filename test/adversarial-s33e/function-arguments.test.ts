// Finding (s33e): the script reader takes every positional expansion ($1, "$@") as "the user's own arguments" and
// names nothing for a word that holds one. In a hook that is git's arguments at the top level, but inside a function
// body (or after `set --`) they are the script's own words: `run() { sh "scripts/$1.sh"; }; run lint` runs
// scripts/lint.sh, and nothing under scripts/ is protected. A loop's variable in the same place (`for t in lint`)
// protects scripts/ whole; a function's argument should too. Class: positional parameters in script mode (inside a
// function, after `set --`) read like a script's own variable: a pattern under the fixed directory, else unresolved.
import test from 'ava';
import { agentWrites, PAYLOAD, projectWithHook, userCommitRunsAgentCode } from './harness.js';

test('a hook\'s function running `sh "scripts/$1.sh"` gets scripts/lint.sh refused to the write tool', (t) => {
  const ws = projectWithHook(t, '#!/bin/sh\nrun() { sh "scripts/$1.sh"; }\nrun lint\n', { 'scripts/README.md': 'scripts\n' });
  const run = agentWrites(ws, 'scripts/lint.sh', PAYLOAD.sh);
  t.false(userCommitRunsAgentCode(ws), `the user's git commit ran the agent's scripts/lint.sh\n${run.output}`);
});

test('a hook running `set -- lint; sh "scripts/$1.sh"` gets scripts/lint.sh refused to the write tool', (t) => {
  const ws = projectWithHook(t, '#!/bin/sh\nset -- lint\nsh "scripts/$1.sh"\n', { 'scripts/README.md': 'scripts\n' });
  const run = agentWrites(ws, 'scripts/lint.sh', PAYLOAD.sh);
  t.false(userCommitRunsAgentCode(ws), `the user's git commit ran the agent's scripts/lint.sh\n${run.output}`);
});
