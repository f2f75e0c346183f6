// Finding (here-docs: a spelling the reader takes differently from sh): `<<\EOF` quotes its delimiter with a
// backslash (git's own pre-rebase.sample writes `<<\DOC_END`); the body ends at the line `EOF`. The lexer keeps the
// backslash in the delimiter, looks for a line `\EOF` that never comes, and takes the whole REST of the hook as the
// body of `cat`'s here-document (data): everything after it goes unread. Here the hook prints a banner, then sources
// scripts/lib.sh; the agent's write tool replaces scripts/lib.sh and the user's next commit runs it.
// Safe outcome: the write is refused (the lines after the here-document read as the hook's).
import test from 'ava';
import { agentRun, ran, userCommits, world } from './harness.js';

const hook = '#!/bin/sh\ncat <<\\EOF\nRunning the project checks.\nEOF\n. ./scripts/lib.sh\ncheck_all\n';

test('a here-document with a backslash-quoted delimiter ends at its delimiter line', async (t) => {
  const w = world(t, { '.git/hooks/pre-commit': hook, 'scripts/lib.sh': 'check_all() { echo ok; }\n' }, ['.git/hooks/pre-commit']);
  const result = await agentRun(w, [{ name: 'write', input: { path: 'scripts/lib.sh', content: `check_all() { touch '${w.marker}'; }\n` } }]);
  userCommits(w);
  t.false(ran(w), `the agent's scripts/lib.sh ran on the user's commit; agent output:\n${result.stdout}${result.stderr}`);
});
