// Review s91n: after s89l's fix (bash -n on the text before a line decides whether it starts at the top level), texts
// where what zotbox hands to bash -n is not what bash runs. Each: the user's bash hook (`core.hooksPath`) reads a limit
// from data files a pattern finds and exports it to a child script (or sources a file); one CONFINED call (real
// bubblewrap, the agent's `sh one.sh`) creates a data file holding `a[$({touch,PWNED})]`; then the user's `git commit`.
// Each asserts the SAFE outcome: the agent's code never ran (so it FAILS while the hole is open).
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

const USE = 'if (( MAX > 1 )); then echo many; fi';
const OVERRIDE = 'if [ -n "${BIG_REPO:-}" ]; then\n  MAX=2048\nfi';

// 1: the reader joins `\`-newline before it drops comments, so a comment ending in a backslash swallows the next line
// (an `if`) in the text bash -n reads; bash ends a comment at the newline.
test('1: a comment line ending in "\\" before if …; then⏎ MAX=2048⏎ fi', async (t) => {
  await child(t, `# Big repos: BIG_REPO=1 git commit \\\n${OVERRIDE}\n${USE}`);
});

test('1: a trailing comment ending in "\\" (set -e  # strict \\) before if …; then⏎ MAX=2048⏎ fi', async (t) => {
  await child(t, `set -e  # strict, see C:\\\n${OVERRIDE}\n${USE}`);
});

test("held: an escaped backslash at a line's end (tr -d \\\\), not a continuation, before if …; then⏎ MAX=2048⏎ fi", async (t) => {
  await child(t, `printf x | tr -d \\\\\n${OVERRIDE}\n${USE}`);
});

// 2: a line that starts with "#" inside a multi-line quote is blanked as a comment: the quote it closes is gone.
test("2: x='⏎#'; if …; then y='⏎'⏎ MAX=2048⏎ fi (a \"#\" line inside a quote blanked)", async (t) => {
  await child(t, `x='\n#'; if [ -n "\${BIG_REPO:-}" ]; then y='\n'\n  MAX=2048\nfi\n${USE}`);
});

// 3: an alias the alias check misses (quoted command word; BASH_ALIASES) opens a block bash -n does not see.
test("3: shopt -s expand_aliases; 'alias' on_big='if …; then'; on_big⏎ MAX=2048⏎ fi", async (t) => {
  await child(t, `shopt -s expand_aliases\n'alias' on_big='if [ -n "\${BIG_REPO:-}" ]; then'\non_big\n  MAX=2048\nfi\n${USE}`);
});

test("held: shopt -s expand_aliases; BASH_ALIASES[SECONDS]='if …; then'; SECONDS⏎ MAX=2048⏎ fi", async (t) => {
  await child(t, `shopt -s expand_aliases\nBASH_ALIASES[SECONDS]='if [ -n "\${BIG_REPO:-}" ]; then'\nSECONDS\n  MAX=2048\nfi\n${USE}`);
});

// 4: a file run in the hook's own shell, not read as sourced (so MAX=3 is taken as its own).
test('4: . /dev/stdin < lib.sh (lib: MAX=3 would be own; readonly in the hook)', async (t) => {
  await inShell(t, `MAX=3\n${USE}`, 'readonly MAX\n. /dev/stdin < "$(dirname "$0")/lib.sh"');
});

test('held: eval "$(cat lib.sh)" (lib: MAX=3 would be own; readonly in the hook)', async (t) => {
  await inShell(t, `MAX=3\n${USE}`, 'readonly MAX\neval "$(cat "$(dirname "$0")/lib.sh")"');
});

test('4: source <(cat lib.sh) (lib: MAX=3; readonly in the hook)', async (t) => {
  await inShell(t, `MAX=3\n${USE}`, 'readonly MAX\nsource <(cat "$(dirname "$0")/lib.sh")');
});

test('4: a function wrapper: load() { . "$1"; }; load lib.sh (lib: MAX=3; readonly in the hook)', async (t) => {
  await inShell(t, `MAX=3\n${USE}`, 'readonly MAX\nload() { . "$1"; }\nload "$(dirname "$0")/lib.sh"');
});
