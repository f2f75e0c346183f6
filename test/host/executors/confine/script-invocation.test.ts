// A script's own place as the shell has it: `$0` is the file the shell was started on (a sourced file's is its
// sourcer's, a linked hook's is the link git runs), and BASH_SOURCE exists only where bash reads the file. The unit
// tests state by hand what dash and bash give; the end-to-end ones run the user's real git after one confined call.
import { chmodSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { invocationOf, scriptShell } from '../../../../src/host/executors/confine/script-invocation.js';
import { scriptWords } from '../../../../src/host/executors/confine/shell-command-words.js';
import { git, project } from '../../../adversarial-s36i/harness.js';
import { agentThenUserCommit } from '../../../adversarial-s64m/fixtures.js';

test('a file run by its name is its own $0; BASH_SOURCE only under a #! line that runs bash', (t) => {
  t.deepEqual(scriptShell('#!/bin/sh\n', '/ws/h/pre-commit', '/ws/h/pre-commit', {}), { scriptFile: '/ws/h/pre-commit', scriptDirectory: '/ws/h', scriptRealFile: '/ws/h/pre-commit', shell: 'sh' });
  t.deepEqual(scriptShell('echo\n', '/ws/h/x', '/ws/h/x', {}), { scriptFile: '/ws/h/x', scriptDirectory: '/ws/h', scriptRealFile: '/ws/h/x', shell: 'sh' });
  t.deepEqual(scriptShell('#!/usr/bin/env bash\n', '/ws/.git/hooks/pre-commit', '/ws/scripts/pre-commit', {}), {
    scriptFile: '/ws/.git/hooks/pre-commit',
    scriptDirectory: '/ws/.git/hooks',
    scriptRealFile: '/ws/scripts/pre-commit',
    sourceFile: '/ws/.git/hooks/pre-commit',
    sourceRealFile: '/ws/scripts/pre-commit',
    shell: 'bash',
  });
});

test("a sourced file keeps its sourcer's $0 and shell; a file a shell is named to run gets that shell", (t) => {
  const hook = scriptShell('#!/bin/bash\n', '/ws/h/pre-commit', '/ws/h/pre-commit', {});
  t.deepEqual(invocationOf({ runner: '.' }, hook), { sourced: { scriptFile: '/ws/h/pre-commit', scriptRealFile: '/ws/h/pre-commit' }, shell: 'bash' });
  t.deepEqual(invocationOf({ runner: 'source' }, scriptShell('#!/bin/sh\n', '/ws/h/x', '/ws/h/x', {})), { sourced: { scriptFile: '/ws/h/x', scriptRealFile: '/ws/h/x' }, shell: 'sh' });
  t.deepEqual(invocationOf({ runner: 'sh' }, hook), { shell: 'sh' });
  t.deepEqual(invocationOf({ runner: 'bash' }, hook), { shell: 'bash' });
  // A command's program is a new process; a word run with no runner named otherwise (`cat x | sh`, `. /dev/stdin < x`)
  // may share the reading shell, at a time zotbox cannot tell (after any write: a file it sources that is not there may be).
  t.is(invocationOf({ newProcess: true }, hook), undefined);
  t.deepEqual(invocationOf({}, hook), { sharesShell: true, afterWrites: true });
  // A `.` after a command that may write files, in a script whose functions are told and that changes directory.
  t.deepEqual(invocationOf({ runner: '.', afterWrites: true }, hook, { names: new Set(['f']), any: false, changesDirectory: true }), {
    sourced: { scriptFile: '/ws/h/pre-commit', scriptRealFile: '/ws/h/pre-commit' },
    shell: 'bash',
    sourcerCommands: { names: ['f'] },
    afterWrites: true,
    directoryUnknown: true,
  });
  // It shares the shell: that shell's functions too (a command it runs may be one).
  t.deepEqual(scriptShell('x=1\n', '/ws/h/x', '/ws/h/x', { sharesShell: true }), {
    sourced: true,
    inheritsFunctions: true,
    scriptFile: '/ws/h/x',
    scriptDirectory: '/ws/h',
    scriptRealFile: '/ws/h/x',
    shell: 'sh',
  });
  // A library the hook sources: $0 the hook's, BASH_SOURCE (bash) the library's own.
  const library = scriptShell('x=1\n', '/ws/h/lib/common.sh', '/ws/h/lib/common.sh', invocationOf({ runner: '.' }, hook)!);
  t.is(library.scriptFile, '/ws/h/pre-commit');
  t.is(library.scriptDirectory, '/ws/h');
  t.is(library.sourceFile, '/ws/h/lib/common.sh');
  // It runs in the hook's shell, with the hook's variables, attributes and traps.
  t.is(library.sourced, true);
  // Sourced from `sh -c TEXT` (no $0 zotbox knows): no $0 at all.
  t.deepEqual(scriptShell('x=1\n', '/ws/lib.sh', '/ws/lib.sh', invocationOf({ runner: '.' }, {})!), { sourced: true, inheritsFunctions: true, shell: 'sh' });
  // Sourced by text a new shell reads inside the hook (`sh -c '. lib.sh'`): that shell's $0, not the hook's.
  t.deepEqual(invocationOf({ runner: '.', inShellText: true }, hook), { sourced: {}, shell: 'sh' });
  // zsh gives a sourced file (and a function) its own $0, and other shells are not modelled: none known, in what they
  // read and in what they source.
  const zsh = scriptShell('#!/usr/bin/env zsh\n', '/ws/h/pre-commit', '/ws/h/pre-commit', {});
  t.deepEqual(zsh, { shell: 'zsh', opaque: true });
  t.deepEqual(invocationOf({ runner: 'source' }, zsh), { sourced: {}, shell: 'zsh', opaque: true });
  t.deepEqual(invocationOf({ runner: '.' }, scriptShell('#!/bin/ksh\n', '/ws/h/x', '/ws/h/x', {})), { sourced: {}, shell: 'ksh', opaque: true });
  // A script that may hand its functions to a new shell (`export -f`, `set -a`): what it runs, by a shell or by its
  // own name, may be handed them (review s97t).
  const exporter = scriptShell('#!/bin/bash\nbash() { . "$@"; }\nexport -f bash\n', '/ws/h/pre-commit', '/ws/h/pre-commit', {});
  t.deepEqual(invocationOf({ runner: 'bash' }, exporter), { shell: 'bash', inheritsFunctions: true });
  t.deepEqual(invocationOf({ newProcess: true }, exporter), { inheritsFunctions: true });
  t.is(scriptShell('#!/bin/bash\n', '/ws/b.sh', '/ws/b.sh', { inheritsFunctions: true }).inheritsFunctions, true);
  // An export's options may start with `+` (`declare +i -fx f` exports f; bash 5.2 was seen running it in a new bash).
  t.is(scriptShell('#!/bin/bash\nf() { :; }\ndeclare +i -fx f\n', '/ws/h/x', '/ws/h/x', {}).opaque, true);
  // A tool that names the shell decides over the #! line (husky 9 runs `sh -e .husky/NAME`).
  t.is(scriptShell('#!/usr/bin/env bash\n', '/ws/.husky/pre-commit', '/ws/.husky/pre-commit', { shell: 'sh' }).sourceFile, undefined);
});

// The words but the command substitution's own `dirname`.
const words = (text: string, context: Parameters<typeof scriptWords>[1]) =>
  scriptWords(text, context)
    .map((word) => (word.kind === 'path' ? `${word.text}${word.runs === true ? ' (runs)' : ''}` : `unresolved ${word.text}`))
    .filter((word) => word !== 'dirname (runs)');

test('BASH_SOURCE is the file only where bash reads it; elsewhere a spelling of it is unresolved', (t) => {
  const base = { workingDirectory: '/ws', environment: {} };
  const text = 'sh "$(dirname "$BASH_SOURCE")/scripts/lint.sh"\n';
  t.deepEqual(words(text, { ...base, scriptFile: '/ws/.githooks/pre-commit', scriptDirectory: '/ws/.githooks' }), ['sh (runs)', 'unresolved $(dirname "$BASH_SOURCE")/scripts/lint.sh']);
  t.deepEqual(words(text, { ...base, scriptFile: '/ws/.githooks/pre-commit', scriptDirectory: '/ws/.githooks', sourceFile: '/ws/.githooks/pre-commit' }), [
    'sh (runs)',
    '/ws/.githooks/scripts/lint.sh (runs)',
  ]);
  // A sourced library's $0 is the hook's: its climb out of the hook's folder is the one allowed.
  t.deepEqual(words('sh "$(dirname "$0")/../tools/lint.sh"\n', { ...base, scriptFile: '/ws/.githooks/pre-commit', scriptDirectory: '/ws/.githooks', sourceFile: '/ws/.githooks/lib/common.sh' }), [
    'sh (runs)',
    '/ws/.githooks/../tools/lint.sh (runs)',
  ]);
  // With no $0 known (an exec line's `sh -c`), a spelling of it is unresolved.
  t.deepEqual(words('sh "$(dirname "$0")/lint.sh"\n', base), ['sh (runs)', 'unresolved $(dirname "$0")/lint.sh']);
  // `sh -c TEXT`: $0 is "sh", so `$(dirname "$0")` is the current directory, but `${0%/*}` is "sh" itself.
  t.deepEqual(words('sh "$(dirname "$0")/lint.sh"\n', { ...base, scriptDirectory: '.' }), ['sh (runs)', './lint.sh (runs)']);
  t.deepEqual(words('sh "${0%/*}/lint.sh"\n', { ...base, scriptDirectory: '.' }), ['sh (runs)', 'unresolved ${0%/*}/lint.sh']);
});

const overwrite = (file: string) => `set -e\nprintf 'touch "$(git rev-parse --show-toplevel)/PWNED"\\n' > ${file}\n`;

test("a linked hook's $0 is the link git runs: its climb out of .git/hooks names the top's tools/lint.sh, which is protected", async (t) => {
  const ws = project(t, {
    'src.txt': '1\n',
    'one.sh': overwrite('tools/lint.sh'),
    'tools/lint.sh': 'exit 0\n',
    'scripts/pre-commit': '#!/bin/sh\nsh "$(dirname "$0")/../../tools/lint.sh"\n',
  });
  chmodSync(path.join(ws, 'scripts/pre-commit'), 0o755);
  rmSync(path.join(ws, '.git/hooks/pre-commit'), { force: true });
  symlinkSync('../../scripts/pre-commit', path.join(ws, '.git/hooks/pre-commit'));
  t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's script");
});

test("a library a bash hook sources names its own folder by BASH_SOURCE and the hook's by $0: both protected", async (t) => {
  for (const [spelling, target] of [
    ['"$(dirname "${BASH_SOURCE[0]}")/lint.sh"', '.githooks/lib/lint.sh'],
    ['"$(dirname "$0")/../tools/lint.sh"', 'tools/lint.sh'],
  ] as const) {
    const ws = project(t, {
      'src.txt': '1\n',
      'one.sh': overwrite(target),
      [target]: 'exit 0\n',
      '.githooks/pre-commit': '#!/bin/bash\n. "$(dirname "$0")/lib/common.sh"\n',
      '.githooks/lib/common.sh': `sh ${spelling}\n`,
    });
    chmodSync(path.join(ws, '.githooks/pre-commit'), 0o755);
    git(ws, 'config', 'core.hooksPath', '.githooks');
    t.false(await agentThenUserCommit(t, ws), `${spelling}: the user's git commit ran the agent's script`);
  }
});

test('a name the shell sets is never the environment: ${BASH_SOURCE:-$0} by shell, ${PWD:-x} where the shell is', (t) => {
  const environment = { BASH_SOURCE: '/elsewhere/x', PWD: '/home/u', FUNCNAME: '/elsewhere' };
  const library = { workingDirectory: '/ws', environment, scriptFile: '/ws/.githooks/pre-commit', scriptDirectory: '/ws/.githooks' };
  const text = 'sh "$(dirname "${BASH_SOURCE:-$0}")/lint.sh"\n';
  // bash: the sourced file itself.
  t.deepEqual(words(text, { ...library, shell: 'bash', sourceFile: '/ws/scripts/lib.sh' }), ['sh (runs)', '/ws/scripts/lint.sh (runs)']);
  // sh may be bash (which sets it) or dash (which does not): unknown.
  t.deepEqual(words(text, { ...library, shell: 'sh' }), ['sh (runs)', 'unresolved $(dirname "${BASH_SOURCE:-$0}")/lint.sh']);
  // dash surely has none of its own: the environment's, as for any variable.
  t.deepEqual(words(text, { ...library, shell: 'dash', environment: {} }), ['sh (runs)', '/ws/.githooks/lint.sh (runs)']);
  t.deepEqual(words('sh "${PWD:-/tmp}/lint.sh"\nsh "${FUNCNAME:-x}/y.sh"\n', { ...library, shell: 'bash', sourceFile: '/ws/scripts/lib.sh' }), [
    'sh (runs)',
    './lint.sh (runs)',
    'unresolved ${FUNCNAME:-x}/y.sh',
  ]);
});

test("a command substitution in text a new shell reads has that shell's $0 (none), not the script's", (t) => {
  const hook = { workingDirectory: '/ws', environment: {}, scriptFile: '/ws/.githooks/pre-commit', scriptDirectory: '/ws/.githooks', shell: 'sh' };
  t.true(words(`sh -c 'v=$(sh "$(dirname "$0")/lint.sh")'\n`, hook).includes('unresolved $(dirname "$0")/lint.sh'));
  // eval's text is read by the script's own shell: its $0.
  t.true(words(`eval 'sh "$(dirname "$0")/lint.sh"'\n`, hook).includes('/ws/.githooks/lint.sh (runs)'));
  // The new shell's $0 or arguments run or sourced: what it was given (lib.sh is a word, but what it sources is not read).
  t.deepEqual(words(`sh -c '. "$0"' lib.sh\n`, hook), ['sh (runs)', '-c', '. "$0" (runs)', '. (runs)', 'unresolved $0', 'lib.sh']);
  t.true(words(`sh -c '"$@"' _ x.sh\n`, hook).includes('unresolved $@'));
  // Passed as an argument, it is data; the script's own "$@" run is the user's arguments, as before.
  t.deepEqual(words(`sh -c 'shellcheck "$0"' x.sh\nexec "$@"\n`, hook), ['sh (runs)', '-c', 'shellcheck "$0" (runs)', 'shellcheck (runs)', 'x.sh', 'exec']);
});

test("code whose $0 is not the script's where it runs: an exported bash function, a zsh function; what such a script sources too", (t) => {
  // `export -f g; xargs bash -c 'g "$0"'`: a new bash runs g with its own $0 and BASH_SOURCE "environment".
  const exporting = scriptShell('#!/bin/bash\n. lib.sh\nexport -f g\nxargs -n1 bash -c \'g "$0"\'\n', '/ws/h/pre-commit', '/ws/h/pre-commit', {});
  t.deepEqual(exporting, { shell: 'bash', opaque: true });
  t.deepEqual(scriptShell('#!/bin/bash\ndeclare -fx g\n', '/ws/h/x', '/ws/h/x', {}), { shell: 'bash', opaque: true });
  // The library that defines g is read so too.
  t.deepEqual(invocationOf({ runner: '.' }, exporting), { sourced: {}, shell: 'bash', opaque: true });
  t.deepEqual(scriptShell('g() { sh "$(dirname "$0")/x.sh"; }\n', '/ws/h/lib.sh', '/ws/h/lib.sh', invocationOf({ runner: '.' }, exporting)!), {
    shell: 'bash',
    opaque: true,
    sourced: true,
    inheritsFunctions: true,
  });
  // zsh gives a function its own $0 (its name): a zsh script with a function; sh and bash keep the script's.
  t.deepEqual(scriptShell('#!/usr/bin/env zsh\nmain() { sh "$(dirname "$0")/x.sh"; }\nmain\n', '/ws/h/x', '/ws/h/x', {}), { shell: 'zsh', opaque: true });
  t.is(scriptShell('#!/bin/sh\nmain() { sh "$(dirname "$0")/x.sh"; }\nmain\n', '/ws/h/x', '/ws/h/x', {}).scriptFile, '/ws/h/x');
  // A function with a way to a new bash, in any spelling, or with a file sourced that may export it: opaque.
  for (const text of ['set -a\nf() { x; }\n', 'f() { x; }\neval "export -f f"\n', 'f() { x; }\n\\export -f f\n', 'f() { x; }\nex""port -f f\n', "env 'BASH_FUNC_f%%=() { x; }' true\n"])
    t.deepEqual(scriptShell(`#!/bin/bash\n${text}`, '/ws/h/x', '/ws/h/x', {}), { shell: 'bash', opaque: true }, text);
  t.deepEqual(scriptShell('#!/bin/bash -a\nf() { x; }\n', '/ws/h/x', '/ws/h/x', {}), { shell: 'bash', opaque: true });
  // A sourcer that may hand functions to a new bash: a library defining one is opaque.
  const starter = scriptShell('#!/bin/sh\n. lib.sh\nxargs bash -c g\n', '/ws/h/x', '/ws/h/x', {});
  t.deepEqual(scriptShell('g() { x; }\n', '/ws/h/lib.sh', '/ws/h/lib.sh', invocationOf({ runner: '.' }, starter)!), { shell: 'sh', opaque: true, sourced: true, inheritsFunctions: true });
  // A script with functions that sources a file keeps its $0; the file, if it may hand them to a new bash, refuses.
  const withFunctions = scriptShell('#!/bin/bash\n. lib.sh\nf() { sh "$(dirname "$0")/x.sh"; }\n', '/ws/h/x', '/ws/h/x', {});
  t.is(withFunctions.scriptFile, '/ws/h/x');
  t.is(scriptShell('export -f f\nxargs bash -c f\n', '/ws/h/lib.sh', '/ws/h/lib.sh', invocationOf({ runner: '.' }, withFunctions)!).handsOnFunctions, true);
  t.is(scriptShell('x=1\n', '/ws/h/lib.sh', '/ws/h/lib.sh', invocationOf({ runner: '.' }, withFunctions)!).handsOnFunctions, undefined);
  // $0 set by the script: not the file.
  t.deepEqual(scriptShell('#!/bin/bash\nBASH_ARGV0=tools/x\n', '/ws/h/x', '/ws/h/x', {}), { shell: 'bash', opaque: true });
  // Handed on through a file that only sources another: two levels down, the file that hands them to a new bash refuses.
  const middle = scriptShell('. lib2.sh\n', '/ws/h/lib1.sh', '/ws/h/lib1.sh', invocationOf({ runner: '.' }, withFunctions)!);
  t.is(scriptShell('export -f f\nbash -c f\n', '/ws/h/lib2.sh', '/ws/h/lib2.sh', invocationOf({ runner: '.' }, middle)!).handsOnFunctions, true);
});

test("the ways to a new bash and to an export, spelled as the shell reads them: continuations, $'…', patterns, defaults, the #! line", (t) => {
  for (const text of [
    'f() { x; }\nex\\\nport -f f\nba\\\nsh -c f\n',
    "f() { x; }\ndeclare -$'fx' f\n",
    "f() { x; }\nb$'\\x61'sh -c f x\n",
    'f() { x; }\n/bin/ba[s]h -c f x\n',
    'f() { x; }\n{ba,}sh -c f x\n',
    'f() { x; }\nexec ${X:-ba}sh -c f x\n',
    'f() { x; }\nset -o all${Y}export\n/proc/self/exe -c f x\n',
    'f() { x; }\n/proc/self/exe -c f x\n',
    'f() { x; }\nX=a\nset -$X\nexport -n Y\n',
    'f() { x; }\nexport -f f\nscript -qc f /dev/null\n',
  ])
    t.deepEqual(scriptShell(`#!/bin/bash\n${text}`, '/ws/h/x', '/ws/h/x', {}), { shell: 'bash', opaque: true }, text);
  t.deepEqual(scriptShell('#!/usr/bin/env -S bash -o allexport\nf() { x; }\n', '/ws/h/x', '/ws/h/x', {}), { shell: 'bash', opaque: true });
  // The test command and a group are no computed program.
  t.is(scriptShell('#!/bin/sh\nf() { x; }\nif [ -f a ]; then { f; }; fi\n[[ -n $X ]] && f\n', '/ws/h/x', '/ws/h/x', {}).opaque, undefined);
});

test("a word run other than as a command's program may share the reading shell: a redirection's file, what cat writes for a shell", (t) => {
  const context = { scriptFile: '/ws/h/pre-commit', scriptDirectory: '/ws/h', workingDirectory: '/ws', environment: {}, shell: 'bash' };
  const runs = (text: string) =>
    scriptWords(text, context)
      .filter((word) => word.kind === 'path' && word.runs === true && word.text.endsWith('.sh'))
      .map((word) => `${word.kind === 'path' ? word.text : ''} ${word.kind === 'path' && word.newProcess === true ? 'new' : 'shared'}`);
  t.deepEqual(runs('./check.sh\n'), ['./check.sh new']);
  t.deepEqual(runs('exec tools/x.sh\n'), ['tools/x.sh new']);
  t.deepEqual(runs('. /dev/stdin < lib.sh\n'), ['lib.sh shared']);
  t.deepEqual(runs('source <(cat lib.sh)\n'), ['lib.sh shared']);
});
