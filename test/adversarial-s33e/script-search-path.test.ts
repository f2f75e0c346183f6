// Finding (s33e): a hook script that puts a project directory on a search path (`export PATH="$PWD/bin:$PATH"`,
// `PYTHONPATH=tools python3 -m lint`, `perl -Mlib=tools -MLint`) makes every file in it code the hook runs, but the
// script reader takes the value as one more word: a directory named as a word is "a setting's directory", not
// protected, so the agent writes bin/lint, tools/lint.py or tools/Lint.pm and the user's commit runs it. The tool-file
// reader (direnv, settings files) already protects a search variable's directories whole (SEARCH_VARIABLES); the
// script reader (shell-command-words.ts) does not. Class: assignments and prefixes in scripts of *PATH/*LIB
// variables (and perl's -Mlib=, node's NODE_PATH) should name trees.
import test from 'ava';
import { agentWrites, PAYLOAD, projectWithHook, userCommitRunsAgentCode } from './harness.js';

test('a hook putting $PWD/bin first on PATH gets bin/ refused to the write tool', (t) => {
  // The user's own lint script, executable, in bin/: the agent rewrites it (the write tool keeps an existing file's mode).
  const ws = projectWithHook(t, '#!/bin/sh\nexport PATH="$PWD/bin:$PATH"\nproject-lint\n', { 'bin/project-lint': '#!/bin/sh\nexit 0\n' }, ['bin/project-lint']);
  const run = agentWrites(ws, 'bin/project-lint', PAYLOAD.sh);
  t.false(userCommitRunsAgentCode(ws), `the user's git commit ran the agent's bin/project-lint\n${run.output}`);
});

test('a hook running `PYTHONPATH=tools python3 -m lint` gets tools/lint.py refused to the write tool', (t) => {
  const ws = projectWithHook(t, '#!/bin/sh\nPYTHONPATH=tools python3 -m lint\n', { 'tools/README.md': 'tools\n' });
  const run = agentWrites(ws, 'tools/lint.py', PAYLOAD.py);
  t.false(userCommitRunsAgentCode(ws), `the user's git commit ran the agent's tools/lint.py\n${run.output}`);
});

test('a hook running `perl -Mlib=tools -MLint -e1` gets tools/Lint.pm refused to the write tool', (t) => {
  const ws = projectWithHook(t, '#!/bin/sh\nperl -Mlib=tools -MLint -e1\n', { 'tools/README.md': 'tools\n' });
  const run = agentWrites(ws, 'tools/Lint.pm', PAYLOAD.pl);
  t.false(userCommitRunsAgentCode(ws), `the user's git commit ran the agent's tools/Lint.pm\n${run.output}`);
});
