// Finding (s33e): the script reader spells $PWD and $(pwd) as the top of the repository wherever they stand, but
// after a `cd` the shell's $PWD is the new directory: `cd tools; sh "$PWD/lint.sh"` protects lint.sh at the top, and
// sh runs tools/lint.sh. `cd -` is read as `cd` alone (the home directory), where the shell goes to $OLDPWD. Class:
// the working directory as the shell tracks it: $PWD/$(pwd) after a cd are relative to every directory the cds name
// (as relative words already are), and a cd whose target is not spelled (`cd -`) is unresolved.
import test from 'ava';
import { agentWrites, PAYLOAD, projectWithHook, userCommitRunsAgentCode } from './harness.js';

test('a hook running `cd tools; sh "$PWD/lint.sh"` gets tools/lint.sh refused to the write tool', (t) => {
  const ws = projectWithHook(t, '#!/bin/sh\ncd tools\nsh "$PWD/lint.sh"\n', { 'tools/README.md': 'tools\n' });
  const run = agentWrites(ws, 'tools/lint.sh', PAYLOAD.sh);
  t.false(userCommitRunsAgentCode(ws, 'tools/PWNED'), `the user's git commit ran the agent's tools/lint.sh\n${run.output}`);
});

test('a hook running `OLDPWD=tools; cd -; sh lint.sh` gets tools/lint.sh refused to the write tool', (t) => {
  const ws = projectWithHook(t, '#!/bin/sh\nOLDPWD="$PWD/tools"\ncd - >/dev/null\nsh lint.sh\n', { 'tools/README.md': 'tools\n' });
  const run = agentWrites(ws, 'tools/lint.sh', PAYLOAD.sh);
  t.false(userCommitRunsAgentCode(ws, 'tools/PWNED'), `the user's git commit ran the agent's tools/lint.sh\n${run.output}`);
});
