// What a sourced file defines is read, not guessed: husky 9's runner (.husky/_/h) sources the user's
// ~/.config/husky/init.sh, then runs `sh -e .husky/NAME`. A command may be a function only where a file it sources
// defines one (or where that file cannot be read): an init.sh that defines none leaves `sh` the shell, so the hook is
// a new shell of its own and its arithmetic on its own counts is no shared-shell place. Expected outcomes by hand.
import test from 'ava';
import { mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { toolFileReferences } from '../../../../src/host/executors/confine/tool-file-references.js';
import { tempDir } from '../../../fixtures/temp.js';

const HUSKY_H = readFileSync(path.join(import.meta.dirname, '../../../../../test/adversarial-s33e/fixtures/husky9-h.sh'), 'utf8');
/** The user's own hook: counts the staged files and acts on the count (bash's arithmetic, as husky users write). */
const COUNTING_HOOK = '#!/usr/bin/env sh\nn=$(git diff --cached --name-only | wc -l)\nif [ "$n" -gt 0 ]; then\n  echo "$n staged"\nfi\n';
const BASH_COUNTING_HOOK = '#!/usr/bin/env bash\nn=$(git diff --cached --name-only | wc -l)\nif (( n > 0 )); then\n  echo "$n staged"\nfi\n';

function huskyProject(t: Parameters<typeof tempDir>[0], hook: string, home: Readonly<Record<string, string>>): { ws: string; home: string } {
  const top = realpathSync(tempDir(t, 'zb-husky-fn-'));
  const ws = path.join(top, 'ws');
  const files: Record<string, string> = {
    'ws/.husky/_/h': HUSKY_H,
    'ws/.husky/_/pre-commit': '#!/usr/bin/env sh\n. "$(dirname "$0")/h"\n',
    'ws/.husky/pre-commit': hook,
    'ws/src/a.txt': '1\n',
  };
  for (const [name, content] of Object.entries(home)) files[`home/${name}`] = content;
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(top, name)), { recursive: true });
    writeFileSync(path.join(top, name), content);
  }
  return { ws, home: path.join(top, 'home') };
}

function unresolvedOf(ws: string, home: string): readonly string[] {
  return toolFileReferences([], [ws], { environment: { HOME: home }, hookDirectories: [{ directory: path.join(ws, '.husky/_'), top: ws }] }).unresolved;
}

for (const [title, hook] of [
  ['sh', COUNTING_HOOK],
  ['bash', BASH_COUNTING_HOOK],
] as const) {
  test(`husky 9, no init.sh: the ${title} hook's arithmetic on its own count reads (sh is the shell)`, (t) => {
    const { ws, home } = huskyProject(t, hook, {});
    t.deepEqual(unresolvedOf(ws, home), []);
  });
  test(`husky 9, an init.sh that defines no function: the ${title} hook's arithmetic on its own count reads`, (t) => {
    const { ws, home } = huskyProject(t, hook, { '.config/husky/init.sh': 'export PATH="$HOME/.local/bin:$PATH"\nnvm_dir=$HOME/.nvm\n' });
    t.deepEqual(unresolvedOf(ws, home), []);
  });
}

test('husky 9, an init.sh that defines sh(): the hook shares the shell, and its arithmetic refuses', (t) => {
  const { ws, home } = huskyProject(t, BASH_COUNTING_HOOK, { '.config/husky/init.sh': 'sh() { shift; . "$@"; }\n' });
  const unresolved = unresolvedOf(ws, home);
  t.true(unresolved.length > 0, 'a hook sourced into the runner shell read as a shell of its own');
});

test('husky 9, an init.sh that sources a file defining sh(): a function two sources away counts, the hook refuses', (t) => {
  const { ws, home } = huskyProject(t, BASH_COUNTING_HOOK, { '.config/husky/init.sh': '. "$HOME/.config/husky/more.sh"\n', '.config/husky/more.sh': 'sh() { shift; . "$@"; }\n' });
  t.true(unresolvedOf(ws, home).length > 0, 'a function defined two sources away was not counted');
});

