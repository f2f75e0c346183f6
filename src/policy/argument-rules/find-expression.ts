// find's arguments: leading options, starting points, then an expression of
// one-dash primaries and operators, which getopt cannot read. Read the way GNU
// find reads them; each value is classified for value-kinds.ts, and a primary
// or operator not listed is denied. What -exec runs is not checked here:
// readFindCommands returns it, and shell-decision.ts checks it as a command of
// its own, with "{}" standing for the files found under the starting points.
import { deny as no, type Check } from '../shell-check.js';
import type { ParsedArguments, ParsedValue } from './parse-arguments.js';
import type { ProgramRule, ValueKind } from './rule-format.js';
import { FOLLOWS_LINKS, type ArgumentContext } from './value-kinds.js';

const WHY =
  'it reads the trees it starts from, inside the read scopes; it may not delete (-delete) or write files (-fprint, -fls); -exec runs a command zotbox checks as its own, with {} standing for files it reads under the starting points';

export const FIND_RULE: ProgramRule = { why: WHY, options: [], positionals: {}, parser: 'find-expression' };

/** Options before the starting points, and the mark each sets. */
const LEADING_OPTIONS: ReadonlyMap<string, string | undefined> = new Map([
  ['-P', undefined],
  // -H follows only the starting points that are links, which the path decision resolves anyway.
  ['-H', undefined],
  ['-L', FOLLOWS_LINKS],
]);

const OPERATORS_AND_FLAGS = new Set([
  '!',
  '(',
  ')',
  ',',
  '-not',
  '-a',
  '-and',
  '-o',
  '-or',
  '-empty',
  '-readable',
  '-writable',
  '-executable',
  '-true',
  '-false',
  '-depth',
  '-mount',
  '-xdev',
  '-print',
  '-print0',
  '-ls',
  '-prune',
  '-quit',
]);

const FILE_TYPE: ValueKind = { matches: /^[bcdpflsD](?:,[bcdpflsD])*$/, describe: 'file type letters (f, d, l...), comma-separated' };
const LEVEL: ValueKind = { matches: /^[0-9]+$/, describe: 'a depth (0 or more)' };
const FILE_SIZE: ValueKind = { matches: /^[+-]?[0-9]+[bcwkMG]?$/, describe: 'a size such as +10k or -2M' };
const AGE: ValueKind = { matches: /^[+-]?[0-9]+(?:\.[0-9]+)?$/, describe: 'a number of days or minutes such as -7 or +1' };
const MODE: ValueKind = { matches: /^[-/]?(?:[0-7]{1,4}|[ugoa]*[-+=][rwxXst]*(?:,[ugoa]*[-+=][rwxXst]*)*)$/, describe: 'a mode such as 644, -u+x or /111' };
const OWNER: ValueKind = { matches: /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/, describe: 'a user or group name or number' };

/** Primaries that take the next argument as their value, whatever it looks like. */
const VALUED: ReadonlyMap<string, ValueKind> = new Map<string, ValueKind>([
  ['-name', 'pattern'],
  ['-iname', 'pattern'],
  ['-path', 'pattern'],
  ['-ipath', 'pattern'],
  ['-regex', 'pattern'],
  ['-iregex', 'pattern'],
  ['-type', FILE_TYPE],
  ['-xtype', FILE_TYPE],
  ['-maxdepth', LEVEL],
  ['-mindepth', LEVEL],
  ['-size', FILE_SIZE],
  ['-mtime', AGE],
  ['-mmin', AGE],
  ['-atime', AGE],
  ['-ctime', AGE],
  ['-newer', 'read'],
  ['-samefile', 'read'],
  ['-perm', MODE],
  ['-user', OWNER],
  ['-group', OWNER],
  ['-links', 'number'],
  ['-printf', 'literal'], // a format: -printf only prints
]);

const RUNNERS = new Set(['-exec', '-execdir', '-ok', '-okdir']);
const WRITERS = new Set(['-fprint', '-fprint0', '-fprintf', '-fls']);

/** GNU find's looks_like_expression: where the starting points end. */
function startsExpression(arg: string): boolean {
  if (arg.startsWith('-')) return arg.length > 1;
  return arg === '(' || arg === '!';
}

/** The index of the word that ends a command run by -exec and the like: ";", or "+" right after a word with "{}" (not for -ok). */
function commandEnd(args: readonly string[], start: number, runner: string): number | undefined {
  const plusEnds = runner === '-exec' || runner === '-execdir';
  for (let end = start; end < args.length; end += 1) {
    if (args[end] === ';') return end;
    if (plusEnds && args[end] === '+' && end > start && args[end - 1]!.includes('{}')) return end;
  }
  return undefined;
}

/** -execdir, -ok and -okdir: what their commands would do cannot be decided beforehand. */
const RUNNER_REFUSALS: ReadonlyMap<string, string> = new Map([
  ['-execdir', '-execdir runs its command in the directory of each file found, known only at run time; use -exec, whose command runs where find does'],
  ['-okdir', '-okdir asks on a terminal, which commands never have, and runs in the directory of each file found; use -exec'],
  ['-ok', '-ok asks on a terminal before each command, which commands never have; use -exec'],
]);

