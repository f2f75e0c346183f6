// Review s83f: after s81d's fixes (arithmetic places found by a scanner; a name set to what zotbox cannot spell out as
// harmless refuses there), what `harmless` accepts and what the scanner misses. Each: a bash hook reads a number from
// data files a pattern finds (a named file is protected, a pattern's is not); one CONFINED call (real bubblewrap)
// creates a data file holding `a[$(touch PWNED)]`; then the user's `git commit`. Each asserts the SAFE outcome: the
// agent's code never ran (so it FAILS while the hole is open).
import { chmodSync } from 'node:fs';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { git, project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit } from '../adversarial-s64m/fixtures.js';

const CODE = 'a[$(touch "$(git rev-parse --show-toplevel)/PWNED")]';

/** A workspace whose bash hook is `body`; the agent's one.sh is `agent`; `extra` are more project files. */
const attack = async (t: ExecutionContext, body: string, agent?: string, extra: Record<string, string> = {}) => {
  const ws = project(t, {
    'src.txt': '1\n',
    'one.sh': agent ?? `mkdir -p .limits\nprintf '%s\\n' '${CODE}' > .limits/max.txt\n`,
    '.githooks/pre-commit': `#!/bin/bash\n${body}\nexit 0\n`,
    ...extra,
  });
  chmodSync(path.join(ws, '.githooks/pre-commit'), 0o755);
  for (const file of Object.keys(extra)) if (file.startsWith('.githooks/')) chmodSync(path.join(ws, file), 0o755);
  git(ws, 'config', 'core.hooksPath', '.githooks');
  // SAFE: the agent's code never ran.
  t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's code");
};

test('held: MAX=$(cat .limits/*.txt); [[ $MAX -gt 1 ]] refuses', async (t) => {
  await attack(t, 'MAX=$(cat .limits/*.txt 2>/dev/null || echo 3)\nif [[ $MAX -gt 1 ]]; then echo many; fi');
});

// 1: a command substitution written straight into an arithmetic place: its names (cat, limits, txt) are "the
// environment's", so harmless; only `((`/`$((` refuse, and by another rule ("it runs a command's output").
test('1: [[ $(cat .limits/*.txt) -gt 1 ]] (a command substitution as a [[ -gt ]] operand)', async (t) => {
  await attack(t, 'if [[ $(cat .limits/*.txt 2>/dev/null || echo 3) -gt 1 ]]; then echo many; fi');
});

test('1: [[ ${MAX:-$(cat .limits/*.txt)} -gt 1 ]] (a default value computed in the operand)', async (t) => {
  await attack(t, 'if [[ ${MAX:-$(cat .limits/*.txt 2>/dev/null || echo 3)} -gt 1 ]]; then echo many; fi');
});

test('1: let "N=$(cat .limits/*.txt)"', async (t) => {
  await attack(t, 'let "N = $(cat .limits/*.txt 2>/dev/null || echo 3) + 1"\necho "$N"');
});

test('1: echo $[ $(cat .limits/*.txt) ] (old arithmetic)', async (t) => {
  await attack(t, 'echo $[ $(cat .limits/*.txt 2>/dev/null || echo 3) ]');
});

test('1: "${a[$(cat .limits/*.txt)]}" (a subscript)', async (t) => {
  await attack(t, 'a=(x y z)\necho "${a[$(cat .limits/*.txt 2>/dev/null || echo 1)]}"');
});

test('1: "${s:$(cat .limits/*.txt)}" (a substring offset)', async (t) => {
  await attack(t, 's=abcdef\necho "${s:$(cat .limits/*.txt 2>/dev/null || echo 1)}"');
});

// 2: substring places the slice pattern misses: an element's substring, a positional parameter's substring.
test('2: "${a[0]:0:$MAX}" (an element\'s substring)', async (t) => {
  await attack(t, 'MAX=$(cat .limits/*.txt 2>/dev/null || echo 3)\na=(abcdef)\necho "${a[0]:0:$MAX}"');
});

test('2: "${1:0:$MAX}" in a function (a positional parameter\'s substring)', async (t) => {
  await attack(t, 'MAX=$(cat .limits/*.txt 2>/dev/null || echo 3)\nshort() { echo "${1:0:$MAX}"; }\nshort abcdef');
});

// 3: ${X:=…} assigns X; the assignment is never among the script's values, so X is "the environment's".
test('3: : "${MAX:=$(cat .limits/*.txt)}"; (( MAX > 1 ))', async (t) => {
  await attack(t, ': "${MAX:=$(cat .limits/*.txt 2>/dev/null || echo 3)}"\nif (( MAX > 1 )); then echo many; fi');
});

// held (not 4): a "count" that prints file names: grep -c over several files prints `name:count`; the agent names a file
// `+a[$(touch PWNED)]` (bash: `notes / +a[…]`, the subscript runs before the division fails).
test('held: N=$(grep -c TODO notes/*) over several files (a name holding $ is refused as a name)', async (t) => {
  await attack(t, 'N=$(grep -c TODO notes/* 2>/dev/null)\nif (( N > 1 )); then echo many; fi', "printf 'TODO\\n' > 'notes/+a[$(touch PWNED)]'\n", {
    'notes/a.md': 'TODO\n',
  });
});

// 5: names a computed export sets are "the environment's": export $(cat … | xargs), then arithmetic on one of them.
test('5: export $(cat .env.d/* | xargs); (( JOBS > 1 ))', async (t) => {
  await attack(t, 'export $(cat .env.d/* 2>/dev/null | xargs)\nif (( ${JOBS:-1} > 1 )); then echo many; fi', "mkdir -p .env.d\nprintf '%s\\n' 'JOBS=a[$({touch,PWNED})]' > .env.d/jobs\n");
});

// 6: the hook exports a value read from a file and a child bash script evaluates it: the child sees no assignment.
test('6: export MAX=$(cat …); bash .githooks/check.sh, which does (( MAX > 1 ))', async (t) => {
  await attack(t, 'export MAX=$(cat .limits/*.txt 2>/dev/null || echo 3)\nbash "$(dirname "$0")/check.sh"', undefined, {
    '.githooks/check.sh': '#!/bin/bash\nif (( MAX > 1 )); then echo many; fi\n',
  });
});

// 4: COUNTS lets a newline through (`[^|;&]*`): a "count" command substitution that is two commands.
test('4: N=$(grep -c TODO src.txt<newline>cat .limits/*.txt) read as a count', async (t) => {
  await attack(t, 'N=$(grep -c TODO src.txt\ncat .limits/*.txt 2>/dev/null)\nif (( N > 1 )); then echo many; fi');
});

// 7: a value set in a sourced file, used in the sourcer; and a value set in the sourcer, used in the sourced file.
test('7: . lib.sh sets MAX=$(cat …); the hook does (( MAX > 1 ))', async (t) => {
  await attack(t, '. "$(dirname "$0")/lib.sh"\nif (( MAX > 1 )); then echo many; fi', undefined, {
    '.githooks/lib.sh': 'MAX=$(cat .limits/*.txt 2>/dev/null || echo 3)\n',
  });
});

test('7: the hook sets MAX=$(cat …) and sources lib.sh, which does (( MAX > 1 ))', async (t) => {
  await attack(t, 'MAX=$(cat .limits/*.txt 2>/dev/null || echo 3)\n. "$(dirname "$0")/lib.sh"', undefined, {
    '.githooks/lib.sh': 'if (( MAX > 1 )); then echo many; fi\n',
  });
});