test('husky 9, an init.sh zotbox cannot read (a directory there): it may define any function, the hook refuses', (t) => {
  const { ws, home } = huskyProject(t, BASH_COUNTING_HOOK, {});
  mkdirSync(path.join(home, '.config/husky/init.sh'), { recursive: true });
  t.true(unresolvedOf(ws, home).length > 0, 'a sourced name zotbox cannot read was taken as defining nothing');
});

test('husky 9, init.sh a link that loops: it cannot be read, so it may define any function, the hook refuses', (t) => {
  const { ws, home } = huskyProject(t, BASH_COUNTING_HOOK, {});
  mkdirSync(path.join(home, '.config/husky'), { recursive: true });
  symlinkSync('init.sh', path.join(home, '.config/husky/init.sh'));
  t.true(unresolvedOf(ws, home).length > 0, 'a link zotbox cannot follow was taken as no file');
});

test('husky 9, init.sh a dangling link: sh finds no file there, so it defines nothing and the hook reads', (t) => {
  const { ws, home } = huskyProject(t, BASH_COUNTING_HOOK, {});
  mkdirSync(path.join(home, '.config/husky'), { recursive: true });
  symlinkSync(path.join(home, 'missing.sh'), path.join(home, '.config/husky/init.sh'));
  t.deepEqual(unresolvedOf(ws, home), []);
});

test('husky 9, init.sh a link to a file that defines no function (a dotfiles manager): the hook reads', (t) => {
  const { ws, home } = huskyProject(t, BASH_COUNTING_HOOK, { 'dotfiles/husky-init.sh': 'export PATH="$HOME/bin:$PATH"\n' });
  mkdirSync(path.join(home, '.config/husky'), { recursive: true });
  symlinkSync(path.join(home, 'dotfiles/husky-init.sh'), path.join(home, '.config/husky/init.sh'));
  t.deepEqual(unresolvedOf(ws, home), []);
});

test('husky 9, an init.sh that exports a function or may alias a word: the hook refuses', (t) => {
  for (const init of ['git() { command git "$@"; }\nexport -f git\n', 'set -a\n', 'alias sh=.\n', 'eval "$(direnv hook bash)"\n']) {
    const { ws, home } = huskyProject(t, BASH_COUNTING_HOOK, { '.config/husky/init.sh': init });
    t.true(unresolvedOf(ws, home).length > 0, init);
  }
});

/** The user's hook at .githooks/pre-commit sources scripts/lib.sh, which runs `sh scripts/count.sh` (BASH_COUNTING_HOOK). */
function sourcingHookUnresolved(t: Parameters<typeof tempDir>[0], hook: string, more: Readonly<Record<string, string>> = {}): readonly string[] {
  const top = realpathSync(tempDir(t, 'zb-sourcer-fn-'));
  const files: Record<string, string> = { '.githooks/pre-commit': hook, 'scripts/lib.sh': 'sh scripts/count.sh\n', 'scripts/count.sh': BASH_COUNTING_HOOK, 'scripts/other.sh': 'true\n', ...more };
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(top, name)), { recursive: true });
    writeFileSync(path.join(top, name), content);
  }
  return toolFileReferences([], [top], { environment: { HOME: path.join(top, 'home') }, hookDirectories: [{ directory: path.join(top, '.githooks'), top }] }).unresolved;
}
const countShared = (unresolved: readonly string[]) => unresolved.some((line) => line.includes('count.sh') && line.includes('n > 0'));

test('a hook that sources a file and defines no function: `sh count.sh` in that file is a shell of its own', (t) => {
  t.deepEqual(sourcingHookUnresolved(t, '#!/bin/sh\n. ./scripts/lib.sh\n'), []);
});