/** A command -exec runs: its words, "{}" where each file found goes, and whether "+" passes many files at once. */
export interface FindCommand {
  readonly argv: readonly string[];
  readonly batch: boolean;
}

/** The word find replaces with each file it finds. */
export const FOUND_FILE = '{}';

function execCommand(name: string, argv: readonly string[], batch: boolean): Check<FindCommand> {
  const inside = argv.find((word) => word !== FOUND_FILE && word.includes(FOUND_FILE));
  if (inside !== undefined) {
    return refuse(name, `-exec: ${JSON.stringify(inside)} has {} inside a longer word, which find fills in with each file's name; give {} as a word of its own, where the program takes a file`);
  }
  if (argv[0] === FOUND_FILE) return refuse(name, '-exec: the program to run must be named, not {}: the files found are not programs zotbox has checked');
  if (batch && argv.filter((word) => word === FOUND_FILE).length !== 1) return refuse(name, '-exec ... {} + takes {} once, just before the +');
  return { ok: true, value: { argv, batch } };
}

function refuse(name: string, reason: string): Check<never> {
  return no('ZB_POLICY_SHELL_ARGUMENT', `${name}: ${reason} (${WHY}).`);
}

/** Reads the expression from `index`: pushes each value with its kind, and adds the marks its primaries set. */
function readExpression(name: string, args: readonly string[], index: number, values: ParsedValue[], marks: Set<string>, commands: FindCommand[]): Check<null> {
  for (let at = index; at < args.length; ) {
    const word = args[at]!;
    const kind = VALUED.get(word);
    if (OPERATORS_AND_FLAGS.has(word)) at += 1;
    else if (word === '-follow') {
      // The old spelling of -L: links found in the trees are followed, so each is checked where it leads.
      marks.add(FOLLOWS_LINKS);
      at += 1;
    } else if (kind !== undefined) {
      if (at + 1 >= args.length) return refuse(name, `${word} needs a value`);
      values.push({ kind, text: args[at + 1]!, written: word });
      at += 2;
    } else if (word === '-delete') {
      return refuse(name, '-delete removes files find matches, which the gate cannot see in advance; list them (-print) and remove them with rm');
    } else if (RUNNERS.has(word)) {
      // The command's words are checked as a command of their own, not as find's values.
      const end = commandEnd(args, at + 1, word);
      if (end === undefined || end === at + 1) return refuse(name, `${word} needs a command ended by ';' (or by {} + to pass many files at once)`);
      const runner = RUNNER_REFUSALS.get(word);
      if (runner !== undefined) return refuse(name, runner);
      const command = execCommand(name, args.slice(at + 1, end), args[end] === '+');
      if (!command.ok) return command;
      commands.push(command.value);
      at = end + 1;
    } else if (WRITERS.has(word)) return refuse(name, `${word} writes to a file; print to standard output instead (-print, -printf)`);
    else return refuse(name, `${JSON.stringify(word)} is not a find primary or operator zotbox allows`);
  }
  return { ok: true, value: null };
}

/** What find -exec runs, read from find's argv (without the program) exactly as parseFindExpression reads it. */
export interface FindCommands {
  /** The starting points as written ("." when none is). */
  readonly roots: readonly string[];
  /** Whether find itself follows links (-L, -follow), so a file found may lie where a link leads. */
  readonly followsLinks: boolean;
  readonly commands: readonly FindCommand[];
}

/** The commands find's -exec would run, or the denial of find's arguments. Never throws. */
export function readFindCommands(name: string, args: readonly string[]): Check<FindCommands> {
  const read = readFind(name, args);
  if (!read.ok) return read;
  const { parsed, commands } = read.value;
  return { ok: true, value: { roots: parsed.positionals.length === 0 ? ['.'] : parsed.positionals, followsLinks: parsed.marks.has(FOLLOWS_LINKS), commands } };
}

/** Reads find's argv (without the program) into classified values. Never throws. */
export function parseFindExpression(name: string, args: readonly string[], _context: ArgumentContext): Check<ParsedArguments> {
  const read = readFind(name, args);
  return read.ok ? { ok: true, value: read.value.parsed } : read;
}

function readFind(name: string, args: readonly string[]): Check<{ parsed: ParsedArguments; commands: FindCommand[] }> {
  const marks = new Set<string>();
  let at = 0;
  for (; at < args.length && LEADING_OPTIONS.has(args[at]!); at += 1) {
    const mark = LEADING_OPTIONS.get(args[at]!);
    if (mark !== undefined) marks.add(mark);
  }
  const starts: string[] = [];
  for (; at < args.length && !startsExpression(args[at]!); at += 1) starts.push(args[at]!);
  const expressionValues: ParsedValue[] = [];
  const commands: FindCommand[] = [];
  const read = readExpression(name, args, at, expressionValues, marks, commands);
  if (!read.ok) return read;
  const kind: ValueKind = 'read';
  // With no starting point find walks ".": checked like a written one.
  const startValues: ParsedValue[] = starts.length === 0 ? [{ kind, text: '.', written: '(no starting point: .)' }] : starts.map((text) => ({ kind, text, written: text }));
  return { ok: true, value: { parsed: { subcommands: [], rule: FIND_RULE, marks, values: [...startValues, ...expressionValues], positionals: starts }, commands } };
}
