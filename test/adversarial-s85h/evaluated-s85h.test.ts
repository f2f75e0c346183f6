// Review s85h: after s83f's fixes, what the evaluated-use rule (shell-evaluated-values.ts) and the script's values
// (shell-command-words.ts assignmentsOf) still miss. Each: a bash hook of the user's (`core.hooksPath`) reads names or
// numbers from data files a pattern finds (a named file is protected, a pattern's is not); one CONFINED call (real
// bubblewrap, the agent's `sh one.sh`) creates a data file holding `a[$({touch,PWNED})]` (no blank: it survives word
// splitting); then the user's `git commit`. Each asserts the SAFE outcome: the agent's code never ran (so it FAILS
// while the hole is open).
import { chmodSync } from 'node:fs';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { git, project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit } from '../adversarial-s64m/fixtures.js';

const CODE = 'a[$({touch,PWNED})]';

/** The agent's one.sh: writes `text` into `file` (its folder made). */
const writes = (file: string, text: string) => `mkdir -p ${path.dirname(file)}\nprintf '%s\\n' '${text}' > '${file}'\n`;

/** A workspace whose bash hook is `body`; the agent's one.sh is `agent`; `extra` are more project files. */
const attack = async (t: ExecutionContext, body: string, agent: string, extra: Record<string, string> = {}) => {
  const ws = project(t, {
    'src.txt': '1\n',
    'one.sh': agent,
    '.githooks/pre-commit': `#!/bin/bash\n${body}\nexit 0\n`,
    ...extra,
  });
  chmodSync(path.join(ws, '.githooks/pre-commit'), 0o755);
  for (const file of Object.keys(extra)) if (file.startsWith('.githooks/')) chmodSync(path.join(ws, file), 0o755);
  git(ws, 'config', 'core.hooksPath', '.githooks');
  // SAFE: the agent's code never ran.
  t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's code");
};

const REQUIRED = writes('.required-env/x.txt', CODE);
const LIMIT = writes('.limits/max.txt', CODE);

// 1: a value used as a NAME: bash evaluates the subscript of the name it is given (`a[$(…)]`). Only `${!X}` (exactly)
// is checked; `${!X:-}`, `${!X#…}`, `[[ -v $X ]]`, `test -v "$X"`, `printf -v "$X"`, `read "$X"`, `unset "$X"` are not.
test('1: ${!v:-} over names read from files (a required-environment check)', async (t) => {
  await attack(t, 'for v in $(cat .required-env/*.txt 2>/dev/null); do\n  if [ -z "${!v:-}" ]; then echo "missing $v"; fi\ndone', REQUIRED);
});

test('1: [[ -v $v ]] over names read from files', async (t) => {
  await attack(t, 'for v in $(cat .required-env/*.txt 2>/dev/null); do\n  [[ -v $v ]] || echo "missing $v"\ndone', REQUIRED);
});

test('1: test -v "$v" over names read from files', async (t) => {
  await attack(t, 'for v in $(cat .required-env/*.txt 2>/dev/null); do\n  test -v "$v" || echo "missing $v"\ndone', REQUIRED);
});

test('1: printf -v "${line%%=*}" (a KEY=VALUE loader without eval)', async (t) => {
  await attack(t, 'for f in .config.d/*.conf; do\n  [ -f "$f" ] || continue\n  line=$(cat "$f")\n  printf -v "${line%%=*}" \'%s\' "${line#*=}"\ndone', writes('.config.d/x.conf', `${CODE}=1`));
});

// 2: assignments the script's values miss, so a name the script set to a number keeps being "harmless".
test('2: read -r "${kv%%=*}" <<< "${kv#*=}" (a computed name read from a file), then (( MAX > 1 ))', async (t) => {
  await attack(t, 'MAX=3\nfor kv in $(cat .config.d/* 2>/dev/null); do\n  read -r "${kv%%=*}" <<< "${kv#*=}"\ndone\nif (( MAX > 1 )); then echo many; fi', writes('.config.d/max', `MAX=${CODE}`));
});

test('2: export -- $(cat .env.d/* | xargs) (SETS_ANY misses "--")', async (t) => {
  await attack(t, 'MAX=3\nexport -- $(cat .env.d/* 2>/dev/null | xargs)\nif (( MAX > 1 )); then echo many; fi', writes('.env.d/max', `MAX=${CODE}`));
});

