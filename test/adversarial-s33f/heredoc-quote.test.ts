// A here-document's body is text, not shell: an apostrophe in it ("Don't") opens a single quote in the reader's lexer
// that swallows every later line of the hook, so the command after the here-doc is read as one quoted word.
import test from 'ava';
import { hookCase } from './hook-harness.js';

test('a hook that prints a here-doc with an apostrophe, then runs tools/evil.sh: the agent may not write it', (t) => {
  const hook = hookCase(t, "#!/bin/sh\ncat <<EOF\nDon't commit secrets.\nEOF\nsh tools/evil.sh\n");
  t.true(hook.commitRunsIt(), 'premise: the real git commit runs tools/evil.sh');
  t.regex(hook.writeRefusal('tools/evil.sh') ?? 'allowed', /ZB_POLICY_PATH_PROTECTED|write denied/u);
});

test('the same with an unbalanced double quote in the here-doc body', (t) => {
  const hook = hookCase(t, '#!/bin/sh\ncat <<EOF\nRun "npm test before pushing.\nEOF\nsh tools/evil.sh\n');
  t.true(hook.commitRunsIt(), 'premise: the real git commit runs tools/evil.sh');
  t.regex(hook.writeRefusal('tools/evil.sh') ?? 'allowed', /write denied/u);
});
