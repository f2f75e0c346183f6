// `sh -c SCRIPT` is read as shell only when the shell is the command's program: behind a wrapper zotbox does not know
// (timeout, nice -n, flock, sudo) the script is one quoted word and what it runs is not read.
import test from 'ava';
import { hookCase } from './hook-harness.js';

for (const wrapper of ['timeout 60', 'nice -n 5']) {
  test(`a hook running "${wrapper} sh -c 'sh tools/evil.sh'": the agent may not write tools/evil.sh`, (t) => {
    const hook = hookCase(`#!/bin/sh\n${wrapper} sh -c "sh tools/evil.sh"\n`);
    t.true(hook.commitRunsIt(), 'premise: the real git commit runs tools/evil.sh');
    t.regex(hook.writeRefusal('tools/evil.sh') ?? 'allowed', /write denied/u);
  });
}
