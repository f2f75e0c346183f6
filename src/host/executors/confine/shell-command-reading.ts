// How the shell-text reader (shell-command-words.ts) reads one command: where its program stands behind keywords,
// assignments and wrappers, what an interpreter's grammar says it runs, the shell text its words hold (sh -c, eval,
// trap, env -S, alias, git -c), what a pipeline feeds to a shell or interpreter, and find's starting points. Pure, no I/O.
import path from 'node:path';
import type { ProgramLanguage } from './inline-program-runs.js';
import { type InterpreterName, interpreterReading, programLanguage } from './interpreter-operands.js';
import { CASE_PATTERN, commandSubstitutions, EXPANSION_BASE, type LexNotes, lexShell, unmark } from './shell-lexer.js';
import { execPathNames, guessedTexts, wrapperTexts } from './shell-text-words.js';
import { DATA_VARIABLES, optionVariableNames, SEARCH_VARIABLES } from './variable-kinds.js';
export const DECLARERS = new Set(['export', 'local', 'readonly', 'declare', 'typeset']);
/** Words before a command's program that are not it: keywords, assignments, and wrappers that run the words after them. */
export const BEFORE_PROGRAM = new Set(['if', 'then', 'else', 'elif', 'while', 'until', 'do', 'time', 'exec', 'command', 'builtin', 'nohup', 'env', 'xargs']);
/** An assignment word, `NAME=VALUE` or bash's `NAME+=VALUE` (appended): the shell reads both as the assignment they are. */
export const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)(\+?)=(.*)$/su;
export const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'busybox', 'eval']);
/** A wrapper's options that take the next word as their value (`env -C DIR`, `xargs -I {}`, `exec -a NAME`). */
export const VALUED_OPTIONS: Readonly<Record<string, ReadonlySet<string>>> = {
  env: new Set(['-C', '--chdir', '-u', '--unset', '-S', '--split-string']),
  xargs: new Set(['-I', '-i', '-n', '-P', '-d', '-E', '-e', '-L', '-l', '-s', '-a', '--arg-file', '--delimiter', '--max-args', '--max-procs']),
  exec: new Set(['-a']),
};

/**
 * The index of a command's program, past keywords, assignments and wrappers (`env -i X=1 prog`, `exec prog`), and the
 * directory a wrapper moves it to (`env -C DIR prog`, `--chdir=DIR`).
 */
export function programOf(command: readonly string[]): { readonly at: number; readonly chdir: string | undefined } {
  let at = 0;
  let chdir: string | undefined;
  let wrapper = '';
  while (at < command.length) {
    const word = unmark(command[at]!);
    if (BEFORE_PROGRAM.has(word)) {
      wrapper = word;
      at++;
    } else if (ASSIGNMENT.test(word)) at++;
    else if (word.startsWith('-') && wrapper !== '' && wrapper !== 'if' && wrapper !== 'then') {
      if (wrapper === 'env' && word.startsWith('--chdir=')) chdir = command[at]!.slice('--chdir='.length);
      if (VALUED_OPTIONS[wrapper]?.has(word) === true) {
        if (wrapper === 'env' && (word === '-C' || word === '--chdir')) chdir = command[at + 1];
        at++;
      }
      at++;
    } else break;
  }
  return { at, chdir };
}

/**
 * The shell text a command's words hold, by index; `guessed`: the words read only because they look like shell text
 * (a program zotbox does not know may run them): one of them is never run as a whole word, and text sh cannot parse
 * was never taken (shell-text-words.ts).
 */
export type CommandScripts = Map<number, string> & { readonly guessed: ReadonlySet<number> };

/** How one command is read: its program, what it runs (by index), the shell text its words hold, find's starting points. */
export interface CommandReading {
  readonly at: number;
  readonly chdir: string | undefined;
  readonly names: InterpreterName[];
  /** An inline program's calls that run what it only computes (`perl -e 'do $f'`). */
  readonly computed: string[];
  readonly runsAt: Set<number>;
  /** For a word an interpreter runs or a shell sources (in runsAt), that program's name: `.`, `source`, `bash`, `sh`... */
  readonly runners: Map<number, string>;
  readonly scripts: CommandScripts;
  readonly starts: string[];
}

