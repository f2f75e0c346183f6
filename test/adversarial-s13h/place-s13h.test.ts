// Review s13h: where the hook's shell is, and what a redirection leaves, after s11g's fixes (shell-lexer.ts lexShell's
// one-word redirection targets, shell-command-positions.ts, placeChangesOf with `here` and ARGUMENTS_ONLY). Each test
// asserts the SAFE outcome by hand, so it FAILED while the hole was open (the open cases are in place-s13h.open.ts). The end-to-end tests use the setup of reviews
// s07d, s09f and s11g: the user's bash hook (core.hooksPath .githooks) runs, at run time, a file zotbox does not
// protect; one CONFINED call (real bubblewrap, the agent's `sh one.sh`) appends `touch PWNED` to it; then the user's
// `git commit`. The unit tests state the readings by hand (toolFileReferences refuses or protects the file bash runs;
// placeChangesOf). The over-denial tests assert the reading an ordinary hook should get, so they FAIL while refused.
import test from 'ava';
import { placeChangesOf } from '../../src/host/executors/confine/shell-place-changes.js';
import { attack } from '../adversarial-s05b/harness.js';
import { COUNT, EDIT, heldFor, hook, LIBS, unresolvedOf } from '../adversarial-s09f/harness.js';

// Row 1: a function's body is read once, where it is written, from the places of the cds before it in the text; bash
// runs it from wherever the shell is when it is called (after a later cd, in a subshell that cds, again after a cd of
// its own). A loop's body likewise runs again after a cd written below its first words.
const CHECKS = { 'web/scripts/check.sh': '#!/bin/sh\necho web\n', 'scripts/check.sh': '#!/bin/sh\necho top\n' };

test('1: the hook: check() { sh scripts/check.sh; }; (cd web && check) (a monorepo hook; web/scripts/check.sh runs)', async (t) => {
  await attack(t, hook('check() {\n  sh scripts/check.sh\n}\n(cd web && check) || exit 1'), CHECKS, "printf 'touch PWNED\\n' >> web/scripts/check.sh\n");
});

test('1: unit: a function called after a cd written below it, a body run twice, a loop, a sourced helper function', (t) => {
  for (const [body, files] of [
    ['check() { bash lib.sh; }\ncd scripts\ncheck', {}],
    ['check() {\n  bash lib.sh\n}\n(cd scripts && check) || exit 1', {}],
    ['step() {\n  bash lib.sh\n  cd scripts\n}\nstep\nstep', {}],
    ['for i in 1 2; do\n  bash lib.sh\n  cd scripts\ndone', {}],
  ] as const)
    t.true(heldFor(t, body, files), body);
  t.true(heldFor(t, 'check() {\n  sh scripts/check.sh\n}\ncd web || exit 1\ncheck', CHECKS, 'web/scripts/check.sh'));
});

// Row 2: a cd handed to a function that runs its arguments ("$@"): the hook's reader follows a cd only as a command's
// program, and placeChangesOf's ARGUMENTS_ONLY leaves a body's "$@" to the caller, which does not read it as a cd.
test('2: the hook: run() { echo "+ $*" >&2; "$@"; }; run cd scripts; run bash lib.sh', async (t) => {
  await attack(t, hook('run() {\n  echo "+ $*" >&2\n  "$@"\n}\nrun cd scripts\nrun bash lib.sh'), LIBS, EDIT);
});

test('2: unit: run/retry/quiet cd in the hook or a sourced helper, a sourced file\'s top "$@", set -- cd; "$@", for c in cd', (t) => {
  for (const [body, files] of [
    ['run() { "$@"; }\nrun cd scripts\nbash lib.sh', {}],
    ['run() { "$@"; }\nif run cd scripts; then bash lib.sh; fi', {}],
    ['retry() { for i in 1 2 3; do "$@" && return 0; done; return 1; }\nretry pushd scripts >/dev/null\nbash lib.sh', {}],
    ['. ./fns.sh\nquiet cd scripts\nbash lib.sh', { 'fns.sh': 'quiet() { "$@" >/dev/null 2>&1; }\n' }],
    ['. ./fns.sh\nrun cd scripts\nbash lib.sh', { 'fns.sh': 'run() { "$1" "$2"; }\n' }],
    ['. ./cdx.sh cd scripts\nbash lib.sh', { 'cdx.sh': 'export A=1\n"$@"\n' }],
    ['set -- cd scripts\n"$@"\nbash lib.sh', {}],
    ['for c in cd; do $c scripts; done\nbash lib.sh', {}],
  ] as const)
    t.true(heldFor(t, body, files), body);
});

