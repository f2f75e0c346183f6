// expansionEnd counts parentheses without quotes: in `$(echo ")"; sh tools/evil.sh)` the substitution is taken to end
// at the quoted ")", the lexer then opens a quote there and the rest of the substitution is one data word.
import test from 'ava';
import { hookCase } from './hook-harness.js';

test('a hook whose command substitution holds a quoted ")" and then runs tools/evil.sh: the agent may not write it', (t) => {
  const hook = hookCase(t, '#!/bin/sh\nx=$(echo ")"; sh tools/evil.sh)\n');
  t.true(hook.commitRunsIt(), 'premise: the real git commit runs tools/evil.sh');
  t.regex(hook.writeRefusal('tools/evil.sh') ?? 'allowed', /write denied/u);
});