/** `interpreterWord`: the word a command's word at an index runs as, where the script's PATH decides it (python-script-path.ts). */
export function commandReading(command: readonly string[], scriptMode: boolean, interpreterWord?: (index: number, written: string) => string): CommandReading {
  const { at, chdir } = programOf(command);
  const program = path.basename(unmark(command[at] ?? ''));
  // Every word that names an interpreter starts its grammar: the program, and one behind a wrapper zotbox does not
  // know (`nice python3 -m x`, `timeout 60 node tools`).
  const names: InterpreterName[] = [];
  const computed: string[] = [];
  const runsAt = new Set<number>(scriptMode ? [at] : []);
  const runners = new Map<number, string>();
  for (let index = at; index < command.length; index++) {
    const written = unmark(command[index]!);
    const grammar = interpreterReading(path.basename(written), command.slice(index + 1).map(unmark), interpreterWord?.(index, written) ?? written);
    names.push(...grammar.names);
    computed.push(...(grammar.computed ?? []));
    if (grammar.operand !== undefined && scriptMode) {
      runsAt.add(index + 1 + grammar.operand);
      runners.set(index + 1 + grammar.operand, path.basename(written));
    }
  }
  // A search path a script sets for what it runs (`PATH="$PWD/bin:$PATH"`, `PYTHONPATH=tools python3 -m lint`).
  // An interpreter's option variable set for it (`NODE_OPTIONS="--require ./x.js" node ...`): read by its grammar.
  if (scriptMode)
    for (const word of command) {
      const options = optionVariableNames(unmark(word));
      names.push(...searchPathNames(unmark(word)), ...options.names);
      computed.push(...options.computed);
    }
  // What find hands to the program it runs is every file below its starting points; the program runs too.
  const starts = program === 'find' ? findStarts(command, at) : [];
  command.forEach((_, index) => {
    if (starts.length > 0 && /^-(exec|execdir|ok|okdir)$/u.test(unmark(command[index - 1] ?? ''))) runsAt.add(index);
  });
  // git's programs come from --exec-path's directory (`git --exec-path=tools lint` runs tools/git-lint): whole.
  names.push(...execPathNames(command.map(unmark)).map((text) => ({ text, tree: true })));
  // Shell text a word holds, at any word of the command: "sh -c SCRIPT" (behind any wrapper), "eval SCRIPT",
  // "trap SCRIPT EXIT", "flock -c SCRIPT", "su -c SCRIPT", "env -S LINE", an alias's body, a git -c value, a wrapper's
  // or a variable's text (shell-text-words.ts); and, guessed, any other word that parses as shell text.
  const known = commandStrings(command.map(unmark));
  const guessed = guessedTexts(command.map(unmark), at, new Set(known.keys()));
  const scripts = Object.assign(new Map([...known, ...guessed]), { guessed: new Set(guessed.keys()) });
  return { at, chdir, names, computed, runsAt, runners, scripts, starts };
}

/** The positional parameters, as a variable name: `$1`, `$@`, `"$*"`, a `for f do` loop. */
export const POSITIONAL_NAME = '@';

/**
 * The indexes of a command's words that are a list the script loops over: `for V in WORDS` (and select) when V is
 * run; `set [options] [--] WORDS` (the positional parameters) when they are run.
 */
export function listWords(command: readonly string[], at: number, runVariables: ReadonlySet<string>): number[] {
  const words = command.map(unmark);
  const indexes = (from: number) => Array.from({ length: Math.max(0, command.length - from) }, (_, i) => from + i);
  if ((words[0] === 'for' || words[0] === 'select') && words[2] === 'in') return runVariables.has(words[1]!) ? indexes(3) : [];
  if (words[at] !== 'set' || !runVariables.has(POSITIONAL_NAME)) return [];
  let index = at + 1;
  while (index < words.length && /^[-+]/u.test(words[index]!) && words[index] !== '--' && words[index] !== '-') index += /^[-+]o$/u.test(words[index]!) ? 2 : 1;
  if (words[index] === '--' || words[index] === '-') index++;
  return indexes(index);
}

/** Whether a command reads its standard input as a program: a shell's script (`sh`, `timeout 60 bash`), an interpreter's. */
export function stdinReader(command: readonly string[]): 'shell' | 'code' | undefined {
  for (let index = programOf(command).at; index < command.length; index++) {
    const program = path.basename(unmark(command[index]!));
    if ((SHELLS.has(program) && program !== 'eval') || program === '.' || program === 'source') return 'shell';
    if (INTERPRETERS.test(program)) return 'code';
  }
  return undefined;
}
export const INTERPRETERS = /^(python|pypy|node|nodejs|bun|deno|tsx|ts-node|perl|ruby)[0-9.]*$/u;