test('a file sourced after a write sources in turn a file not there: that one may be there by then, what the hook runs shares', (t) => {
  // init.sh's own `.` of .cache/fns.sh runs after the hook's cp: fns.sh may be there (the template's bash()).
  const hook = '#!/bin/sh\ncp scripts/fns.template .cache/fns.sh\n. ./scripts/init.sh\n. ./scripts/lib.sh\n';
  const unresolved = sourcingHookUnresolved(t, hook, { 'scripts/init.sh': '. ./.cache/fns.sh\n', 'scripts/fns.template': 'sh() { . "$@"; }\n' });
  t.true(countShared(unresolved), `count.sh read as a shell of its own: ${JSON.stringify(unresolved)}`);
  // With no write before, the file not there defines nothing: count.sh is a shell of its own.
  t.deepEqual(sourcingHookUnresolved(t, '#!/bin/sh\n. ./scripts/init.sh\n. ./scripts/lib.sh\n', { 'scripts/init.sh': '. ./.cache/fns.sh\n' }), []);
});

test("a hook's own function named like a shell reaches the file it sources: `sh count.sh` there is read as that function's", (t) => {
  // The function sources a fixed file, so the hook's functions are all known ({sh}); lib.sh's `sh` is that function
  // and its operand is read as sharing the shell, as a command named like the script's own function is.
  const unresolved = sourcingHookUnresolved(t, '#!/bin/sh\nsh() { . ./scripts/other.sh; }\n. ./scripts/lib.sh\n');
  t.true(countShared(unresolved), `count.sh read as a shell of its own: ${JSON.stringify(unresolved)}`);
});

test('a hook that may have any function (it reads trap text, or sources its argument): what it sources may run any, `sh count.sh` there shares', (t) => {
  for (const hook of ["#!/bin/sh\ntrap 'echo done' EXIT\n. ./scripts/lib.sh\n", '#!/bin/sh\nsh() { . "$@"; }\n. ./scripts/lib.sh\n']) {
    const unresolved = sourcingHookUnresolved(t, hook);
    t.true(countShared(unresolved), `${hook}: count.sh read as a shell of its own: ${JSON.stringify(unresolved)}`);
  }
});

test('husky 9, a chain of sourced files longer than zotbox reads: the last may define any function, the hook refuses', (t) => {
  // init.sh sources 1.sh, which sources 2.sh ... 6.sh, which defines sh(): past the depth zotbox reads, unknown.
  const chain: Record<string, string> = { '.config/husky/init.sh': '. "$HOME/.config/husky/1.sh"\n', '.config/husky/6.sh': 'sh() { shift; . "$@"; }\n' };
  for (let n = 1; n < 6; n++) chain[`.config/husky/${n}.sh`] = `. "$HOME/.config/husky/${n + 1}.sh"\n`;
  const { ws, home } = huskyProject(t, BASH_COUNTING_HOOK, chain);
  t.true(unresolvedOf(ws, home).length > 0, 'a chain past the depth read was taken as defining nothing');
});

test('husky 9, a chain of two sourced files that define no function: the hook reads', (t) => {
  const { ws, home } = huskyProject(t, BASH_COUNTING_HOOK, { '.config/husky/init.sh': '. "$HOME/.config/husky/path.sh"\n', '.config/husky/path.sh': 'PATH="$HOME/bin:$PATH"\n' });
  t.deepEqual(unresolvedOf(ws, home), []);
});

test('husky 9, an init.sh larger than zotbox reads: it may define any function, the hook refuses', (t) => {
  // Over 1 MiB of comment, then sh(): zotbox reads no part of it.
  const { ws, home } = huskyProject(t, BASH_COUNTING_HOOK, { '.config/husky/init.sh': `${'# padding\n'.repeat(110_000)}sh() { shift; . "$@"; }\n` });
  t.true(unresolvedOf(ws, home).length > 0, 'an oversized sourced file was taken as defining nothing');
});
