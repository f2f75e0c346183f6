// Review s09f: where the hook's shell is after what zotbox's reading does not follow, after d3e73494 (sourced files
// read for a cd, pushd, popd or PWD; their moving functions; $PWD/$(pwd)/rev-parse unknown where made the script's own).
// Each test asserts the SAFE outcome by hand, so it FAILS while the hole is open. The end-to-end tests use the setup of
// review s07d: the user's bash hook (core.hooksPath .githooks) ends up in scripts/ at run time and runs `bash lib.sh`;
// zotbox, reading no move, protects the top's lib.sh; one CONFINED call (real bubblewrap, the agent's `sh one.sh`)
// appends `touch PWNED` to scripts/lib.sh; then the user's `git commit`. The unit tests state the readings by hand
// (placeChangesOf, scriptWords, toolFileReferences); the last ones are over-denials (ordinary hooks now refused).
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { placeChangesOf } from '../../src/host/executors/confine/shell-place-changes.js';
import { scriptWords } from '../../src/host/executors/confine/shell-command-words.js';
import type { SourcedFunctions } from '../../src/host/executors/confine/shell-sourced-functions.js';
import { attack } from '../adversarial-s05b/harness.js';
import { attackWithLink, COUNT, EDIT, hook, LIBS, unresolvedOf } from './harness.js';

/** The hook sources cdx.sh, then runs lib.sh where its shell is. */
const sourcesThenRuns = (cdx: string) => [hook('. ./cdx.sh\nbash lib.sh'), { ...LIBS, 'cdx.sh': cdx }] as const;

// Row 1: COMMAND_START misses command positions bash has.
test('1: a sourced file cds after a redirection: >/dev/null cd scripts', async (t) => {
  await attack(t, ...sourcesThenRuns('>/dev/null cd scripts\n'), EDIT);
});

test('1: unit: cd after a redirection, `time -p`, a quoted assignment with a blank, a `(pattern)` of case: moves', (t) => {
  for (const text of ['>/dev/null cd scripts\n', '2>&1 pushd scripts\n', 'time -p cd scripts\n', 'X="a b" cd scripts\n', 'case a in (a) cd scripts;; esac\n'])
    t.true(placeChangesOf(text).movesWhenSourced, text);
});

// Row 2: split takes a `#` that starts no word for a comment and drops the rest of the line.
test('2: a sourced file: echo \\ #; cd scripts (an escaped blank before the #)', async (t) => {
  await attack(t, ...sourcesThenRuns('echo \\ #; cd scripts\n'), EDIT);
});

test('2: unit: a # inside ${…} or after an escaped blank is no comment: moves', (t) => {
  for (const text of ['echo \\ #; cd scripts\n', 'echo ${x:+ #}; cd scripts\n']) t.true(placeChangesOf(text).movesWhenSourced, text);
});

// Row 3: split's here-documents, bodies and subshells are not bash's: later top-level commands are swallowed.
test('3: a sourced file: read -r v <<<true (a here-string taken for a here-document ending at `true`); cd scripts', async (t) => {
  await attack(t, ...sourcesThenRuns('read -r v <<<true\ncd scripts\ntrue\n'), EDIT);
});

test("3: a sourced file: usage() { cat <<EOF … Don't … EOF }; cd scripts # '; echo } (the body runs on to the later })", async (t) => {
  await attack(t, ...sourcesThenRuns("usage() {\n  cat <<EOF\nDon't run this by hand.\nEOF\n}\ncd scripts # '\necho }\n"), EDIT);
});

test("3: unit: a { word in a body, a ( in ${x//(/}, a ( after $'\\'': each swallows a later top-level cd", (t) => {
  for (const text of ['f() { echo {; }\ncd scripts\necho }\n', 'x=a; echo ${x//(/}\ncd scripts\ncase a in b) ;; esac\n', "echo $'\\'('; cd scripts; echo ')' # '\n"])
    t.true(placeChangesOf(text).movesWhenSourced, text);
});

// Row 4: one sourced file calls a moving function another sourced file defined.
test('4: . ./fns.sh (up() { cd scripts; }); . ./setup.sh (up); bash lib.sh', async (t) => {
  await attack(t, hook('. ./fns.sh\n. ./setup.sh\nbash lib.sh'), { ...LIBS, 'fns.sh': 'up() { cd scripts; }\n', 'setup.sh': 'up\n' }, EDIT);
});

// Row 5: a call of a sourced moving function that is not the name spelled at a command's start.
test('5: . ./fns.sh; fn=up; "$fn"; bash lib.sh', async (t) => {
  await attack(t, hook('. ./fns.sh\nfn=up\n"$fn"\nbash lib.sh'), { ...LIBS, 'fns.sh': 'up() { cd scripts; }\n' }, EDIT);
});

