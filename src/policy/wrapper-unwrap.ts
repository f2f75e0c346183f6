// Reads a wrapper's arguments as its own getopt does (GNU getopt_long with "+":
// options end at the first operand), by the row in wrapper-rules.ts, and returns
// the command it would run with what it changes on the way. Pure: strings only,
// no filesystem and no allowlist; shell-decision.ts checks everything returned as
// if it stood alone. Whatever this cannot read exactly as the program does is denied.
import { deny, type Check } from './shell-check.js';
import { parseShellCommand, type Assignment } from './shell-parse.js';
import { MAX_WRAPPER_DEPTH, type DeniedWrapperOption, type WrapperOption, type WrapperRule, type WrapperValue } from './wrapper-rules.js';

/** An option that has a long spelling: only those can match "--name". */
type LongSpelled<T> = T & { readonly long: string };

export interface UnwrappedCommand {
  /** The wrapped command's argv, exactly as the wrapper will exec it. Empty only for a wrapper with a standalone use (env printing the environment). */
  readonly inner: readonly string[];
  /** env's NAME=value words, to be checked as leading assignments. */
  readonly assignments: readonly Assignment[];
  /** env -u names, to be checked like assignment names. */
  readonly unset: readonly string[];
  /** env -C: the directory the command starts in, to be checked as a cd. */
  readonly directory: string | undefined;
}

/** Values whose kind is a plain word; the others are checked by meaning (below and in shell-decision.ts). */
const VALUE_PATTERNS: Readonly<Partial<Record<WrapperValue, { readonly pattern: RegExp; readonly example: string }>>> = {
  duration: { pattern: /^(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)[smhd]?$/, example: '5, 1.5, 10s, 2m' },
  signal: { pattern: /^(?:[0-9]{1,2}|(?:SIG)?[A-Z][A-Z0-9]*(?:[+-][0-9]+)?)$/i, example: 'TERM, KILL, 9' },
  niceness: { pattern: /^[+-]?[0-9]{1,3}$/, example: '10, -5' },
  'buffer-size': { pattern: /^(?:L|[0-9]{1,12}(?:[KMGTPEZY](?:iB|B)?|kB)?)$/, example: 'L, 0, 64K' },
  'io-class': { pattern: /^(?:[0-3]|none|realtime|best-effort|idle)$/i, example: '3, idle, best-effort' },
  'io-level': { pattern: /^[0-7]$/, example: '0 to 7' },
};

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const ENV_ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s;

interface Reading {
  words: string[];
  index: number;
  splits: number;
  readonly unset: string[];
  directory: string | undefined;
}

function optionLabel(option: { readonly short?: string; readonly long?: string }): string {
  return [option.short === undefined ? '' : `-${option.short}`, option.long === undefined ? '' : `--${option.long}`].filter((s) => s !== '').join('/');
}

function allowedSpellings(rule: WrapperRule): string {
  const listed = rule.options.map(optionLabel).join(' ');
  return listed === '' ? 'no options' : `only ${listed}`;
}

