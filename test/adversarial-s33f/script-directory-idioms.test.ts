// Over-denial: common spellings of "the hook's own directory" are not recognised, so a hook that sources a sibling
// library this way refuses EVERY writer of the repository (no file the agent writes is named by it).
import test from 'ava';
import { workspaceRefusal } from './hook-harness.js';

const hooks = ['#!/bin/bash\n. "${BASH_SOURCE%/*}/lib.sh"\n', '#!/bin/sh\nHERE=$(dirname "$(readlink -f "$0")")\n. "$HERE/lib.sh"\n'];
for (const hook of hooks) {
  test(`a hook sourcing its sibling lib.sh as ${JSON.stringify(hook.split('\n')[1])}: src/a.ts stays writable`, (t) => {
    const { refusal } = workspaceRefusal(t, { '.git/hooks/pre-commit': hook, '.git/hooks/lib.sh': 'npm test\n' }, 'src/a.ts');
    t.is(refusal, undefined);
  });
}
