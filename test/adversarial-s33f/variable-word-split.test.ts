// An unquoted variable is split into words where it is used: `RUN="sh tools/evil.sh"` then `$RUN` runs sh with
// tools/evil.sh. The reader spells the value into one word ("sh tools/evil.sh"), a file that does not exist.
// The same for a git alias given on the command line (`git -c alias.x="!sh tools/evil.sh" x`, run by a shell).
import test from 'ava';
import { hookCase } from './hook-harness.js';

for (const lines of ['RUN="sh tools/evil.sh"\n$RUN', 'git -c alias.x="!sh tools/evil.sh" x']) {
  test(`a hook running ${JSON.stringify(lines)}: the agent may not write tools/evil.sh`, (t) => {
    const hook = hookCase(t, `#!/bin/sh\n${lines}\n`);
    t.true(hook.commitRunsIt(), 'premise: the real git commit runs tools/evil.sh');
    t.regex(hook.writeRefusal('tools/evil.sh') ?? 'allowed', /write denied/u);
  });
}
