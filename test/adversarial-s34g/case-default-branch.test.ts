// Finding (over-denial): a `case` statement's default branch (`*) …;;`) is a pattern the shell matches against the
// case word, not a command: but the lexer splits at `)`, takes `*` as a command that runs, and reports it as a
// pattern with no fixed directory: every write and command of every agent in the repository is refused. `case` with
// `*)` is in most hand-written hooks (argument and ref parsing; git's own pre-rebase.sample). Here: a commit-msg hook.
// Safe outcome: an ordinary write succeeds (case patterns are no words of a command).
import test from 'ava';
import { agentRun, world, writtenText } from './harness.js';

const hook = '#!/bin/sh\ncase "$(head -n1 "$1")" in\n  fixup!*|squash!*) exit 0 ;;\n  *) grep -qE "^(feat|fix|docs): " "$1" || exit 1 ;;\nesac\n';

test('a hook with a case default branch does not refuse an ordinary write', async (t) => {
  const w = world(t, { '.git/hooks/commit-msg': hook }, ['.git/hooks/commit-msg']);
  const result = await agentRun(w, [{ name: 'write', input: { path: 'src/app.py', content: 'print("hello")\n' } }]);
  const written = writtenText(w, 'src/app.py');
  t.is(written, 'print("hello")\n', `${result.stdout}${result.stderr}`);
});
