// Which words of one command hold shell text beyond sh -c, eval and the other spellings shell-command-reading.ts
// reads: the options of wrappers that hand text to a shell (script -c, nix-shell --run, git rebase -x...), the values
// of variables a tool runs as a command (GIT_EXTERNAL_DIFF, GIT_EDITOR, PAGER...), and, for every other program, any
// word that looks like shell text (guessed: a program zotbox does not know may run it). Pure, no I/O.
import path from 'node:path';
import { type LexNotes, lexShell } from './shell-lexer.js';

/**
 * Wrappers whose options take shell text, by program: short option letters (also inside a cluster, `script -qec
 * TEXT`, or joined, `-cTEXT`) and long names (`--run TEXT`, `--run=TEXT`).
 */
const TEXT_OPTIONS: Readonly<Record<string, { readonly short: string; readonly long: readonly string[] }>> = {
  // util-linux script runs `$SHELL -c TEXT`; nix-shell runs --run/--command in bash; sg and su in /bin/sh.
  script: { short: 'c', long: ['--command'] },
  'nix-shell': { short: '', long: ['--run', '--command'] },
  sg: { short: 'c', long: [] },
  su: { short: 'c', long: ['--command', '--session-command'] },
  runuser: { short: 'c', long: ['--command', '--session-command'] },
  flock: { short: 'c', long: ['--command'] },
};

/** git subcommands whose options take shell text (a command git runs through the shell), and those whose operands are. */
const GIT_TEXT_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  rebase: ['-x', '--exec'],
  difftool: ['-x', '--extcmd'],
  'filter-branch': ['--env-filter', '--tree-filter', '--index-filter', '--parent-filter', '--msg-filter', '--commit-filter', '--tag-name-filter'],
  clone: ['-u', '--upload-pack'],
  fetch: ['--upload-pack'],
  pull: ['--upload-pack'],
  push: ['--receive-pack', '--exec'],
  'ls-remote': ['--upload-pack'],
  archive: ['--exec'],
};
/** `git submodule foreach TEXT…`, `git bisect run CMD…`: every word after these is run. */
const GIT_TEXT_OPERANDS: Readonly<Record<string, string>> = { submodule: 'foreach', bisect: 'run' };
/** git's options before its subcommand that take the next word as their value. */
const GIT_VALUED = new Set(['-c', '-C', '--git-dir', '--work-tree', '--namespace', '--super-prefix', '--config-env', '--list-cmds']);

/** tmux commands that take a shell command (every operand is read: an option's value over-read, never under-read). */
const TMUX_TEXT = new Set([
  ...['new-session', 'new', 'new-window', 'neww', 'split-window', 'splitw', 'respawn-pane', 'respawnp', 'respawn-window', 'respawnw'],
  ...['run-shell', 'run', 'pipe-pane', 'pipep', 'if-shell', 'if', 'display-popup', 'popup'],
]);

/**
 * Variables whose value a tool runs as a command (through a shell): git's (`GIT_EXTERNAL_DIFF` as `diff.external`),
 * ssh's, the editors and pagers every tool starts, `SHELL` (what `script`, `watch` and others run their text with).
 */
const COMMAND_VARIABLES = new Set([
  ...['GIT_EXTERNAL_DIFF', 'GIT_SSH_COMMAND', 'GIT_SSH', 'GIT_EDITOR', 'GIT_SEQUENCE_EDITOR', 'GIT_PAGER', 'GIT_ASKPASS', 'GIT_PROXY_COMMAND'],
  ...['SSH_ASKPASS', 'PAGER', 'MANPAGER', 'EDITOR', 'VISUAL', 'SHELL', 'LESSOPEN', 'LESSCLOSE'],
]);

/** Builtins that never run their words (`echo "$(date): done"` prints): the only programs whose words are not guessed. */
const DATA_BUILTINS = new Set(['echo', 'printf', 'test', '[', '[[', ':', 'true', 'false', 'exit', 'return', 'read', 'shift', 'unset', 'cd', 'pushd']);

/** Interpreters and their options that take a program inline (`perl -e CODE`, `python3 -c CODE`): read by its grammar. */
const INLINE_INTERPRETERS = /^(python|pypy|node|nodejs|bun|deno|perl|ruby)[0-9.]*$/u;
const INLINE_OPTION = /^(-[a-zA-Z]*[ceEp]|--eval|--print)$/u;