const context = { scriptDirectory: '/ws/.githooks', scriptFile: '/ws/.githooks/pre-commit', workingDirectory: '/ws', environment: { HOME: '/home/u' }, shell: 'bash' };
const UP: SourcedFunctions = { names: new Set(['up']), any: false, movingFunctions: new Set(['up']) };
/** Whether the hook text, sourcing /ws/fns.sh (which defines the moving `up`), is read with an unresolved word. */
const refused = (text: string) => scriptWords(text, { ...context, readSourced: (file) => (file === '/ws/fns.sh' ? UP : 'absent') }).some((word) => word.kind === 'unresolved');

test('5: unit: up called as "$fn", after an empty $NOTHING, after a redirection, after time -p, by eval, by a trap: the later words are unknown', (t) => {
  for (const call of ['fn=up\n"$fn"', '$NOTHING up', '>/dev/null up', 'time -p up', 'eval up', 'set -T\ntrap up RETURN\nf() { :; }\nf', 'echo \\ #; up'])
    t.true(refused(`. ./fns.sh\n${call}\nbash lib.sh\n`), call);
});

// Row 6: shopt -s cdable_vars: `cd NAME` that is no folder goes to $NAME.
test('6: a sourced file: shopt -s cdable_vars; web=scripts; the hook: cd web; bash lib.sh', async (t) => {
  await attack(t, hook('. ./cdx.sh\ncd web\nbash lib.sh'), { ...LIBS, 'cdx.sh': 'shopt -s cdable_vars\nweb=scripts\n' }, EDIT);
});

test('6: unit: cdable_vars in the hook itself: shopt -s cdable_vars; web=scripts; cd web; bash lib.sh is unknown', (t) => {
  t.true(refused('shopt -s cdable_vars\nweb=scripts\ncd web\nbash lib.sh\n'));
});

// Row 8: $(git rev-parse --show-toplevel) made another place without a git function: GIT_DIR/GIT_WORK_TREE, hash -p.
// Row 7: the shell's physical place under a folder link: the kernel walks `..` from the link's target.
test("7: the user's link → scripts/sub: cd link; bash ../lib.sh (the kernel's .. is scripts/)", async (t) => {
  await attackWithLink(t, 'cd link\nbash ../lib.sh');
});

test("7: the user's link → scripts/sub: cd -P link; cd ..; bash lib.sh", async (t) => {
  await attackWithLink(t, 'cd -P link\ncd ..\nbash lib.sh');
});

test("7: the user's link → scripts/sub: cd link; . ../lib.sh (a sourced file's `..` from the link's target)", async (t) => {
  await attackWithLink(t, 'cd link\n. ../lib.sh');
});

test('8: a sourced file exports GIT_DIR and GIT_WORK_TREE; cd "$(git rev-parse --show-toplevel)"; bash lib.sh', async (t) => {
  await attack(
    t,
    hook('. ./g.sh\ncd "$(git rev-parse --show-toplevel)"\nunset GIT_DIR GIT_WORK_TREE\nbash lib.sh'),
    { ...LIBS, 'g.sh': 'export GIT_DIR="$PWD/.git" GIT_WORK_TREE="$PWD/scripts"\n' },
    EDIT,
  );
});

test('8: unit: hash -p names what git runs: cd "$(git rev-parse --show-toplevel)" is unknown', (t) => {
  t.true(refused('hash -p "$PWD/tools/top.sh" git\ncd "$(git rev-parse --show-toplevel)"\nbash lib.sh\n'));
  t.true(refused('export GIT_WORK_TREE="$PWD/scripts" GIT_DIR="$PWD/.git"\ncd "$(git rev-parse --show-toplevel)"\nbash lib.sh\n'));
});

// Over-denials: ordinary hooks every writer is now refused for (none was on 7be88eed).
const NVM_INIT = 'export NVM_DIR="$HOME/.nvm"\n[ -s "$NVM_DIR/nvm.sh" ] && \\. "$NVM_DIR/nvm.sh"\n';
/** What makes the real nvm.sh unreadable for a sourced file: a `set -a` (nvm.sh's own, restoring allexport in nvm_…). */
const NVM_LIKE = 'nvm() { :; }\nnvm_keep() {\n  set +a\n  nvm "$@"\n  set -a\n}\nnvm_cd() { \\cd "$@"; }\n';
const HUSKY9_H =
  '#!/usr/bin/env sh\nn=$(basename "$0")\ns=$(dirname "$(dirname "$0")")/$n\n[ ! -f "$s" ] && exit 0\ni="${XDG_CONFIG_HOME:-$HOME/.config}/husky/init.sh"\n[ -f "$i" ] && . "$i"\n[ "${HUSKY-}" = "0" ] && exit 0\nexport PATH="node_modules/.bin:$PATH"\nsh -e "$s" "$@"\n';

