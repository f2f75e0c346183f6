// Review s11g: the over-denials still open after the fix (place-s11g.test.ts holds the fixed rows): ordinary hooks every
// writer is refused for. Each test asserts the reading an ordinary hook should get, so it FAILS while it is refused.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { COUNT, unresolvedOf } from '../adversarial-s09f/harness.js';

// Over-denials: ordinary hooks every writer is refused for.
test("over-denial: git's git-sh-setup and its cd_to_toplevel (the hook already runs at the top): reads", (t) => {
  const setup = path.join(execFileSync('git', ['--exec-path'], { encoding: 'utf8' }).trim(), 'git-sh-setup');
  t.deepEqual(unresolvedOf(t, { '.githooks/pre-commit': `#!/bin/sh\n. ${setup}\ncd_to_toplevel\nsh scripts/count.sh\n`, 'scripts/count.sh': COUNT }), []);
});

test('over-denial: . "$(git --exec-path)/git-sh-setup" (the spelling git documents): reads', (t) => {
  t.deepEqual(unresolvedOf(t, { '.githooks/pre-commit': '#!/bin/sh\n. "$(git --exec-path)/git-sh-setup"\nsh scripts/count.sh\n', 'scripts/count.sh': COUNT }), []);
});

test('over-denial: a step loop over a literal list ("$step") where a sourced helper defines a cd function it does not call: reads', (t) => {
  const files = {
    '.githooks/pre-commit': '#!/bin/bash\n. ./scripts/common.sh\nlint() { sh scripts/count.sh; }\nfor step in lint; do "$step"; done\n',
    'scripts/common.sh': 'in_web() { cd web; }\n',
    'scripts/count.sh': COUNT,
    'web/keep.txt': '1\n',
  };
  t.deepEqual(unresolvedOf(t, files), []);
});