// Row 3: lexShell (every script reader's lexer) takes an arithmetic `<<` (a shift) for a here-document: the rest of
// the hook, to a line that is the "delimiter", is a body nobody reads. The grammar reader knows `((`, not `$[`.
test('3: the hook: (( mask = 1 << 2 )); bash scripts/lib.sh (the rest of the hook read as a here-document body)', async (t) => {
  await attack(t, hook('(( mask = 1 << 2 ))\nbash scripts/lib.sh'), LIBS, EDIT);
});

test('3: unit: (( … << … )), ((m<<=1)), $[1<<2] in the hook; $[1<<2] in a sourced file', (t) => {
  for (const body of ['(( mask = 1 << 2 ))\ncd scripts\nbash lib.sh', 'm=1\n((m<<=1))\ncd scripts\nbash lib.sh', 'x=$[1<<2]\ncd scripts\nbash lib.sh', '(( mask = 1 << 2 ))\nbash scripts/lib.sh'])
    t.true(heldFor(t, body), body);
  t.true(placeChangesOf("x=$[1<<2]\ncd scripts\ncat >/dev/null <<'EOF'\n2]\nEOF\n").movesWhenSourced);
});

// Row 4: a here-document glued to a redirection's target: `<<` takes the command list's last entry before the target
// word is pushed, which is the target's own list (the command was moved after it), so the document is read as the
// target's (`/dev/null`: data) while bash feeds it to the shell. With a blank before `<<` it is read (fixed by 49d1f514).
test("4: the hook: bash 2>/dev/null<<'EOF' … bash scripts/lib.sh … EOF", async (t) => {
  await attack(t, hook("bash 2>/dev/null<<'EOF'\nbash scripts/lib.sh\nEOF"), LIBS, EDIT);
});

test('4: unit: 2>/dev/null<<, >/dev/null<<, 2>&1<< glued to a shell', (t) => {
  for (const body of ["bash 2>/dev/null<<'EOF'\nbash scripts/lib.sh\nEOF", 'sh >/dev/null<<EOF\nbash scripts/lib.sh\nEOF', "bash -s 2>&1<<'EOF'\nbash scripts/lib.sh\nEOF"])
    t.true(heldFor(t, body), body);
});

// Row 7: a `[[` case pattern turns lexShell's test mode on to the next `]]` word: newlines and `&&` end no command.
test('7: unit: case x in [[) :;; esac; cd scripts; bash lib.sh', (t) => {
  t.true(heldFor(t, 'case x in [[) :;; esac\ncd scripts\nbash lib.sh'));
});

// Over-denials new with 49d1f514 (a command word with an expansion moves at any level): a sourced helper whose case
// pattern holds an expansion (nvm.sh's `"${NVM_IOJS_PREFIX}"-*)`), or whose function runs a program from a variable
// the file sets to a literal, now "may change the directory"; the real nvm.sh is refused again.
const SOURCES_LIB = (lib: string, call = '') => ({ '.githooks/pre-commit': `#!/bin/sh\n. .githooks/lib.sh\n${call}sh scripts/count.sh\n`, '.githooks/lib.sh': lib, 'scripts/count.sh': COUNT });

test('over-denial: a sourced helper with a case pattern "$PREFIX"*) (at its top, or in a function the hook calls): reads', (t) => {
  t.deepEqual(unresolvedOf(t, SOURCES_LIB('PREFIX=v\ncase "$VERSION" in\n  "$PREFIX"*) echo v ;;\nesac\n')), []);
  t.deepEqual(unresolvedOf(t, SOURCES_LIB('PREFIX=v\nis_v() {\n  case "$1" in\n    "$PREFIX"*) return 0 ;;\n    *) return 1 ;;\n  esac\n}\n', 'is_v v1 && echo v\n')), []);
});

test('over-denial: an nvm.sh stand-in (nvm_is_iojs\'s case pattern "${NVM_IOJS_PREFIX}"-*, called at its top): reads', (t) => {
  const nvm =
    'NVM_IOJS_PREFIX=iojs\nnvm_is_iojs() {\n  case "${1-}" in\n    "${NVM_IOJS_PREFIX}"-*) return 0 ;;\n  esac\n  return 1\n}\nnvm() {\n  nvm_is_iojs "$1" || return 0\n}\nnvm_auto() { nvm use default >/dev/null 2>&1; }\nnvm_auto\n';
  t.deepEqual(unresolvedOf(t, SOURCES_LIB(nvm)), []);
});

test('over-denial: a sourced helper running a program from a variable it sets to a literal (NPM_CMD=npm; $NPM_CMD install): reads', (t) => {
  t.deepEqual(unresolvedOf(t, SOURCES_LIB('NPM_CMD=npm\nnpm_i() { $NPM_CMD install; }\n', 'npm_i\n')), []);
  t.deepEqual(unresolvedOf(t, SOURCES_LIB('tar=tar\nunpack() { "${tar}" -xf "$1"; }\n', 'unpack x.tgz\n')), []);
});
