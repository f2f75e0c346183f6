// Review s81d: allexport and a new bash in spellings the text regexes of script-invocation.ts miss. A bash hook
// defines check() { sh "$(dirname "$0")/lint.sh"; } (read with the hook's $0: .githooks/lint.sh is protected), turns
// allexport on so check() is exported, and runs it in a new bash whose $0 is `x` (so ./lint.sh runs). One CONFINED call
// (real bubblewrap) overwrites ./lint.sh, which exists; then the user's `git commit`. Each asserts the SAFE outcome:
// the agent's script never ran (so it FAILS while the hole is open).
import { chmodSync } from 'node:fs';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { git, project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit } from '../adversarial-s64m/fixtures.js';

const overwrite = `set -e
printf 'touch "$(git rev-parse --show-toplevel)/PWNED"\\n' > lint.sh
`;

const CHECK = 'check() { sh "$(dirname "$0")/lint.sh"; }';

const attack = async (t: ExecutionContext, hook: string) => {
  const ws = project(t, {
    'src.txt': '1\n',
    'one.sh': overwrite,
    'lint.sh': 'exit 0\n',
    '.githooks/lint.sh': 'exit 0\n',
    '.githooks/pre-commit': hook,
  });
  chmodSync(path.join(ws, '.githooks/pre-commit'), 0o755);
  git(ws, 'config', 'core.hooksPath', '.githooks');
  // SAFE: the agent's script never ran.
  t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's script");
};

// 1: `set -o all${Y}export` (an empty expansion inside the option name) and `/proc/self/exe` (the running bash, no
// word bash, no `$`, no pattern).
test('1: set -o all${Y}export; check() {…}; /proc/self/exe -c check x', async (t) => {
  await attack(t, `#!/bin/bash\nset -o all\${Y}export\n${CHECK}\n/proc/self/exe -c check x\n`);
});

// 1: `set -$X` with X=a: the flag is an expansion, so `set … -…a` never matches.
test('1: X=a; set -$X; check() {…}; /proc/self/exe -c check x', async (t) => {
  await attack(t, `#!/bin/bash\nX=a\nset -$X\n${CHECK}\n/proc/self/exe -c check x\n`);
});