/** The language of the interpreter a command's standard input goes to, if one does. */
export function stdinLanguage(command: readonly string[]): ProgramLanguage | undefined {
  for (let index = programOf(command).at; index < command.length; index++) {
    const program = path.basename(unmark(command[index]!));
    if (INTERPRETERS.test(program)) return programLanguage(program);
  }
  return undefined;
}

/** A command and every command after it in its pipeline (what it writes flows to each). */
export function pipelineFrom(command: string[], notes: LexNotes): string[][] {
  const chain = [command];
  for (let guard = 0; guard < 64; guard++) {
    const next = [...notes.pipes].find(([, producer]) => producer === chain.at(-1))?.[0];
    if (next === undefined || chain.includes(next)) break;
    chain.push(next);
  }
  return chain;
}

/**
 * The variables whose value a script runs: named in a word that is run or sourced (or an interpreter's script), in
 * shell text a word holds, in an argument of one of the script's own functions or of a shell's -c script, in what is
 * piped into a shell; and through assignments (`x=$f; sh "$x"` runs f). `for f do` loops over the positional
 * parameters ("@"). Read over the script, its command substitutions and the here-documents a shell reads.
 */
export function variablesRun(text: string): Set<string> {
  const run = new Set<string>();
  const flows = new Map<string, Set<string>>();
  const functions = new Set([...text.matchAll(/(?:^|[\s;&|(])(?:function\s+([A-Za-z_][\w.-]*)|([A-Za-z_][\w.-]*)\s*\(\s*\))/gu)].map((m) => m[1] ?? m[2]!));
  const visit = (body: string, depth: number) => {
    const expansions: string[] = [];
    const notes: LexNotes = { hereDocuments: [], pipes: new Map(), unclosed: false };
    const named = (word: string) =>
      Array.from(word.matchAll(/[\uE000-\uEFFF]/gu), (m) => m[0]).flatMap((ch) => {
        const expansion = expansions[ch.charCodeAt(0) - EXPANSION_BASE];
        if (expansion === undefined) return [];
        return [...expansion.matchAll(/\$\{?#?([A-Za-z_][A-Za-z0-9_]*|[0-9@*])/gu)].map((m) => (/^[0-9@*]$/u.test(m[1]!) ? POSITIONAL_NAME : m[1]!));
      });
    const commands = lexShell(body, expansions, undefined, notes);
    for (const command of commands) {
      if (command[0] === CASE_PATTERN) continue;
      const { at, runsAt, scripts } = commandReading(command, true);
      const words = command.map(unmark);
      // A guessed word is only read as the script it may be: its variables are run where that script runs them.
      const known = [...scripts.keys()].filter((index) => !scripts.guessed.has(index));
      const runs = new Set([...runsAt, ...known]);
      // The arguments of a function of the script's, of a shell's -c script ($1...), of what is piped into a shell.
      const after = (from: number) => command.forEach((_, index) => index > from && runs.add(index));
      if (functions.has(words[at] ?? '')) after(at);
      for (const index of known) if (SHELLS.has(path.basename(words[at] ?? ''))) after(index);
      for (const [consumer, producer] of notes.pipes) if (producer === command && stdinReader(consumer) === 'shell') after(-1);
      for (const index of runs) for (const name of named(command[index] ?? '')) run.add(name);
      for (const [index, word] of command.entries()) {
        const assignment = ASSIGNMENT.exec(word);
        if (assignment !== null && (index < at || DECLARERS.has(words[at] ?? ''))) flows.set(assignment[1]!, new Set([...(flows.get(assignment[1]!) ?? []), ...named(assignment[3]!)]));
      }
      if ((words[0] === 'for' || words[0] === 'select') && words[1] !== undefined && words[2] !== 'in') flows.set(words[1], new Set([...(flows.get(words[1]) ?? []), POSITIONAL_NAME]));
      if (depth < 4) for (const script of scripts.values()) visit(script, depth + 1);
    }
    for (const document of notes.hereDocuments) {
      if (depth >= 4) continue;
      if (pipelineFrom(document.command, notes).some((command) => stdinReader(command) === 'shell')) visit(document.body, depth + 1);
      if (document.expanded) for (const inner of commandSubstitutions(document.body)) visit(inner, depth + 1);
    }
    if (depth < 4) for (const expansion of expansions) if (/^(\$\(|`)/u.test(expansion)) visit(expansion.replace(/^\$\(|^`|\)$|`$/gu, ''), depth + 1);
  };
  visit(text, 0);
  // A variable set from another that is run runs the other's value too.
  for (let changed = true; changed; ) {
    changed = false;
    for (const [name, sources] of flows)
      for (const source of sources)
        if (run.has(name) && !run.has(source)) {
          run.add(source);
          changed = true;
        }
  }
  return run;
}

/**
 * find's starting points when it runs what it finds (`-exec {} ;`, `-exec sh {} ;`, `-execdir python3 {} +`): every
 * file below them may be run. A program given the files as data (`-exec black {} +`) runs none of them.
 */
export function findStarts(command: readonly string[], at: number): string[] {
  const words = command.slice(at + 1).map(unmark);
  const runsFound = words.some((word, index) => {
    if (!/^-(exec|execdir|ok|okdir)$/u.test(word)) return false;
    const end = words.findIndex((w, i) => i > index && (w === ';' || w === '+'));
    const executed = words.slice(index + 1, end === -1 ? undefined : end);
    if (executed[0] === '{}') return true;
    const operand = interpreterReading(path.basename(executed[0] ?? ''), executed.slice(1)).operand;
    return operand !== undefined && executed[1 + operand] === '{}';
  });
  if (!runsFound) return [];
  const end = words.findIndex((word) => word.startsWith('-') || word === '(' || word === '!');
  return command.slice(at + 1, at + 1 + (end === -1 ? words.length : end));
}

/**
 * The directories an assignment in a script puts on a search path (every entry of a search-path variable but the
 * variable's own earlier value), whole; the project's dependencies (`node_modules/.bin`) are theirs, as by hand.
 */
export function searchPathNames(word: string): InterpreterName[] {
  const assignment = ASSIGNMENT.exec(word);
  if (assignment === null || !SEARCH_VARIABLES.test(assignment[1]!) || DATA_VARIABLES.test(assignment[1]!)) return [];
  return assignment[3]!
    .split(':')
    .filter((entry) => entry !== '' && !/[\uE000-\uEFFF]/u.test(entry) && !entry.split('/').includes('node_modules'))
    .map((entry) => ({ text: entry, tree: true }));
}

/**
 * The words of a command that hold shell text of their own, by index, with that text: the script of a shell's -c at
 * any word (`timeout 5 bash -c -- SCRIPT`), eval's words, trap's action, flock's and su's -c, env's -S line, an alias
 * definition's body, a git -c value (an alias or a command git runs), and the wrappers' and variables' texts
 * shell-text-words.ts knows. A quote never closed in one of these is unresolved where it is read.
 */
export function commandStrings(words: readonly string[]): Map<number, string> {
  const found = new Map<number, string>();
  // From the first word: a wrapper before the program holds one too (env -S "sh x").
  for (let index = 0; index < words.length; index++) {
    const program = path.basename(words[index]!);
    const after = (test: (word: string) => boolean) => {
      const option = words.findIndex((word, i) => i > index && test(word));
      if (option === -1) return;
      const script = words[option + 1] === '--' ? option + 2 : option + 1;
      if (script < words.length) found.set(script, words[script]!);
    };
    if (SHELLS.has(program) && program !== 'eval') after((word) => /^-[a-z]*c[a-z]*$/u.test(word));
    else if (program === 'eval') for (let i = index + 1; i < words.length; i++) found.set(i, words[i]!);
    else if (program === 'trap' && index + 1 < words.length) found.set(index + 1, words[index + 1]!);
    else if (['flock', 'su', 'runuser'].includes(program)) after((word) => word === '-c' || word === '--command');
    else if (program === 'env') after((word) => word === '-S' || word === '--split-string');
    else if (program === 'alias')
      for (let i = index + 1; i < words.length; i++) {
        const body = /^[^=]+=(.*)$/su.exec(words[i]!)?.[1];
        if (body !== undefined) found.set(i, body);
      }
    else if (program === 'git')
      for (let i = index + 1; i < words.length - 1; i++) {
        const value = words[i] === '-c' ? /^[^=]+=(.*)$/su.exec(words[i + 1]!)?.[1] : undefined;
        if (value !== undefined) found.set(i + 1, value.replace(/^\s*!/u, ''));
      }
  }
  // The wrappers and variables that hand text to a shell (script -c, nix-shell --run, GIT_EXTERNAL_DIFF=…).
  for (const [index, text] of wrapperTexts(words)) if (!found.has(index)) found.set(index, text);
  return found;
}
