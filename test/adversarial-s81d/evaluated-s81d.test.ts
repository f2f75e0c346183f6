// Review s81d: after s79b's fixes (a use bash evaluates as code refuses where the script sets that name to what
// zotbox cannot spell out), evaluating places the pattern reading misses. Each: a bash hook reads a number from data files a
// pattern finds (`MAX=$(cat .limits/*.txt 2>/dev/null || echo 3)`: a named file is protected, a pattern's is not, refused where it sees the use); one CONFINED call (real bubblewrap)
// creates .limits/max.txt holding `a[$(touch PWNED)]`; then the user's `git commit`. Each asserts the SAFE outcome: the
// agent's code never ran (so it FAILS while the hole is open).
import { chmodSync } from 'node:fs';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { git, project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit } from '../adversarial-s64m/fixtures.js';

const CODE = 'a[$(touch "$(git rev-parse --show-toplevel)/PWNED")]';

/** A workspace whose bash hook is `body` after `MAX=$(cat .limits/*.txt …)`; the agent creates .limits/max.txt holding code. */
const attack = async (t: ExecutionContext, body: string) => {
  const ws = project(t, {
    'src.txt': '1\n',
    'one.sh': `mkdir -p .limits\nprintf '%s\\n' '${CODE}' > .limits/max.txt\n`,
    '.githooks/pre-commit': `#!/bin/bash\nMAX=$(cat .limits/*.txt 2>/dev/null || echo 3)\n${body}\nexit 0\n`,
  });
  chmodSync(path.join(ws, '.githooks/pre-commit'), 0o755);
  git(ws, 'config', 'core.hooksPath', '.githooks');
  // SAFE: the agent's code never ran.
  t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's code");
};

test('held: (( MAX > 1 )) on a value read from a file refuses', async (t) => {
  await attack(t, 'if (( MAX > 1 )); then echo many; fi');
});

// 1: a `]` inside `[[ … ]]` (an array length, an element) hides the comparison from the `[[ … ]]` pattern.
test('1: [[ ${#files[@]} -gt $MAX ]] (an array length compared with a value read from a file)', async (t) => {
  await attack(t, 'files=(a b)\nif [[ ${#files[@]} -gt $MAX ]]; then echo many; fi');
});

// 2: the integer attribute evaluates on assignment: no use follows.
test('2: declare -i N=$MAX (an integer variable assigned a value read from a file)', async (t) => {
  await attack(t, 'declare -i N=$MAX\necho "$N"');
});

test('2: a function with local -i n=$1, called with a value read from a file', async (t) => {
  await attack(t, 'check() { local -i n=$1; echo "$n"; }\ncheck "$MAX"');
});

// 3: a positional parameter in arithmetic: `$1` is no NAME, and a function's arguments are never followed.
test('3: a function evaluates (( $1 > 10 )), called with a value read from a file', async (t) => {
  await attack(t, 'check() { if (( $1 > 10 )); then echo big; fi; }\ncheck "$MAX"');
});

// 4: arithmetic places the patterns do not list.
test('4: an array slice "${files[@]:0:$MAX}"', async (t) => {
  await attack(t, 'files=(a b)\necho "${files[@]:0:$MAX}"');
});

test('4: if let "MAX > 1" (let after if)', async (t) => {
  await attack(t, 'if let "MAX > 1"; then echo many; fi');
});

test('4: (( … )) split over lines', async (t) => {
  await attack(t, 'if ((\n  MAX > 1\n)); then echo many; fi');
});

test('4: old arithmetic $[MAX + 1]', async (t) => {
  await attack(t, 'echo $[MAX + 1]');
});

test('4: an element length ${#a[MAX]}', async (t) => {
  await attack(t, 'a=(1)\necho "${#a[MAX]}"');
});

test("4: unset 'a[MAX]' (an indexed array's subscript)", async (t) => {
  await attack(t, "a=(1 2 3 4)\nunset 'a[MAX]'");
});

test("4: test -v 'a[MAX]'", async (t) => {
  await attack(t, "a=(1)\ntest -v 'a[MAX]' && echo set");
});
