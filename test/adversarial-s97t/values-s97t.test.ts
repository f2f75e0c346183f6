// Review s97t: after s95r's fixes (quote-aware closers, functions and aliases named like a runner), places where the
// reader's region ends before bash's and runner-named commands the reader does not see defined. Each: the user's bash
// hook (`core.hooksPath .githooks`) reads a value from data files; one CONFINED call (real bubblewrap, the agent's
// `sh one.sh`) writes `a[$({touch,PWNED})]` there; then the user's `git commit`. Each asserts the SAFE outcome by hand:
// the agent's code never ran.
import { chmodSync } from 'node:fs';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { git, project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit } from '../adversarial-s64m/fixtures.js';

const CODE = 'a[$({touch,PWNED})]';

/** The agent's one.sh: writes CODE into .limits/max.txt. */
const LIMIT = `mkdir -p .limits\nprintf '%s\\n' '${CODE}' > .limits/max.txt\n`;

/** lib.sh sets its own MAX, then compares it: harmless in a new bash, not where MAX is readonly. */
const LIB = { 'scripts/lib.sh': '#!/bin/bash\nMAX=3\nif (( MAX > 1 )); then echo many; fi\n' };

const attack = async (t: ExecutionContext, body: string, extra: Record<string, string> = {}) => {
  const ws = project(t, { 'src.txt': '1\n', 'one.sh': LIMIT, '.githooks/pre-commit': `#!/bin/bash\n${body}\nexit 0\n`, ...extra });
  for (const file of ['.githooks/pre-commit', ...Object.keys(extra)]) chmodSync(path.join(ws, file), 0o755);
  git(ws, 'config', 'core.hooksPath', '.githooks');
  // SAFE: the agent's code never ran.
  t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's code");
};

// 1: bash closes `[[ ]]` only at a `]]` WORD; the reader's closing() takes the first `]]` outside quotes, also one glued
// to a word (`a]]`, `*]]`) or inside a regex group (`^(]])$`): the comparison after it is no arithmetic place.
test('1: [[ $k == a]] || MAX -gt 1 ]] (a "]]" inside a word ends the reader\'s [[ ]])', async (t) => {
  await attack(t, 'MAX=$(cat .limits/*.txt 2>/dev/null || echo 3)\nk=x\nif [[ $k == a]] || MAX -gt 1 ]]; then echo many; fi');
});

test('1: [[ $k == *]] || MAX -gt 1 ]] (a pattern ending in "]]")', async (t) => {
  await attack(t, 'MAX=$(cat .limits/*.txt 2>/dev/null || echo 3)\nk=x\nif [[ $k == *]] || MAX -gt 1 ]]; then echo many; fi');
});

test('1: [[ $k =~ ^(]])$ || MAX -gt 1 ]] (a "]]" inside a regex group)', async (t) => {
  await attack(t, 'MAX=$(cat .limits/*.txt 2>/dev/null || echo 3)\nk=x\nif [[ $k =~ ^(]])$ || MAX -gt 1 ]]; then echo many; fi');
});

// 2: an alias named like a runner, spelled with quotes (`alias 'bash=.'`): definedCommands reads the name `'bash`.
test("2: shopt -s expand_aliases; alias 'bash=.'; readonly MAX; bash scripts/lib.sh", async (t) => {
  await attack(t, "MAX=$(cat .limits/*.txt 2>/dev/null || echo 3)\nreadonly MAX\nshopt -s expand_aliases\nalias 'bash=.'\nbash scripts/lib.sh", LIB);
});

// 3: a function named like a runner defined where the script does not spell it: in a file it sources, or exported
// into its environment by the hook that runs it.
test('3: . scripts/funcs.sh (defines bash() { . "$@"; }); readonly MAX; bash scripts/lib.sh', async (t) => {
  await attack(t, 'MAX=$(cat .limits/*.txt 2>/dev/null || echo 3)\nreadonly MAX\n. scripts/funcs.sh\nbash scripts/lib.sh', {
    ...LIB,
    'scripts/funcs.sh': 'bash() { . "$@"; }\n',
  });
});

test('3: hook: bash() { . "$@"; }; export -f bash; ./scripts/b.sh (b: readonly MAX; bash scripts/lib.sh)', async (t) => {
  await attack(t, 'bash() { . "$@"; }\nexport -f bash\nexport MAX=$(cat .limits/*.txt 2>/dev/null || echo 3)\n./scripts/b.sh', {
    ...LIB,
    'scripts/b.sh': '#!/bin/bash\nreadonly MAX\nbash scripts/lib.sh\n',
  });
});

// 4: shellWords (the [[ ]] operands) takes no backslash as an escape: an escaped quote (`*\'*`, or bash's own print of
// `$'\'…'`) opens a quote to the text's end, so `-gt` is never a word of its own.
test("4: [[ $k == *\\'* || MAX -gt 1 ]] (an escaped quote swallows the comparison)", async (t) => {
  await attack(t, "MAX=$(cat .limits/*.txt 2>/dev/null || echo 3)\nk=x\nif [[ $k == *\\'* || MAX -gt 1 ]]; then echo many; fi");
});

test("4: [[ $k == $'\\']]' || MAX -gt 1 ]] (printed as ''\\'']]')", async (t) => {
  await attack(t, "MAX=$(cat .limits/*.txt 2>/dev/null || echo 3)\nk=x\nif [[ $k == $'\\']]' || MAX -gt 1 ]]; then echo many; fi");
});
