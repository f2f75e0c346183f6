// dash (/bin/sh on Debian, what a #!/bin/sh hook runs under) expands aliases in scripts: `alias lint='sh tools/evil.sh'`
// then `lint` runs it. The alias's body is read as one word ("lint=sh tools/evil.sh"), split only at "=".
import test from 'ava';
import { hookCase } from './hook-harness.js';

test('a #!/bin/sh hook that defines and uses an alias running tools/evil.sh: the agent may not write it', (t) => {
  const hook = hookCase(t, '#!/bin/sh\nalias lint="sh tools/evil.sh"\nlint\n');
  t.true(hook.commitRunsIt(), 'premise: the real git commit runs tools/evil.sh (dash expands aliases)');
  t.regex(hook.writeRefusal('tools/evil.sh') ?? 'allowed', /write denied/u);
});
