// Review s11g: where the hook's shell is after s09f's fixes (shell-command-positions.ts, placeChangesOf with hereCds,
// sourced files carried up), and in the hook's own cd following. Each test asserts the SAFE outcome by hand, so it FAILED
// while the hole was open (all seven rows are fixed; the open over-denials are in place-s11g.open.ts). The end-to-end tests use the setup of reviews s07d and s09f: the user's bash hook
// (core.hooksPath .githooks) ends up in scripts/ at run time and runs `bash lib.sh`; zotbox, reading no move, protects
// the top's lib.sh; one CONFINED call (real bubblewrap, the agent's `sh one.sh`) appends `touch PWNED` to
// scripts/lib.sh; then the user's `git commit`. The unit tests state the readings by hand (placeChangesOf,
// toolFileReferences).
import test from 'ava';
import { placeChangesOf } from '../../src/host/executors/confine/shell-place-changes.js';
import { attack } from '../adversarial-s05b/harness.js';
import { EDIT, heldFor, hook, LIBS } from '../adversarial-s09f/harness.js';

/** The hook sources cdx.sh, then runs lib.sh where its shell is. */
const sourcesThenRuns = (cdx: string) => [hook('. ./cdx.sh\nbash lib.sh'), { ...LIBS, 'cdx.sh': cdx }] as const;

// Row 1: redirection operators shell-command-positions.ts does not take as one before the command.
test('1: a sourced file: &>/dev/null cd scripts (the & is taken for the command)', async (t) => {
  await attack(t, ...sourcesThenRuns('&>/dev/null cd scripts\n'), EDIT);
});

test('1: unit: &>, &>>, >| and {fd}> before cd: moves', (t) => {
  for (const text of ['&>/dev/null cd scripts\n', '&>>/dev/null cd scripts\n', '>|/dev/null cd scripts\n', '{fd}>/dev/null cd scripts\n']) t.true(placeChangesOf(text).movesWhenSourced, text);
});

// Row 2: a command word zotbox does not spell out ($'…', $"…", an expansion) moves nothing where no moving function is.
test("2: a sourced file: $'cd' scripts (ANSI-C quoting not decoded for the command word)", async (t) => {
  await attack(t, ...sourcesThenRuns("$'cd' scripts\n"), EDIT);
});

test('2: unit: $\'cd\', $"cd", C=cd; $C, ${CD:-cd}, cd${x} as the command: moves', (t) => {
  for (const text of ["$'cd' scripts\n", '$"cd" scripts\n', 'C=cd\n$C scripts\n', '${CD:-cd} scripts\n', 'cd${x} scripts\n']) t.true(placeChangesOf(text).movesWhenSourced, text);
});

// Row 3: a here-document delimiter quoted in part is not the one bash takes: the reading skips to another line.
test("3: a sourced file: cat <<'EOF'x … EOFx; cd scripts; a later line EOF", async (t) => {
  await attack(t, ...sourcesThenRuns("cat <<'EOF'x >/dev/null\nhi\nEOFx\ncd scripts\ncat <<EOF >/dev/null\nEOF\n"), EDIT);
});

test("3: unit: <<E'O'F and <<'EOF'x: the cd after bash's delimiter moves", (t) => {
  for (const text of ["cat <<E'O'F >/dev/null\nhi\nEOF\ncd scripts\nE\n", "cat <<'EOF'x >/dev/null\nhi\nEOFx\ncd scripts\nEOF\n"]) t.true(placeChangesOf(text).movesWhenSourced, text);
});

// Row 4: a function redefined later: the reading keeps the last body only, the call before it ran the first.
test('4: a sourced file: up() { cd scripts; }; up; up() { :; }', async (t) => {
  await attack(t, ...sourcesThenRuns('up() { cd scripts; }\nup\nup() { :; }\n'), EDIT);
});

test('4: unit: a call of the first body before a redefinition: moves', (t) => {
  t.true(placeChangesOf('up() { cd scripts; }\nup\nup() { :; }\n').movesWhenSourced);
});

// Row 5: hereCds counts cds the grammar does not (a subshell's, a substitution's, sh -c's): a real cd the script
// reader misses is then offset, so the file's cds "move nothing".
test('5: a sourced file: (cd "$(git rev-parse --show-toplevel)" && true); >/dev/null cd scripts', async (t) => {
  await attack(t, ...sourcesThenRuns('(cd "$(git rev-parse --show-toplevel)" && true)\n>/dev/null cd scripts\n'), EDIT);
});

test('5: unit: a here-cd the grammar does not count offsets a leading-redirection cd, a one-line function body', (t) => {
  for (const cdx of ['(cd .)\n>/dev/null cd scripts\n', 'ROOT=$(cd . && pwd)\n2>&1 pushd scripts\n', "sh -c 'cd . && true'\n>/dev/null cd scripts\n", '(cd .)\nfunction web { cd scripts; }\nweb\n'])
    t.true(heldFor(t, '. ./cdx.sh\nbash lib.sh', { 'cdx.sh': cdx }), cdx);
});

// Row 6 (older): the hook's own cd following misses a cd after a leading redirection and a one-line `function f {` body.
test('6: the hook itself: 2>/dev/null cd scripts; bash lib.sh', async (t) => {
  await attack(t, hook('2>/dev/null cd scripts\nbash lib.sh'), LIBS, EDIT);
});

test('6: the hook itself: function up { cd scripts; }; up; bash lib.sh', async (t) => {
  await attack(t, hook('function up { cd scripts; }\nup\nbash lib.sh'), LIBS, EDIT);
});

test('6: unit: the hook itself: >/dev/null, 2>&1, >&2, <&0, &>, >| before cd; function f { cd …; } on one line', (t) => {
  for (const body of [
    '>/dev/null cd scripts\nbash lib.sh',
    '2>&1 cd scripts\nbash lib.sh',
    '>&2 pushd scripts\nbash lib.sh',
    '<&0 cd scripts\nbash lib.sh',
    '&>/dev/null cd scripts\nbash lib.sh',
    '>|/dev/null cd scripts\nbash lib.sh',
    'function up { cd scripts; bash lib.sh; }\nup',
  ])
    t.true(heldFor(t, body), body);
});

// Row 7 (older): a positional parameter in a cd target (a function's argument, `set --`) is taken for the user's own
// argument and dropped: no place, no refusal.
test('7: the hook itself: in_dir() { cd "$1" && bash lib.sh; }; in_dir scripts', async (t) => {
  await attack(t, hook('in_dir() { cd "$1" && bash lib.sh; }\nin_dir scripts'), LIBS, EDIT);
});

test('7: unit: cd "$1" in a function, cd "$@", set -- scripts; cd "$1"', (t) => {
  for (const body of [
    'in_dir() {\n  cd "$1" || return\n  bash lib.sh\n}\nin_dir scripts',
    'in_dir() (\n  cd "$1" || exit\n  bash lib.sh\n)\nin_dir scripts',
    'run() { cd "$@"; bash lib.sh; }\nrun scripts',
    'set -- scripts\ncd "$1"\nbash lib.sh',
    'set -- x scripts\nshift\ncd "${1}"\nbash lib.sh',
  ])
    t.true(heldFor(t, body), body);
});