/** env -S: split by zotbox's own fail-closed lexer, refusing every character env would read differently from it. */
export function splitEnvString(text: string): Check<string[]> {
  const special = /[\\$#]/.exec(text);
  if (special !== null)
    return deny(
      'ZB_POLICY_SHELL_ARGUMENT',
      `env -S: the string may not contain ${JSON.stringify(special[0])}, which env reads in its own way (escapes, \${VAR}, comments); write the command without env -S.`,
    );
  const parsed = parseShellCommand(text);
  if (!parsed.ok) return deny('ZB_POLICY_SHELL_ARGUMENT', `env -S: ${parsed.reason}.`);
  const only = parsed.ast.items.length === 1 && parsed.ast.items[0]!.pipeline.commands.length === 1 ? parsed.ast.items[0]!.pipeline.commands[0]! : undefined;
  if (only === undefined) return deny('ZB_POLICY_SHELL_ARGUMENT', 'env -S: the string holds ; && || or |, which env passes on as plain words; write one command.');
  return { ok: true, value: [...only.assignments.map((a) => `${a.name}=${a.value}`), ...only.argv] };
}

/** Applies one option value; a split string replaces the words still to read, as GNU env does. */
function takeValue(base: string, option: WrapperOption, value: string, reading: Reading): Check<null> {
  const kind = option.value!;
  const plain = VALUE_PATTERNS[kind];
  if (plain !== undefined) {
    if (!plain.pattern.test(value)) return deny('ZB_POLICY_SHELL_ARGUMENT', `${base} ${optionLabel(option)}: ${JSON.stringify(value)} is not a ${kind} (for example ${plain.example}).`);
    return { ok: true, value: null };
  }
  if (kind === 'unset-name') {
    if (!VARIABLE_NAME.test(value)) return deny('ZB_POLICY_SHELL_ARGUMENT', `${base} -u: ${JSON.stringify(value)} is not a variable name.`);
    reading.unset.push(value);
    return { ok: true, value: null };
  }
  if (kind === 'directory') {
    if (reading.directory !== undefined) return deny('ZB_POLICY_SHELL_ARGUMENT', `${base} -C is given twice; give one directory.`);
    reading.directory = value;
    return { ok: true, value: null };
  }
  reading.splits++;
  if (reading.splits > MAX_WRAPPER_DEPTH) return deny('ZB_POLICY_SHELL_ARGUMENT', `${base} -S is nested more than ${MAX_WRAPPER_DEPTH} times.`);
  const split = splitEnvString(value);
  if (!split.ok) return split;
  reading.words = [...split.value, ...reading.words.slice(reading.index)];
  reading.index = 0;
  return { ok: true, value: null };
}

/** "--name", "--name=value", "--name value", or an unambiguous prefix of a name. */
function readLongOption(base: string, rule: WrapperRule, arg: string, reading: Reading): Check<null> {
  const equals = arg.indexOf('=');
  const name = equals === -1 ? arg.slice(2) : arg.slice(2, equals);
  const attached = equals === -1 ? undefined : arg.slice(equals + 1);
  const all = [...rule.options, ...rule.denied].filter((o): o is LongSpelled<WrapperOption | DeniedWrapperOption> => o.long !== undefined);
  const exact = all.filter((o) => o.long === name);
  const matches = exact.length > 0 ? exact : all.filter((o) => name.length > 0 && o.long.startsWith(name));
  if (matches.length !== 1) {
    return deny(
      'ZB_POLICY_SHELL_ARGUMENT',
      `${base}: ${JSON.stringify(arg)} is ${matches.length === 0 ? 'not an option it allows' : 'an ambiguous abbreviation'}; it allows ${allowedSpellings(rule)}.`,
    );
  }
  const option = matches[0]!;
  if ('why' in option) return deny('ZB_POLICY_SHELL_ARGUMENT', `${base} --${option.long} is denied: it ${option.why}.`);
  if (option.value === undefined) {
    if (attached !== undefined) return deny('ZB_POLICY_SHELL_ARGUMENT', `${base} --${option.long} takes no value.`);
    return { ok: true, value: null };
  }
  let value = attached;
  if (value === undefined) value = reading.words[reading.index++];
  if (value === undefined) return deny('ZB_POLICY_SHELL_ARGUMENT', `${base} --${option.long} needs a value.`);
  return takeValue(base, option, value, reading);
}

/** "-abc", "-nVALUE", "-n VALUE": letters are options until one that takes a value. */
function readShortOptions(base: string, rule: WrapperRule, arg: string, reading: Reading): Check<null> {
  for (let j = 1; j < arg.length; j++) {
    const letter = arg[j]!;
    const denied = rule.denied.find((o) => o.short === letter);
    if (denied !== undefined) return deny('ZB_POLICY_SHELL_ARGUMENT', `${base} -${letter}${arg.length > 2 ? ` (in ${arg})` : ''} is denied: it ${denied.why}.`);
    const option = rule.options.find((o) => o.short === letter);
    if (option === undefined) return deny('ZB_POLICY_SHELL_ARGUMENT', `${base}: -${letter}${arg.length > 2 ? ` (in ${arg})` : ''} is not an option it allows; it allows ${allowedSpellings(rule)}.`);
    if (option.value === undefined) continue;
    let value: string | undefined = arg.slice(j + 1);
    if (value === '') value = reading.words[reading.index++];
    if (value === undefined) return deny('ZB_POLICY_SHELL_ARGUMENT', `${base} -${letter} needs a value.`);
    return takeValue(base, option, value, reading);
  }
  return { ok: true, value: null };
}

/** The command a wrapper runs, read from its arguments (argv without the wrapper's own name). */
export function unwrapCommand(base: string, rule: WrapperRule, args: readonly string[]): Check<UnwrappedCommand> {
  const reading: Reading = { words: [...args], index: 0, splits: 0, unset: [], directory: undefined };
  while (reading.index < reading.words.length) {
    const arg = reading.words[reading.index]!;
    if (arg === '--') {
      reading.index++;
      break;
    }
    if (!arg.startsWith('-') || arg === '-') break;
    reading.index++;
    let read: Check<null>;
    if (rule.numericOption !== undefined && /^-[-+]?[0-9]/.test(arg)) read = takeValue(base, { long: 'adjustment', value: rule.numericOption }, arg.slice(1), reading);
    else if (arg.startsWith('--')) read = readLongOption(base, rule, arg, reading);
    else read = readShortOptions(base, rule, arg, reading);
    if (!read.ok) return read;
  }
  const words = reading.words;
  let index = reading.index;
  if (rule.assignments === true && words[index] === '-') {
    return deny('ZB_POLICY_SHELL_ARGUMENT', `${base} - is denied: a lone "-" means -i, which ${rule.denied.find((o) => o.short === 'i')?.why ?? 'clears the environment'}.`);
  }
  for (const kind of rule.operands) {
    const operand = words[index++];
    const plain = VALUE_PATTERNS[kind];
    if (operand === undefined || plain === undefined || !plain.pattern.test(operand)) {
      return deny(
        'ZB_POLICY_SHELL_ARGUMENT',
        `${base}: expected a ${kind} before the command (for example ${plain?.example ?? ''}), found ${operand === undefined ? 'nothing' : JSON.stringify(operand)}.`,
      );
    }
  }
  const assignments: Assignment[] = [];
  // GNU env takes every word with "=" before the command as an assignment, whatever the name looks like.
  for (; rule.assignments === true && index < words.length && words[index]!.includes('='); index++) {
    const match = ENV_ASSIGNMENT.exec(words[index]!);
    if (match === null) return deny('ZB_POLICY_SHELL_ASSIGNMENT', `${base}: ${JSON.stringify(words[index])} would be set as a variable, but its name is not a plain NAME; write NAME=value.`);
    assignments.push({ name: match[1]!, value: match[2]! });
  }
  const inner = words.slice(index);
  if (inner.length === 0 && rule.standalone === undefined) return deny('ZB_POLICY_SHELL_ARGUMENT', `${base} without a command to run is denied.`);
  return { ok: true, value: { inner, assignments, unset: reading.unset, directory: reading.directory } };
}
