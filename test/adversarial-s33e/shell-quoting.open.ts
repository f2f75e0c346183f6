// Finding (s33e): the shell lexer of shell-command-words.ts reads two quotings differently from the shell.
// 1. Inside double quotes, a backslash-newline is a line continuation (removed, POSIX 2.2.3); the lexer keeps the
//    newline, so "tools/ev\<newline>il.sh" protects "tools/ev" and "il.sh", and sh runs tools/evil.sh.
// 2. bash's ANSI-C quoting $'...' is read as a "$" and a quoted word: $'tools/evil.sh' protects "$tools/evil.sh".
// Class: lexShell's quoting; a closed world would implement both (or call any $'..' and "\<newline>" unresolved).
import test from 'ava';
import { agentWrites, PAYLOAD, projectWithHook, userCommitRunsAgentCode } from './harness.js';

test('a backslash-newline inside double quotes is read as the shell joins it', (t) => {
  const ws = projectWithHook('#!/bin/sh\nsh "tools/ev\\\nil.sh"\n', { 'tools/README.md': 'tools\n' });
  const run = agentWrites(ws, 'tools/evil.sh', PAYLOAD.sh);
  t.false(userCommitRunsAgentCode(ws), `the user's git commit ran the agent's tools/evil.sh\n${run.output}`);
});

test("bash's $'...' quoting is read as the word it spells", (t) => {
  const ws = projectWithHook("#!/bin/bash\nbash $'tools/evil.sh'\n", { 'tools/README.md': 'tools\n' });
  const run = agentWrites(ws, 'tools/evil.sh', PAYLOAD.sh);
  t.false(userCommitRunsAgentCode(ws), `the user's git commit ran the agent's tools/evil.sh\n${run.output}`);
});
