// A program's argument rule describes that program. Unconfined, the rule is all that
// bounds it, so the file that runs must be the program, not something standing in
// for it that chooses what to run (adv27c): a version manager's shim (asdf, rbenv,
// pyenv, nodenv: shell scripts; mise, volta, proto: links to one dispatcher binary;
// corepack's pnpm and yarn) picks the real program from files in the current
// directory (.tool-versions accepts `nodejs path:/any/dir`), which the agent writes.
// Any shell script (a file that is neither a binary nor names another interpreter on
// its #! line: execvp gives such files to /bin/sh) is taken to be such a stand-in: a shell script's behaviour is its
// text, which no argument rule reads. Scripts in the distribution's own directories
// are exempt (which, zcat and gunzip are the programs their rules describe).
import { closeSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import { DISTRIBUTION_DIRECTORIES } from './changeable-program.js';
import { isInsideRoot } from './scopes.js';
import { deny, type Check } from './shell-check.js';

/** Interpreters that make a file a shell script. */
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'ksh93', 'mksh', 'ash', 'yash', 'fish', 'busybox', 'toybox']);

/** Python interpreters by name (python, python3, python3.11, pypy3). */
const PYTHONS = /^(?:python|pypy)[0-9.]*$/u;

/** Dispatchers by the canonical file's name: each runs a program chosen from files in the current directory. */
const DISPATCHERS = new Set(['mise', 'rtx', 'volta-shim', 'proto-shim', 'asdf', 'rbenv', 'pyenv', 'nodenv', 'goenv', 'jenv', 'rustup', 'corepack']);

/** How `file` starts: an ELF binary, a `#!` line (at most 256 bytes read), or anything else. */
function headOf(file: string): { readonly kind: 'elf' } | { readonly kind: 'shebang'; readonly line: string } | { readonly kind: 'other' } {
  const buffer = Buffer.alloc(256);
  const fd = openSync(file, 'r');
  try {
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, length).toString('latin1');
    if (text.startsWith('\x7fELF')) return { kind: 'elf' };
    return text.startsWith('#!') ? { kind: 'shebang', line: text.slice(2).split('\n')[0] as string } : { kind: 'other' };
  } finally {
    closeSync(fd);
  }
}

/** The interpreter's name: `#!/bin/sh -e` is sh; `#!/usr/bin/env -S bash -e` is bash. */
function interpreterName(shebang: string): string | undefined {
  const words = shebang.trim().split(/[ \t]+/);
  const first = words[0] === undefined ? undefined : path.basename(words[0]);
  if (first !== 'env') return first;
  for (const word of words.slice(1)) {
    if (ENV_FLAGS.has(word) || (!word.startsWith('-') && word.includes('='))) continue;
    // An option env takes with a value (-u NAME, -C DIR) or does not list here is not understood: undefined, a stand-in.
    return word.startsWith('-') ? undefined : path.basename(word);
  }
  return undefined;
}

/** env's options that take no value, the only ones read before the interpreter's name. */
const ENV_FLAGS = new Set(['-', '-i', '--ignore-environment', '-S', '--split-string', '-0', '--null', '-v', '--debug']);

/** Why `program` (canonical) stands in for another program, or undefined. What cannot be read is a stand-in. */
export function standInReason(program: string): string | undefined {
  const name = path.basename(program);
  if (DISPATCHERS.has(name)) return `its file ${program} is ${name}, a version manager that runs a program chosen from files in the current directory`;
  if (program.includes('/node_modules/corepack/')) return `its file ${program} is corepack's, which runs the package manager a project's package.json names`;
  let head: ReturnType<typeof headOf>;
  try {
    head = headOf(program);
  } catch (cause) {
    return `its file ${program} cannot be read (${(cause as NodeJS.ErrnoException).code ?? String(cause)})`;
  }
  if (head.kind === 'elf') return undefined;
  // Neither a binary nor a #! line: execvp runs such a file with /bin/sh.
  const interpreter = head.kind === 'shebang' ? interpreterName(head.line) : 'sh';
  if (interpreter !== undefined && PYTHONS.test(interpreter)) {
    return `its file ${program} is a Python script: Python imports, at every start, modules from the directories its site-packages' .pth files name (an editable install of a project names the workspace)`;
  }
  if (DISTRIBUTION_DIRECTORIES.some((directory) => isInsideRoot(program, directory))) return undefined;
  if (interpreter === undefined || SHELLS.has(interpreter))
    return `its file ${program} is a ${interpreter ?? 'script with no interpreter named'} script (a version manager's shim is one), not the program its rule describes`;
  return undefined;
}

/** With confinement off: a program whose file stands in for another is denied as a program without a rule is. */
export function checkStandInUnconfined(name: string, program: string): Check<null> {
  const why = standInReason(program);
  if (why === undefined) return { ok: true, value: null };
  return deny(
    'ZB_POLICY_SHELL_NO_RULE',
    `${JSON.stringify(name)} is denied unconfined: ${why}. Its argument rule cannot bound what such a file runs, and confinement is off for this run. Fix: run with confinement (drop --confine off), or name the directory of the real programs with --program-path (for a version manager, the installed version's bin directory, such as ~/.asdf/installs/nodejs/20.11.0/bin).`,
  );
}
