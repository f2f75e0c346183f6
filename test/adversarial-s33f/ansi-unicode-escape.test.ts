// bash's $'...' also spells \uHHHH and \UHHHHHHHH (bash 4.2+); ansiQuoted keeps them as written ("tools/\u0065vil.sh"),
// so `sh $'tools/\u0065vil.sh'` in a #!/bin/bash hook names a file the reader never protects.
import test from 'ava';
import { hookCase } from './hook-harness.js';

for (const escape of ['\\u0065', '\\U00000065']) {
  test(`a bash hook running sh $'tools/${escape}vil.sh': the agent may not write tools/evil.sh`, (t) => {
    const hook = hookCase(t, `#!/bin/bash\nsh $'tools/${escape}vil.sh'\n`);
    t.true(hook.commitRunsIt(), 'premise: the real git commit runs tools/evil.sh');
    t.regex(hook.writeRefusal('tools/evil.sh') ?? 'allowed', /write denied/u);
  });
}
