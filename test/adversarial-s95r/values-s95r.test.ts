// Review s95r: after s93p's fix (the value readers read the script as bash prints it back), places where bash still
// evaluates a value as arithmetic that the readers do not count, and a function named like a runner that sources.
// Each: the user's bash hook (`core.hooksPath .githooks`) reads a value from data files; one CONFINED call (real
// bubblewrap, the agent's `sh one.sh`) writes `a[$({touch,PWNED})]` there; then the user's `git commit`. Each asserts
// the SAFE outcome by hand: the agent's code never ran.
import { chmodSync } from 'node:fs';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { git, project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit } from '../adversarial-s64m/fixtures.js';

const CODE = 'a[$({touch,PWNED})]';

/** The agent's one.sh: writes CODE into .limits/max.txt. */
const LIMIT = `mkdir -p .limits\nprintf '%s\\n' '${CODE}' > .limits/max.txt\n`;

const attack = async (t: ExecutionContext, body: string, extra: Record<string, string> = {}) => {
  const ws = project(t, { 'src.txt': '1\n', 'one.sh': LIMIT, '.githooks/pre-commit': `#!/bin/bash\n${body}\nexit 0\n`, ...extra });
  for (const file of ['.githooks/pre-commit', ...Object.keys(extra)]) chmodSync(path.join(ws, file), 0o755);
  git(ws, 'config', 'core.hooksPath', '.githooks');
  // SAFE: the agent's code never ran.
  t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's code");
};

// 1: an assignment to RANDOM (or SRANDOM, OPTIND, HISTCMD) evaluates its value as arithmetic, at the assignment; no
// arithmetic place is written, so the readers see none.
test('1: RANDOM=$(cat .limits/*.txt) (seeding RANDOM from a file evaluates the value)', async (t) => {
  await attack(t, 'RANDOM=$(cat .limits/*.txt 2>/dev/null || echo 1)\necho "pick: $RANDOM"');
});

test('1: seed=$(cat .limits/*.txt); RANDOM=$seed', async (t) => {
  await attack(t, 'seed=$(cat .limits/*.txt 2>/dev/null || echo 1)\nRANDOM=$seed');
});

test('1: OPTIND=$(cat .limits/*.txt)', async (t) => {
  await attack(t, 'OPTIND=$(cat .limits/*.txt 2>/dev/null || echo 1)');
});

// 2: an integer declaration the reader's pattern misses (`+x` before `-i`): every later assignment is evaluated.

test('2: declare +x -i n; n=$(cat .limits/*.txt)', async (t) => {
  await attack(t, 'declare +x -i n\nn=$(cat .limits/*.txt 2>/dev/null || echo 3)');
});

// 3: a function named like a runner (`bash`) that sources its operand: the word is read as run by a new bash, whose own
// `MAX=3` is taken as its value; it runs in the hook's shell, where `readonly MAX` keeps the agent's value.
test('3: bash() { . "$@"; }; readonly MAX; bash scripts/lib.sh (lib: MAX=3 then (( MAX > 1 )))', async (t) => {
  await attack(t, 'MAX=$(cat .limits/*.txt 2>/dev/null || echo 3)\nreadonly MAX\nbash() { . "$@"; }\nbash scripts/lib.sh', {
    'scripts/lib.sh': '#!/bin/bash\nMAX=3\nif (( MAX > 1 )); then echo many; fi\n',
  });
});

// 4: the `[[ ]]` scan ends at the first `]]`, a quoted one too: the comparison after it is no arithmetic place.
test('4: [[ $kind == "]]" || MAX -gt 1 ]] (a quoted "]]" ends the reader\'s [[ ]])', async (t) => {
  await attack(t, 'MAX=$(cat .limits/*.txt 2>/dev/null || echo 3)\nkind=x\nif [[ $kind == "]]" || MAX -gt 1 ]]; then echo many; fi');
});

// 5: a value's expansions are read as "0", so a name written right after one (`${prefix}MAX`) is glued to a digit and
// never read as a name; arithmetic on the variable holding it evaluates MAX.
test('5: prefix=; limit=${prefix}MAX; (( limit > 1 ))', async (t) => {
  await attack(t, 'MAX=$(cat .limits/*.txt 2>/dev/null || echo 3)\nprefix=\nlimit=${prefix}MAX\nif (( limit > 1 )); then echo many; fi');
});

// 6: the first-mention rule finds a name by its spelling; a value that spells it with a quote (`MA\X`) reaches it
// through arithmetic before the later `MAX=3`, which the rule takes as surely first.
test('6: child: v=MA\\X; (( v > 1 )); MAX=3 (the exported MAX is evaluated before the child sets its own)', async (t) => {
  await attack(t, 'export MAX=$(cat .limits/*.txt 2>/dev/null || echo 3)\nbash scripts/check.sh', {
    'scripts/check.sh': '#!/bin/bash\nv=MA\\X\nif (( v > 1 )); then echo many; fi\nMAX=3\n',
  });
});