// Row 9 (found while fixing row 7): a relative cd after another goes from where that one went.
test('9: cd scripts; cd sub; bash lib.sh (scripts/sub/lib.sh, not scripts/lib.sh or sub/lib.sh)', async (t) => {
  const lib = '#!/bin/bash\necho lint\n';
  await attack(t, hook('cd scripts\ncd sub\nbash lib.sh'), { ...LIBS, 'sub/lib.sh': lib, 'scripts/sub/lib.sh': lib }, "printf 'touch PWNED\\n' >> scripts/sub/lib.sh\n");
});

test('over-denial: husky 9 with the nvm init.sh husky documents (nvm.sh has `set -a` in a function): reads', (t) => {
  const files = { '.husky/_/h': HUSKY9_H, '.husky/_/pre-commit': '#!/usr/bin/env sh\n. "$(dirname "$0")/h"\n', '.husky/pre-commit': 'npx lint-staged\n' };
  t.deepEqual(unresolvedOf(t, files, { '.config/husky/init.sh': NVM_INIT, '.nvm/nvm.sh': NVM_LIKE }, '.husky/_'), []);
});

test('over-denial: a hook sourcing git-sh-setup (it sources git-sh-i18n by $(git --exec-path)): reads', (t) => {
  const setup = path.join(execFileSync('git', ['--exec-path'], { encoding: 'utf8' }).trim(), 'git-sh-setup');
  t.true(existsSync(setup), `git's ${setup} is missing: install git`);
  t.deepEqual(unresolvedOf(t, { '.githooks/pre-commit': `#!/bin/sh\n. ${setup}\nrequire_work_tree\nsh scripts/count.sh\n`, 'scripts/count.sh': COUNT }), []);
});

test('over-denial: a sourced helper whose usage() here-document has an apostrophe: reads', (t) => {
  const helpers = 'usage() {\n  cat <<EOF\nUsage: hooks [--fix]\nDon\'t run this by hand.\nEOF\n}\nlog() { echo "$@"; }\n';
  t.deepEqual(unresolvedOf(t, { '.githooks/pre-commit': '#!/bin/bash\n. ./scripts/helpers.sh\nsh scripts/count.sh\n', 'scripts/helpers.sh': helpers, 'scripts/count.sh': COUNT }), []);
});

test('over-denial: a sourced helper that does cd "$(git rev-parse --show-toplevel)" (where a hook already is): reads', (t) => {
  const helpers = 'cd "$(git rev-parse --show-toplevel)" || exit 1\nlog() { echo "$@"; }\n';
  t.deepEqual(unresolvedOf(t, { '.githooks/pre-commit': '#!/bin/bash\n. ./scripts/helpers.sh\nsh scripts/count.sh\n', 'scripts/helpers.sh': helpers, 'scripts/count.sh': COUNT }), []);
});

/** husky 8's own .husky/_/husky.sh (husky 4-8 layouts source it from each hook). */
const HUSKY8_SH =
  '#!/usr/bin/env sh\nif [ -z "$husky_skip_init" ]; then\n  debug () {\n    if [ "$HUSKY_DEBUG" = "1" ]; then\n      echo "husky (debug) - $1"\n    fi\n  }\n\n  readonly hook_name="$(basename -- "$0")"\n  debug "starting $hook_name..."\n\n  if [ "$HUSKY" = "0" ]; then\n    debug "HUSKY env variable is set to 0, skipping hook"\n    exit 0\n  fi\n\n  if [ -f ~/.huskyrc ]; then\n    debug "sourcing ~/.huskyrc"\n    . ~/.huskyrc\n  fi\n\n  readonly husky_skip_init=1\n  export husky_skip_init\n  sh -e "$0" "$@"\n  exitCode="$?"\n\n  if [ $exitCode != 0 ]; then\n    echo "husky - $hook_name hook exited with code $exitCode (error)"\n  fi\n\n  if [ $exitCode = 127 ]; then\n    echo "husky - command not found in PATH=$PATH"\n  fi\n\n  exit $exitCode\nfi\n';

test('over-denial: husky 4-8 (husky.sh) with no ~/.huskyrc, the hook running a relative script: reads', (t) => {
  const files = { '.githooks/pre-commit': '#!/bin/sh\n. "$(dirname -- "$0")/_/husky.sh"\n\nbash scripts/count.sh\n', '.githooks/_/husky.sh': HUSKY8_SH, 'scripts/count.sh': COUNT };
  t.deepEqual(unresolvedOf(t, files), []);
});
