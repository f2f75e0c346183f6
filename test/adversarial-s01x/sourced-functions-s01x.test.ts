// Review s01x: after 2173ca88 (what a sourced file defines is read, not guessed), a function bash has at run time that
// the reading says no file defines: a `.`, `eval` or function definition the counting regexes do not see (glued to a
// redirection, right after a case pattern's `)`), a sourced file read in the wrong directory (a cd the text puts after
// the `.` but that runs before it; a cd in a sourced file), a sourced file the hook writes before sourcing it (absent
// when read: "defines nothing"), and mapfile's -C callback (eval by another name). Each: the user's bash hook
// (`core.hooksPath .githooks`) reads MAX from `.limits/*.txt`, makes it readonly, and has a file it sources define
// `bash() { . "$@"; }`; its `bash scripts/lib.sh` then sources lib.sh into the hook's shell, where lib's `MAX=3` fails
// and `(( MAX > 1 ))` evaluates the agent's value. One CONFINED call (real bubblewrap, the agent's `sh one.sh`) writes
// that value; then the user's `git commit`. Each asserts the SAFE outcome by hand: the agent's code never ran.
import { chmodSync, existsSync } from 'node:fs';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { git, project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit } from '../adversarial-s64m/fixtures.js';

const CODE = 'a[$({touch,PWNED})]';

/** The agent's one.sh: writes CODE into .limits/max.txt (a data file the hook reads). */
const LIMIT = `mkdir -p .limits\nprintf '%s\\n' '${CODE}' > .limits/max.txt\n`;

/** lib.sh sets its own MAX, then compares it: harmless in a new bash, not where MAX is readonly. */
const LIB = { 'scripts/lib.sh': '#!/bin/bash\nMAX=3\nif (( MAX > 1 )); then echo many; fi\n' };

/** The user's function named like a runner: `bash FILE` sources FILE into this shell. */
const FNS = 'bash() { . "$@"; }\n';

/** The hook's head: MAX from the data file, readonly. */
const HEAD = 'MAX=$(cat .limits/*.txt 2>/dev/null || echo 3)\nreadonly MAX\n';

const attack = async (t: ExecutionContext, body: string, extra: Record<string, string>) => {
  const ws = project(t, { 'src.txt': '1\n', 'one.sh': LIMIT, '.githooks/pre-commit': `#!/bin/bash\n${HEAD}${body}\nexit 0\n`, ...extra });
  for (const file of ['.githooks/pre-commit', ...Object.keys(extra)]) chmodSync(path.join(ws, file), 0o755);
  git(ws, 'config', 'core.hooksPath', '.githooks');
  // SAFE: the agent's code never ran (PWNED is made where the hook's shell is: the top, or scripts/ after its cd).
  const ran = await agentThenUserCommit(t, ws);
  t.false(ran || existsSync(path.join(ws, 'scripts/PWNED')), "the user's git commit ran the agent's code");
};

// 1: SOURCES and READS_TEXT (shell-sourced-functions.ts) need a blank after `.`/`source`/`eval`/`trap`; bash ends the
// word at a redirection too. The reader meets the `.` (noteSourced counts it), but with no command counted
// sourcedFunctionsOf returns undefined and definedCommands' `any` is false: the file is never read.
test('1: .>/dev/null ./scripts/fns.sh (bash() { . "$@"; }); readonly MAX; bash scripts/lib.sh', async (t) => {
  await attack(t, '.>/dev/null ./scripts/fns.sh\nbash scripts/lib.sh', { ...LIB, 'scripts/fns.sh': FNS });
});

test('1: a sourced init.sh runs eval>/dev/null "$(cat scripts/fns.txt)" (bash() { . "$@"; }); bash scripts/lib.sh', async (t) => {
  await attack(t, '. ./scripts/init.sh\nbash scripts/lib.sh', { ...LIB, 'scripts/init.sh': 'eval>/dev/null "$(cat scripts/fns.txt)"\n', 'scripts/fns.txt': FNS });
});

// 2: the same regexes (and DEFINITION) need a blank or `;&|({` before the word; a case pattern's `)` is none.
test('2: case $- in *). ./scripts/fns.sh;; esac; bash scripts/lib.sh', async (t) => {
  await attack(t, 'case $- in *). ./scripts/fns.sh;; esac\nbash scripts/lib.sh', { ...LIB, 'scripts/fns.sh': FNS });
});

// 3: noteSourced takes a relative `.` operand from the start directory when no cd came before it IN THE TEXT; bash
// takes it from where the shell is when the `.` runs. A function body run after a cd, or a cd in a sourced file: zotbox
// reads ./fns.sh at the top (not there: "defines nothing"), bash sources scripts/fns.sh.
test('3: load() { . ./fns.sh; }; cd scripts; load; bash ./lib.sh (scripts/fns.sh defines bash)', async (t) => {
  await attack(t, 'load() { . ./fns.sh; }\ncd scripts\nload\nbash ./lib.sh', { ...LIB, 'scripts/fns.sh': FNS });
});

test('3: . ./scripts/enter.sh (cd scripts); . ./fns.sh; bash "$(git rev-parse --show-toplevel)/scripts/lib.sh"', async (t) => {
  await attack(t, '. ./scripts/enter.sh\n. ./fns.sh\nbash "$(git rev-parse --show-toplevel)/scripts/lib.sh"', { ...LIB, 'scripts/enter.sh': 'cd scripts\n', 'scripts/fns.sh': FNS });
});

// 4: a sourced file that is not there when aftercare reads it "defines nothing"; the hook writes it before sourcing it.
test('4: cp scripts/fns.template .cache/fns.sh; . ./.cache/fns.sh; bash scripts/lib.sh', async (t) => {
  await attack(t, 'mkdir -p .cache\ncp scripts/fns.template .cache/fns.sh\n. ./.cache/fns.sh\nbash scripts/lib.sh', { ...LIB, 'scripts/fns.template': FNS });
});

// 5: mapfile's (readarray's) -C callback is text this shell evaluates, like eval's; READS_TEXT does not count it, so a
// sourced file that defines a function through it "defines nothing" (and so does the hook itself).
test('5: a sourced init.sh defines bash through mapfile -C "$(printf …)"; bash scripts/lib.sh', async (t) => {
  await attack(t, '. ./scripts/init.sh\nbash scripts/lib.sh', { ...LIB, 'scripts/init.sh': 'mapfile -t -c 1 -C "$(printf \'bash() { \\56 "$@"; }; :\')" _ <<< x\n' });
});
