// Review s93p: after s91n's fix (the value readers read the text as bash reads its words, shell-code-text.ts), texts
// where that reader still reads words otherwise than bash, and files a hook runs in its own shell that zotbox does not
// read. Each: the user's bash hook (`core.hooksPath`) exports a limit read from data files a pattern finds and runs a
// child script of the user's (or reads a file into its own shell); one CONFINED call (real bubblewrap, the agent's
// `sh one.sh`) creates a data file holding `a[$({touch,PWNED})]`; then the user's `git commit`. Each asserts the SAFE
// outcome: the agent's code never ran (so it FAILS while the hole is open).
import { chmodSync } from 'node:fs';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { git, project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit } from '../adversarial-s64m/fixtures.js';

const CODE = 'a[$({touch,PWNED})]';

/** The agent's one.sh: writes CODE into .limits/max.txt. */
const LIMIT = `mkdir -p .limits\nprintf '%s\\n' '${CODE}' > .limits/max.txt\n`;

/** The user's hook exports MAX read from .limits/*.txt and runs `check` (a file of the user's: .githooks/check.sh). */
const child = async (t: ExecutionContext, check: string) => {
  await attack(t, 'export MAX=$(cat .limits/*.txt 2>/dev/null || echo 3)\nbash "$(dirname "$0")/check.sh"', { '.githooks/check.sh': `#!/bin/bash\n${check}\n` });
};

/** The user's hook sets MAX from .limits/*.txt and runs `how` (which reads .githooks/lib.sh into this shell). */
const inShell = async (t: ExecutionContext, lib: string, how: string) => {
  await attack(t, `MAX=$(cat .limits/*.txt 2>/dev/null || echo 3)\n${how}`, { '.githooks/lib.sh': `${lib}\n` });
};

const attack = async (t: ExecutionContext, body: string, extra: Record<string, string>) => {
  const ws = project(t, { 'src.txt': '1\n', 'one.sh': LIMIT, '.githooks/pre-commit': `#!/bin/bash\n${body}\nexit 0\n`, ...extra });
  for (const file of ['.githooks/pre-commit', ...Object.keys(extra)]) chmodSync(path.join(ws, file), 0o755);
  git(ws, 'config', 'core.hooksPath', '.githooks');
  // SAFE: the agent's code never ran.
  t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's code");
};

/** A line of code the user commented out: bash expands it where it is a here-document's body. */
const OLD = '# echo "limit: $(( MAX / 1024 )) KB"';

// 1: a `#` right after a command substitution's `)` (or `$(( ))`'s) is taken for a comment; bash reads it as the
// same word's text (`$(date +%F)#…` is one word), so what follows on the line runs.
test('1: echo $(git rev-parse --short HEAD)#$(( MAX / 1024 )) (a "#" after ")" inside a word)', async (t) => {
  await child(t, 'echo "checked:" $(git rev-parse --short HEAD)#$(( MAX / 1024 ))');
});

test('1: [[ $l =~ ^[[:space:]]*(#|$) ]] || (( MAX > 1 )) (a "#" inside a regex group)', async (t) => {
  await child(t, 'l=x\n[[ $l =~ ^[[:space:]]*(#|$) ]] || (( MAX > 1 )) || echo few');
});

test('1: [[ $l == @(skip|#*) ]] || (( MAX > 1 )) (a "#" inside an extglob pattern)', async (t) => {
  await child(t, 'l=x\n[[ $l == @(skip|#*) ]] || (( MAX > 1 )) || echo few');
});

test('1: echo a<VT>#$(( MAX > 1 )) (a "#" after a character the reader takes for a blank, bash does not)', async (t) => {
  await child(t, 'echo a\v#$(( MAX > 1 ))');
});

// 2: in a here-document whose delimiter is unquoted, a body line ending in `\` is joined to the next one, so the
// delimiter line right after it ends nothing; the reader ends the body there and takes the next lines for code
// (a commented-out line: dropped), while bash expands them as the body, up to the next delimiter line.
test('2: a here-document body line ending in "\\" (D:\\big\\) before EOF, then a commented-out $(( MAX )) line', async (t) => {
  await child(t, `cat <<EOF\nBig files go to D:\\big\\\nEOF\n${OLD}\ncat <<EOF\nCommit checked.\nEOF`);
});

// 3: the reader starts a here-document's body at a newline inside double quotes on the line that opens it; bash
// starts it after the command's line ends (the quote closed).
test('3: cat <<EOF; note="two⏎EOF⏎lines" then a commented-out $(( MAX )) line in the body', async (t) => {
  await child(t, `cat <<EOF; note="two\nEOF\nlines"\n${OLD}\nEOF\necho "$note"`);
});

// 4: a case pattern's `)` inside "$( … )" closes the substitution for the reader; its quotes then pair otherwise
// than bash's, and a `#` inside a quoted string is taken for a comment.
test('4: "$(case "$(uname)" in Linux) echo "limit # $(( MAX / 1024 ))" ;; esac)" (a case pattern\'s ")" in "$( )")', async (t) => {
  await child(t, 'kind="$(case "$(uname)" in Linux) echo "limit # $(( MAX / 1024 ))" ;; esac)"\necho "$kind"');
});

// Held (5-8): a file read into the hook's own shell by a word zotbox does not take for `.`: an alias of it.
test('held 5: shopt -s expand_aliases; alias include=.; include lib.sh (lib: (( MAX > 1 )))', async (t) => {
  await inShell(t, 'if (( MAX > 1 )); then echo many; fi', 'shopt -s expand_aliases\nalias include=.\ninclude "$(dirname "$0")/lib.sh"');
});

// `.` behind command / builtin, with readonly MAX in the hook (lib's MAX=3 fails).
test('held 6: readonly MAX; command . lib.sh (lib: MAX=3 then (( MAX > 1 )))', async (t) => {
  await inShell(t, 'MAX=3\nif (( MAX > 1 )); then echo many; fi', 'readonly MAX\ncommand . "$(dirname "$0")/lib.sh"');
});

test('held 6: readonly MAX; builtin source lib.sh (lib: MAX=3 then (( MAX > 1 )))', async (t) => {
  await inShell(t, 'MAX=3\nif (( MAX > 1 )); then echo many; fi', 'readonly MAX\nbuiltin source "$(dirname "$0")/lib.sh"');
});

// BASH_ENV set in a spelling the check (`BASH_ENV=.`) misses: `+=`; the new bash sources lib.sh first.
test('held 7: export MAX; BASH_ENV+=lib.sh; export BASH_ENV; bash -c true (lib: (( MAX > 1 )))', async (t) => {
  await inShell(t, 'if (( MAX > 1 )); then echo many; fi', 'export MAX\nBASH_ENV+="$(dirname "$0")/lib.sh"\nexport BASH_ENV\nbash -c true');
});

test('held 8: export MAX; printf lib.sh | xargs -I{} bash -c ". {}" (lib: (( MAX > 1 )))', async (t) => {
  await inShell(t, 'if (( MAX > 1 )); then echo many; fi', 'export MAX\nprintf \'%s\\n\' "$(dirname "$0")/lib.sh" | xargs -I{} bash -c \'. {}\'');
});

test('held 8: exec 3< lib.sh; . /dev/fd/3 (lib: (( MAX > 1 )))', async (t) => {
  await inShell(t, 'if (( MAX > 1 )); then echo many; fi', 'exec 3<"$(dirname "$0")/lib.sh"\n. /dev/fd/3');
});
