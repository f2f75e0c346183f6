// `sh -c SCRIPT` is read as shell only when the shell is the command's program: behind a wrapper zotbox does not know
// (timeout, nice -n, flock, sudo) the script is one quoted word and what it runs is not read.
import test from 'ava';
import { hookCase } from './hook-harness.js';

// Also a command string handed over otherwise: `flock FILE -c CMD`, `env -S CMD`, and `bash -c -- CMD`.
for (const wrapper of ['timeout 60', 'nice -n 5']) {
  test(`a hook running "${wrapper} sh -c 'sh tools/evil.sh'": the agent may not write tools/evil.sh`, (t) => {
    const hook = hookCase(t, `#!/bin/sh\n${wrapper} sh -c "sh tools/evil.sh"\n`);
    t.true(hook.commitRunsIt(), 'premise: the real git commit runs tools/evil.sh');
    t.regex(hook.writeRefusal('tools/evil.sh') ?? 'allowed', /write denied/u);
  });
}

for (const line of ['flock /tmp/zb-s33f.lock -c "sh tools/evil.sh"', 'env -S "sh tools/evil.sh"', 'bash -c -- "sh tools/evil.sh"']) {
  test(`a hook running '${line}': the agent may not write tools/evil.sh`, (t) => {
    const hook = hookCase(t, `#!/bin/sh\n${line}\n`);
    t.true(hook.commitRunsIt(), 'premise: the real git commit runs tools/evil.sh');
    t.regex(hook.writeRefusal('tools/evil.sh') ?? 'allowed', /write denied/u);
  });
}
