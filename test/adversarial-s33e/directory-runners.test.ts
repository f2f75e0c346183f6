// Finding (s33e): a program that runs every file of a directory (`run-parts tools/pre-commit.d`, Debian's hook
// dispatcher) is read as a program with a word; the word is a directory, and a directory a word names is not
// protected, so the agent rewrites tools/pre-commit.d/10-lint (the write tool keeps the user's executable mode) and
// the user's commit runs it. A loop over `tools/pre-commit.d/*` protects the directory whole; run-parts should too.
// Class: programs that run a directory's files (run-parts, and the like), read as a pattern over that directory.
import test from 'ava';
import { agentWrites, PAYLOAD, projectWithHook, userCommitRunsAgentCode } from './harness.js';

test('a hook running `run-parts tools/pre-commit.d` gets that directory refused to the write tool', (t) => {
  const ws = projectWithHook(t, '#!/bin/sh\nrun-parts --exit-on-error tools/pre-commit.d\n', { 'tools/pre-commit.d/10-lint': '#!/bin/sh\nexit 0\n' }, ['tools/pre-commit.d/10-lint']);
  const run = agentWrites(ws, 'tools/pre-commit.d/10-lint', PAYLOAD.sh);
  t.false(userCommitRunsAgentCode(ws), `the user's git commit ran the agent's tools/pre-commit.d/10-lint\n${run.output}`);
});