test('2: export \\<newline> $(cat .env.d/* | xargs) (SETS_ANY reads no continuation)', async (t) => {
  await attack(t, 'MAX=3\nexport \\\n  $(cat .env.d/* 2>/dev/null | xargs)\nif (( MAX > 1 )); then echo many; fi', writes('.env.d/max', `MAX=${CODE}`));
});

test('2: n=0; if …; then for n in $(cat …); do (( total += n )) (a for after then is no loop variable)', async (t) => {
  await attack(t, 'total=0\nn=0\nif [ -d .limits ]; then for n in $(cat .limits/*.txt 2>/dev/null); do (( total += n )); done; fi\necho "$total"', LIMIT);
});

test('2: n=0; while …; do for n in $(cat …) (a for after do)', async (t) => {
  await attack(t, 'n=0\nwhile :; do for n in $(cat .limits/*.txt 2>/dev/null); do (( n > 1 )) && echo many; done; break; done', LIMIT);
});

test('2: n=0; … else for n in $(cat …) (a for after else)', async (t) => {
  await attack(t, 'n=0\nif [ ! -d .limits ]; then :; else for n in $(cat .limits/*.txt 2>/dev/null); do (( n > 1 )) && echo many; done; fi', LIMIT);
});

test('2: MAX=3; \\source lib.sh (SETS_ANY misses a quoted source)', async (t) => {
  await attack(t, 'MAX=3\n\\source "$(dirname "$0")/lib.sh"\nif (( MAX > 1 )); then echo many; fi', writes('.limits/max.txt', 'a[$(touch "$(git rev-parse --show-toplevel)/PWNED")]'), {
    '.githooks/lib.sh': 'MAX=$(cat .limits/*.txt 2>/dev/null || echo 3)\n',
  });
});

test('2: MAX=3; 2>/dev/null MAX=$(cat …) (an assignment after a redirection)', async (t) => {
  await attack(t, 'MAX=3\n2>/dev/null MAX=$(cat .limits/*.txt)\nif (( MAX > 1 )); then echo many; fi', writes('.limits/max.txt', 'a[$(touch "$(git rev-parse --show-toplevel)/PWNED")]'));
});

// 3: SHELL_NUMBERS is checked before the script's own values: OPTIND and SHLVL keep any text assigned to them.
test('3: OPTIND=$(cat …); (( OPTIND > 1 ))', async (t) => {
  await attack(t, 'OPTIND=$(cat .limits/*.txt 2>/dev/null || echo 1)\n(( OPTIND > 1 )) && echo shifted', writes('.limits/max.txt', 'a[$(touch "$(git rev-parse --show-toplevel)/PWNED")]'));
});

// held (not a finding): a count over a pattern prints names: grep -c PAT notes/* prints `notes/NAME:N`; a name holding a backquote
// (not `$`) runs it when bash evaluates the subscript.
test('held: N=$(grep -c TODO notes/*) with a file named a[`{touch,PWNED}`]', async (t) => {
  await attack(t, 'N=$(grep -c TODO notes/*)\nif (( N > 1 )); then echo many; fi', "printf 'TODO\\n' > 'notes/a[`{touch,PWNED}`]'\n", { 'notes/b.md': 'TODO\n' });
});

// 4: values are flow-insensitive in the unsafe direction: a script that sets a name only to a number, AFTER (or
// instead of) taking it from outside, is "harmless", though the use sees what the hook exported or the sourcer set.
test('4: export MAX=$(cat …); bash check.sh, which does [ -n "$MAX" ] || MAX=4; (( MAX > 1 ))', async (t) => {
  await attack(t, 'export MAX=$(cat .limits/*.txt 2>/dev/null || echo 3)\nbash "$(dirname "$0")/check.sh"', writes('.limits/max.txt', CODE), {
    '.githooks/check.sh': '#!/bin/bash\n[ -n "$MAX" ] || MAX=4\nif (( MAX > 1 )); then echo many; fi\n',
  });
});

test('4: MAX=$(cat …); . lib.sh, which does [ -n "$MAX" ] || MAX=4; (( MAX > 1 ))', async (t) => {
  await attack(t, 'MAX=$(cat .limits/*.txt 2>/dev/null || echo 3)\n. "$(dirname "$0")/lib.sh"', writes('.limits/max.txt', CODE), {
    '.githooks/lib.sh': '[ -n "$MAX" ] || MAX=4\nif (( MAX > 1 )); then echo many; fi\n',
  });
});