/** What marks a word as possibly shell text: a blank, an operator, a quote, an expansion or a pattern the shell reads. */
const SHELL_SYNTAX = /[\s;&|<>()`$'"\\]/u;

/** A command's words that are shell text a wrapper or a variable hands to a shell, by index, with that text. */
export function wrapperTexts(words: readonly string[]): Map<number, string> {
  const found = new Map<number, string>();
  for (let index = 0; index < words.length; index++) {
    const program = path.basename(words[index]!);
    const options = TEXT_OPTIONS[program];
    if (options !== undefined) optionTexts(words, index, options, found);
    // entr -s: its first operand is run by $SHELL -c (every operand is read: over-read, never under-read).
    if (program === 'entr' && words.slice(index + 1).some((word) => /^-[a-z]*s/u.test(word))) operandsFrom(words, index + 1, found);
    if (program === 'sg') sgOperand(words, index, found);
    if (program === 'watch') watchText(words, index, found);
    if (program === 'tmux') for (let i = index + 1; i < words.length; i++) if (TMUX_TEXT.has(words[i]!)) operandsFrom(words, i + 1, found);
    if (program === 'parallel') parallelTexts(words, index, found);
    if (program === 'git') gitTexts(words, index, found);
    variableText(words[index]!, index, found);
  }
  return found;
}

/** An option's shell text: `-c TEXT`, `-qec TEXT` (the letter last in a cluster), `-cTEXT`, `--run TEXT`, `--run=TEXT`. */
function optionTexts(words: readonly string[], index: number, options: (typeof TEXT_OPTIONS)[string], found: Map<number, string>): void {
  for (let i = index + 1; i < words.length; i++) {
    const word = words[i]!;
    if (word === '--') return;
    const long = options.long.find((name) => word === name || word.startsWith(`${name}=`));
    if (long !== undefined) {
      if (word === long) take(words, i + 1, found);
      else found.set(i, word.slice(long.length + 1));
      continue;
    }
    if (options.short === '' || !/^-[^-]/u.test(word)) continue;
    const at = word.indexOf(options.short, 1);
    if (at === -1) continue;
    if (at === word.length - 1) take(words, i + 1, found);
    else found.set(i, word.slice(at + 1));
  }
}

const take = (words: readonly string[], index: number, found: Map<number, string>) => {
  if (index < words.length) found.set(index, words[index]!);
};

/** Every word from `from` that is not an option: shell text (over-read: an option's value is read too). */
function operandsFrom(words: readonly string[], from: number, found: Map<number, string>): void {
  for (let i = from; i < words.length; i++) if (!words[i]!.startsWith('-')) found.set(i, words[i]!);
}

/** `sg GROUP TEXT` (without -c): the word after the group is run by /bin/sh too. */
function sgOperand(words: readonly string[], index: number, found: Map<number, string>): void {
  const operands = words.map((word, i) => ({ word, i })).filter(({ word, i }) => i > index && !word.startsWith('-'));
  if (operands.length >= 2 && !words.slice(index + 1).includes('-c')) found.set(operands[1]!.i, operands[1]!.word);
}

/** watch joins its operands with blanks and hands them to `sh -c` (its options: -n SECONDS takes a value). */
function watchText(words: readonly string[], index: number, found: Map<number, string>): void {
  let i = index + 1;
  while (i < words.length && words[i]!.startsWith('-')) i += /^(-n|--interval|-q|--equexit)$/u.test(words[i]!) ? 2 : 1;
  if (i < words.length) found.set(i, words.slice(i).join(' '));
}

/**
 * GNU parallel runs its command (the words before `:::`) through a shell; with no command, each argument after
 * `:::` is a command of its own.
 */
function parallelTexts(words: readonly string[], index: number, found: Map<number, string>): void {
  const separator = words.findIndex((word, i) => i > index && /^:::[:+]*$/u.test(word));
  const end = separator === -1 ? words.length : separator;
  const command = words.map((word, i) => ({ word, i })).filter(({ word, i }) => i > index && i < end && !word.startsWith('-'));
  if (command.length > 0) for (const { word, i } of command) found.set(i, word);
  else if (separator !== -1) for (let i = separator + 1; i < words.length; i++) if (!/^:::[:+]*$/u.test(words[i]!)) found.set(i, words[i]!);
}

/** git's subcommand options and operands that are commands it runs through the shell. */
function gitTexts(words: readonly string[], index: number, found: Map<number, string>): void {
  let at = index + 1;
  while (at < words.length && words[at]!.startsWith('-')) at += GIT_VALUED.has(words[at]!) ? 2 : 1;
  const subcommand = words[at];
  if (subcommand === undefined) return;
  const operand = GIT_TEXT_OPERANDS[subcommand];
  const start = operand === undefined ? -1 : words.indexOf(operand, at + 1);
  if (start !== -1) for (let i = start + 1; i < words.length; i++) found.set(i, words[i]!);
  const options = GIT_TEXT_OPTIONS[subcommand];
  for (let i = at + 1; options !== undefined && i < words.length; i++) {
    const word = words[i]!;
    const name = options.find((option) => word === option || (option.startsWith('--') && word.startsWith(`${option}=`)));
    if (name === word) take(words, i + 1, found);
    else if (name !== undefined) found.set(i, word.slice(name.length + 1));
    // A short option joined to its value (`-x"make test"`, `-utools/up.sh`).
    else if (options.some((option) => /^-[a-z]$/u.test(option) && word.startsWith(option) && word.length > 2)) found.set(i, word.slice(2));
  }
}

/**
 * An assignment to a variable a tool runs as a command (`GIT_EXTERNAL_DIFF="sh x" git diff`, `export GIT_EDITOR=…`,
 * `env PAGER=… git log`), or one of git's configuration variables (`GIT_CONFIG_VALUE_0`, `GIT_CONFIG_PARAMETERS`),
 * whose values are read as `git -c` values are: a command, "!" for a shell alias.
 */
function variableText(word: string, index: number, found: Map<number, string>): void {
  const assignment = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/su.exec(word);
  if (assignment === null) return;
  const [, name, value] = assignment;
  if (COMMAND_VARIABLES.has(name!)) found.set(index, value!.replace(/^\|+/u, ''));
  else if (/^GIT_CONFIG_VALUE_[0-9]+$/u.test(name!)) found.set(index, value!.replace(/^\s*!/u, ''));
  else if (name === 'GIT_CONFIG_PARAMETERS') {
    // 'key'='value' pairs, quoted as the shell quotes: each value is a command of its own (one line each).
    const values = lexShell(value!, []).flatMap((command) => command.map((pair) => /^[^=]*=(.*)$/su.exec(pair)?.[1]?.replace(/^\s*!/u, '') ?? ''));
    found.set(index, values.filter((each) => each !== '').join('\n'));
  }
}

/**
 * The words of a command any program zotbox does not know may run as shell text (guessed): each argument and each
 * value of an assignment for the command that holds shell syntax and parses as shell text. A word sh cannot parse
 * (`git commit -m "don't break"`, an apostrophe) names nothing: were it run, sh would refuse it and run nothing. The
 * words a builtin only prints or compares, the program word itself (a file name) and words already known are not guessed.
 */
export function guessedTexts(words: readonly string[], at: number, known: ReadonlySet<number>): Map<number, string> {
  const found = new Map<number, string>();
  if (DATA_BUILTINS.has(words[at] ?? '')) return found;
  const declares = ['export', 'declare', 'typeset', 'local', 'readonly'].includes(words[at] ?? '');
  for (let index = 0; index < words.length; index++) {
    if (index === at || known.has(index) || inlineCode(words, index)) continue;
    const assignment = /^[A-Za-z_][A-Za-z0-9_]*\+?=(.*)$/su.exec(words[index]!);
    // An assignment is for a command's environment when it is before the program (`X="…" prog`, `env X="…" prog`) or
    // exported; a plain one (`X="a b"`, no command) sets the shell's own variable, read where it is expanded. Words
    // before the program that are no assignment are keywords and a wrapper's options.
    if (assignment !== null ? !((index < at && at < words.length) || declares) : index < at) continue;
    // An option's value joined to it (`--cmd="sh x"`) is the text the program may run.
    const text = assignment?.[1] ?? /^--?[A-Za-z][\w-]*=(.*)$/su.exec(words[index]!)?.[1] ?? words[index]!;
    if (!SHELL_SYNTAX.test(text) || !parses(text)) continue;
    found.set(index, text);
  }
  return found;
}

/** Whether a word is an interpreter's inline program (`perl -e CODE`, `-eCODE`): code of that language, no shell text. */
function inlineCode(words: readonly string[], index: number): boolean {
  if (!words.slice(0, index).some((word) => INLINE_INTERPRETERS.test(path.basename(word)))) return false;
  return INLINE_OPTION.test(words[index - 1] ?? '') || /^-[a-zA-Z]*[ceE]./u.test(words[index]!);
}

/** Whether sh could parse the text: every quote closed (what the reader cannot split, sh cannot run). */
function parses(text: string): boolean {
  const notes: LexNotes = { hereDocuments: [], pipes: new Map(), unclosed: false };
  lexShell(text, [], undefined, notes);
  return !notes.unclosed;
}

/** `git --exec-path=DIR`: where git finds the programs of its subcommands (`git lint` runs DIR/git-lint): whole. */
export function execPathNames(words: readonly string[]): string[] {
  const names: string[] = [];
  for (let index = 0; index < words.length; index++) {
    if (path.basename(words[index]!) !== 'git') continue;
    for (let i = index + 1; i < words.length && words[i]!.startsWith('-'); i += GIT_VALUED.has(words[i]!) ? 2 : 1)
      if (words[i]!.startsWith('--exec-path=')) names.push(words[i]!.slice('--exec-path='.length));
  }
  return names;
}
