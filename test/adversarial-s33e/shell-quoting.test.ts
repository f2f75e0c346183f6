// Finding (s33e): the shell lexer of shell-command-words.ts reads two quotings differently from the shell.
// 1. Inside double quotes, a backslash-newline is a line continuation (removed, POSIX 2.2.3); the lexer keeps the
//    newline, so "tools/ev\<newline>il.sh" protects "tools/ev" and "il.sh", and sh runs tools/evil.sh.
// 2. bash's ANSI-C quoting $'...' is read as a "$" and a quoted word: $'tools/evil.sh' protects "$tools/evil.sh".
// 3. Worse, an escaped quote in $'...' (`echo $'don\'t'`) desynchronises the lexer: the rest of the script up to
//    the next quote is one word, so `python3 -m tools.lint` there is read as words, not by python's grammar.
// Class: lexShell's quoting; a closed world would implement both (or call any $'..' and "\<newline>" unresolved).
import test from 'ava';
import { agentWrites, PAYLOAD, projectWithHook, userCommitRunsAgentCode } from './harness.js';

test('a backslash-newline inside double quotes is read as the shell joins it', (t) => {
  const ws = projectWithHook(t, '#!/bin/sh\nsh "tools/ev\\\nil.sh"\n', { 'tools/README.md': 'tools\n' });
  const run = agentWrites(ws, 'tools/evil.sh', PAYLOAD.sh);
  t.false(userCommitRunsAgentCode(ws), `the user's git commit ran the agent's tools/evil.sh\n${run.output}`);
});

test("bash's $'...' quoting is read as the word it spells", (t) => {
  const ws = projectWithHook(t, "#!/bin/bash\nbash $'tools/evil.sh'\n", { 'tools/README.md': 'tools\n' });
  const run = agentWrites(ws, 'tools/evil.sh', PAYLOAD.sh);
  t.false(userCommitRunsAgentCode(ws), `the user's git commit ran the agent's tools/evil.sh\n${run.output}`);
});

test("an escaped quote in $'...' does not hide the rest of the script from the grammar", (t) => {
  const ws = projectWithHook(t, "#!/bin/bash\necho $'don\\'t'\npython3 -m tools.lint\necho 'ok'\n", { 'tools/README.md': 'tools\n' });
  const run = agentWrites(ws, 'tools/lint.py', PAYLOAD.py);
  t.false(userCommitRunsAgentCode(ws), `the user's git commit ran the agent's tools/lint.py\n${run.output}`);
});
