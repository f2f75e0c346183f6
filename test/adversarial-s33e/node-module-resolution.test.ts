// Finding (s33e): an interpreter's operand is protected only as spelled, but node resolves it with extensions.
// The user's hook runs `node tools/check` (or preloads `node -r ./setup`); zotbox protects the path tools/check
// (a directory, whole) and ./setup, but node runs tools/check.js and setup.js, which the agent may write. Class:
// interpreter-operands.ts reads node's operand and -r/--require/--import values without node's resolution
// (X, X.js, X.mjs, X.cjs, X.json, X.node, X/index.*), as it does for python -m.
import test from 'ava';
import { agentWrites, PAYLOAD, projectWithHook, userCommitRunsAgentCode } from './harness.js';

test('a hook running `node tools/check` gets tools/check.js refused to the write tool', (t) => {
  const ws = projectWithHook(t, '#!/bin/sh\nnode tools/check\n', { 'tools/README.md': 'tools\n' });
  const run = agentWrites(ws, 'tools/check.js', PAYLOAD.js);
  t.false(userCommitRunsAgentCode(ws), `the user's git commit ran the agent's tools/check.js\n${run.output}`);
});

test('a hook preloading `node -r ./setup` gets setup.js refused to the write tool', (t) => {
  const ws = projectWithHook(t, '#!/bin/sh\nnode -r ./setup -e 0\n');
  const run = agentWrites(ws, 'setup.js', PAYLOAD.js);
  t.false(userCommitRunsAgentCode(ws), `the user's git commit ran the agent's setup.js\n${run.output}`);
});
