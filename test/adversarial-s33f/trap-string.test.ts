// `trap 'CMD' EXIT` runs CMD: trap is taken as a builtin that runs no file, and its quoted command is one word.
import test from 'ava';
import { hookCase } from './hook-harness.js';

test('a hook whose trap runs tools/evil.sh at exit: the agent may not write it', (t) => {
  const hook = hookCase(t, '#!/bin/sh\ntrap "sh tools/evil.sh" EXIT\n');
  t.true(hook.commitRunsIt(), 'premise: the real git commit runs tools/evil.sh');
  t.regex(hook.writeRefusal('tools/evil.sh') ?? 'allowed', /write denied/u);
});
