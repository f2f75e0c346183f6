// The command texts a file of program code runs through its process calls, as shell text: node's exec/execSync,
// execFile/execFileSync, spawn/spawnSync, execa and zx's $`…` (under any name it imports them as); Python's subprocess
// calls, os.system/popen, the os.exec*/os.spawn*/os.posix_spawn* family, pty.spawn, asyncio's create_subprocess_*;
// Perl's and Ruby's system/exec/spawn, backquotes, qx/%x, Perl's piped open, Ruby's IO.popen and Open3 (process-call-
// forms.ts). A literal is the text; an argv list is joined with shell quoting; a name is each value the code gives it
// (program-command-values.ts, a list with the changes the code makes to it), carried into the paths it builds
// (program-path-joins.ts), its cwd option (program-call-options.ts) and its own chdir (program-working-directories.ts). What stays
// computed stands as "$(computed)"; a command whose program is computed is marked so (the caller refuses it where a
// package runner is in play), one whose operand is, with the program that may run it (program-computed-operands.ts).
// Comments are no calls. Pure.
import type { ProgramLanguage } from './inline-program-runs.js';
import { codeSkeleton, type LiteralPart, literalAt } from './program-code-literals.js';
import { bindingValues, elementsOf, listBindingValues, listChanges, listPieces, UNKNOWN, type ValueSource } from './program-command-values.js';
import { computedOperandRun } from './program-computed-operands.js';
import { joinPieces, knownDirectoryAt, MODULE, moduleJoined, OWN, pathCallAt } from './program-path-joins.js';
import { callAliases, type FoundCall, processCalls } from './program-process-calls.js';
import { directoryChanges } from './program-working-directories.js';
import { optionValues } from './program-call-options.js';
import { commandStrings, programOf } from './shell-command-reading.js';
import { EXPANSION_BASE, lexShell } from './shell-lexer.js';

/** One command a program runs: shell text, the line (0-based) the call is on, and the directory a literal cwd names. */
export interface ProgramCommandText {
  readonly text: string;
  readonly line: number;
  readonly directory?: string;
  /** The cwd is the program file's own directory (`__dirname`, `os.path.dirname(__file__)`), not where it runs. */
  readonly ownDirectory?: true;
  /** A command of the text runs a program the code computes and zotbox cannot spell out (`execSync(process.argv[2])`). */
  readonly computed?: true;
  /** A command of the text gives a computed operand to this program, which may run it (program-computed-operands.ts). */
  readonly computedOperand?: string;
}

/** A cwd that is the program's own directory, and one that is where it runs (as no cwd at all). */
const OWN_DIRECTORY =
  /^\s*(?:__dirname|import\.meta\.dirname|os\.path\.dirname\(\s*(?:os\.path\.(?:abspath|realpath)\(\s*)?__file__\s*\)?\s*\)|(?:pathlib\.)?Path\(\s*__file__\s*\)(?:\.(?:resolve|absolute)\(\s*\))*\.parent)\s*$/u;
const RUNNING_DIRECTORY = /^\s*(?:process\.cwd\(\s*\)|os\.getcwd\(\s*\)|None|undefined|null|nil)\s*$/u;

/** What stands for a value the program computes: an expansion the shell reading cannot spell out. */
export const COMPUTED = '"$(computed)"';
/** The same, inside a value being put together (rendered as COMPUTED, quoted around it). */
const HOLE = '\uE7FF';
/** How far a name's values are followed (a name assigned from another, a parameter passed a constant). */
const MAX_DEPTH = 4;
/** How many values one command is read with at most; beyond, the value is computed. */
const MAX_VALUES = 16;

/** Values the interpreter itself gives (`spawnSync(process.execPath, [...])` runs node again): known, no hole. */
const KNOWN_PROGRAMS: Readonly<Record<string, string>> = { 'process.execPath': 'node', 'process.argv[0]': 'node', 'sys.executable': 'python3', '$^X': 'perl' };

/** How the program is read. */
interface Reader extends ValueSource {
  readonly language: ProgramLanguage | undefined;
  /** The program file's own directories (where it lies, where a link to it lies): what `__dirname` is. */
  readonly own: readonly string[];
}

/** Each way of joining one value of each list, in order (at most MAX_VALUES; beyond, undefined). */
function combinations(lists: readonly (readonly string[])[]): string[] | undefined {
  let joined = [''];
  for (const list of lists) {
    joined = joined.flatMap((head) => list.map((tail) => head + tail));
    if (joined.length > MAX_VALUES) return undefined;
  }
  return [...new Set(joined)];
}

/** The values a literal's parts put together (a spliced name followed to its values). */
function partsValues(parts: readonly LiteralPart[], reader: Reader, depth: number): string[] {
  return combinations(parts.map((part) => ('text' in part ? [part.text] : depth > MAX_DEPTH ? [HOLE] : valuesOf(part.expression, reader, depth + 1)))) ?? [HOLE];
}

/** The values of one term of a concatenation: a literal, a name's values, or a hole. */
function termValues(term: string, reader: Reader, depth: number): string[] {
  const trimmed = term
    .trim()
    .replace(/^\(+|\)+$/gu, '')
    .trim();
  if (trimmed === '') return [''];
  const known = KNOWN_PROGRAMS[trimmed];
  if (known !== undefined) return [known];
  if (depth > MAX_DEPTH) return [HOLE];
  // An element of a list (`cmd[0]`, `cmd[-1]`): that place of each argv the list may be.
  const element = /^([$@]?[A-Za-z_$][\w$]*)\s*\[\s*(-?\d+)\s*\]$/u.exec(trimmed);
  if (element !== null) {
    const argvs = argvValues(element[1]!, reader, depth + 1);
    return argvs === undefined ? [HOLE] : [...new Set(argvs.map((argv) => argv.at(Number(element[2])) ?? HOLE))];
  }
  if (!/^[$@]?[A-Za-z_$][\w$]*$/u.test(trimmed)) return [HOLE];
  const bound = bindingValues(trimmed, reader);
  if (bound.length === 0) return [HOLE];
  const values = bound.flatMap((value) => (value === UNKNOWN ? [HOLE] : valuesOf(value, reader, depth + 1)));
  return values.length > MAX_VALUES ? [HOLE] : [...new Set(values)];
}

/** The values of a path call or a known directory at `at` (`path.join(SCRIPTS, "lint.sh")`, `__dirname`), and its end. */
function pathValuesAt(expression: string, at: number, reader: Reader, depth: number): { values: string[]; end: number } | undefined {
  const rest = expression.slice(at);
  const directory = knownDirectoryAt(rest);
  // The program's own directory is each place it lies (the caller's), or a hole where the caller gives none.
  if (directory !== undefined)
    return {
      values: directory.value.startsWith(OWN) ? (reader.own.length === 0 ? [HOLE] : reader.own.map((own) => own + directory.value.slice(OWN.length))) : [directory.value],
      end: at + directory.length,
    };
  const call = pathCallAt(rest);
  if (call === undefined || depth > MAX_DEPTH) return undefined;
  const pieces = listPieces(rest, call.open, reader.skip);
  const close = closingParen(rest, call.open, reader);
  if (close === undefined) return undefined;
  // A spread or keyword among the pieces (`path.join(...parts)`) is no value zotbox can spell out.
  const lists = pieces.map((piece) => (/^\s*(?:\.\.\.|\*|\w+\s*=(?!=))/u.test(piece) ? [HOLE] : valuesOf(piece, reader, depth + 1)));
  const joined = combinations(lists.map((list, index) => (index === 0 ? list : list.map((value) => `\uE7FD${value}`))));
  const values = joined?.map((value) => (moduleJoined(value.split('\uE7FD').filter((piece) => piece !== '')) ? HOLE : joinPieces(call.kind, value.split('\uE7FD')))) ?? [HOLE];
  return { values: [...new Set(values)], end: at + close + 1 };
}

/** The index of the parenthesis that closes the one at `open` in `text` (literals skipped). */
function closingParen(text: string, open: number, reader: Reader): number | undefined {
  let depth = 0;
  for (let index = open; index < text.length; index++) {
    const end = reader.skip(text, index);
    if (end !== undefined) {
      index = end - 1;
      continue;
    }
    if ('([{'.includes(text[index]!)) depth++;
    else if (')]}'.includes(text[index]!) && --depth === 0) return index;
  }
  return undefined;
}

/**
 * The string values an expression may have: its literals (a template's or f-string's splices followed), joined by
 * `+` (Perl's `.`) or side by side, each name followed to its values; anything else is a hole.
 */
export function valuesOf(expression: string, reader: Reader, depth = 0): string[] {
  const lists: string[][] = [];
  let gap = '';
  const flush = () => {
    // Pathlib's `/` glues a path component on (`ROOT / "scripts"`); `+` (Perl's `.`) glues text on.
    // (A split's capture group that took no part is undefined, whatever the type says.)
    const terms = gap.split(reader.language === 'perl' ? /\s\.\s|\+/u : reader.language === 'python' ? /\+|(\/)/u : /\+/u) as (string | undefined)[];
    gap = '';
    for (const term of terms) if (term !== undefined) lists.push(term === '/' ? ['/'] : termValues(term, reader, depth));
  };
  for (let index = 0; index < expression.length; index++) {
    const joined = /[\w$.]/u.test(expression[index - 1] ?? '') ? undefined : pathValuesAt(expression, index, reader, depth);
    if (joined !== undefined) {
      flush();
      lists.push(joined.values);
      index = joined.end - 1;
      continue;
    }
    const literal = literalAt(expression, index, reader.language);
    if (literal === undefined) {
      gap += expression[index]!;
      continue;
    }
    flush();
    lists.push(partsValues(literal.parts, reader, depth));
    index = literal.end - 1;
  }
  flush();
  // A package module's resolved path glued onto (`require.resolve("pkg/package.json") + "/../bin/x.js"`): computed.
  const parts = lists.filter((list) => list.some((value) => value !== ''));
  if (parts.length > 1) for (const [index, list] of lists.entries()) lists[index] = list.map((value) => (value.includes(MODULE) ? HOLE : value));
  return combinations(lists) ?? [HOLE];
}

/** A value as shell text: each hole "$(computed)"; `quoted`, the rest single-quoted (one argv element, one word). */
function rendered(written: string, quoted: boolean): string {
  const value = written.replaceAll(MODULE, '');
  if (!quoted) return value.replaceAll(HOLE, COMPUTED);
  return value
    .split(HOLE)
    .map((text) => (text === '' ? '' : `'${text.replace(/'/gu, `'\\''`)}'`))
    .join(COMPUTED);
}

/** Each combination of one value of each element's list, as one argv (beyond MAX_VALUES, one computed argv). */
function argvCombinations(lists: readonly (readonly string[][])[]): string[][] {
  let argvs: string[][] = [[]];
  for (const list of lists) {
    argvs = argvs.flatMap((head) => list.map((values) => [...head, ...values]));
    if (argvs.length > MAX_VALUES) return [[HOLE, HOLE]];
  }
  return argvs;
}

/** What each element expression puts in an argv: its values one by one, or a spread list's (`...x`, `*x`) elements. */
function elementValues(elements: readonly string[], reader: Reader, depth: number): string[][][] {
  return elements.map((element) => {
    const spread = /^\s*(?:\.\.\.|\*)([\s\S]*)$/u.exec(element);
    if (spread === null) return valuesOf(element, reader, depth).map((value) => [value]);
    return argvValues(spread[1]!, reader, depth + 1) ?? [[HOLE]];
  });
}

/**
 * The argv lists an expression may be (`["npx", x]`, a name of one, a slice or concat of one), each element's values;
 * undefined for no list. A name's list is read with every change the file makes to it in place (listChanges): what
 * it pushes is appended, what it puts elsewhere is put first or last, and a reordering makes the first element and
 * one more computed: never "the initial literal only".
 */
function argvValues(expression: string, reader: Reader, depth = 0): string[][] | undefined {
  const trimmed = expression.trim();
  if (/^qw\s*[([{/]/u.test(trimmed)) return argvCombinations(elementValues(elementsOf(trimmed, reader) ?? [UNKNOWN], reader, depth));
  if (/^[[(][\s\S]*[\])]$/u.test(trimmed)) return argvCombinations(elementValues(listPieces(trimmed, 0, reader.skip), reader, depth));
  if (depth > MAX_DEPTH) return undefined;
  // `x.slice(a[, b])`, Python's `x[a:b]`: those places of each argv; `x.concat(y, …)`: each argv, then the others' elements.
  const slice = /^([$@]?[A-Za-z_$][\w$]*)\s*(?:\.\s*slice\s*\(\s*(-?\d+)?\s*(?:,\s*(-?\d+)\s*)?\)|\[\s*(-?\d+)?\s*:\s*(-?\d+)?\s*\])$/u.exec(trimmed);
  if (slice !== null) {
    const start = slice[2] ?? slice[4];
    const end = slice[3] ?? slice[5];
    return argvValues(slice[1]!, reader, depth + 1)?.map((argv) => argv.slice(start === undefined ? 0 : Number(start), end === undefined ? undefined : Number(end)));
  }
  const concat = /^([$@]?[A-Za-z_$][\w$]*)\s*\.\s*concat\s*\(/u.exec(trimmed);
  if (concat !== null) {
    const extra = listPieces(trimmed, concat[0].length - 1, reader.skip).map((piece) => `...${piece.trim()}`);
    return argvCombinations([argvValues(concat[1]!, reader, depth + 1) ?? [[HOLE]], ...elementValues(extra, reader, depth + 1)]);
  }
  const name = /^([$@]?[A-Za-z_$][\w$]*)$/u.exec(trimmed)?.[1];
  if (name === undefined) return undefined;
  const bound = listBindingValues(name, reader);
  const lists = bound.map((value) => (value === UNKNOWN ? undefined : argvValues(value, reader, depth + 1)));
  // A name that is never a list (a string) is read as text; one that may be a list zotbox cannot spell out is a hole.
  if (lists.every((list) => list === undefined)) return undefined;
  const base = lists.flatMap((list) => list ?? [[HOLE, HOLE]]);
  const changes = listChanges(name, reader);
  const appended = elementValues(changes.appended, reader, depth + 1);
  const placed = elementValues(changes.placed, reader, depth + 1);
  const argvs = argvCombinations([base, ...appended]);
  if (placed.length > 0) argvs.push(...argvCombinations([...placed, base, ...appended]), ...argvCombinations([base, ...appended, ...placed]));
  if (changes.reordered) argvs.push(...argvs.map((argv) => [HOLE, ...argv, HOLE]));
  return argvs.length > MAX_VALUES ? [[HOLE, HOLE]] : argvs;
}

/** An argv as shell text: its program and arguments quoted (`shellText`: the elements are shell text run by a shell). */
const argvText = (argv: readonly string[], shellText: boolean) => argv.map((element) => rendered(element, !shellText)).join(' ');

/** The texts one call runs, and where: none for a call that runs no command zotbox can see. */
function callTexts(call: FoundCall, reader: Reader): { text: string; cwd?: string; ownDirectory?: true }[] {
  const { program, args, argv, shellText, options } = call;
  if (program === undefined) return [];
  const shells = optionValues(options, ['shell'], reader).filter((shell) => shell !== UNKNOWN);
  const throughShell = shellText || shells.some((shell) => !/^\s*(?:false|False|None|undefined|null|nil)\s*$/u.test(shell));
  let texts: string[];
  if (args !== undefined) {
    // A program, then its arguments (an argv list, or one by one): quoted, or joined plain when a shell runs them.
    const programs = valuesOf(program, reader);
    const rest = argv === 'list' ? (argvValues(args[0] ?? '[]', reader) ?? [[HOLE]]) : [args.map((arg) => valuesOf(arg, reader)).map((values) => (values.length === 1 ? values[0]! : HOLE))];
    texts = programs.flatMap((first) => rest.map((others) => argvText([first, ...others.slice(call.skipFirst === true ? 1 : 0)], throughShell)));
  } else {
    // One expression: shell text, or an argv list (Python's list with shell=True: its first element is the text).
    const lists = shellText ? undefined : argvValues(program, reader);
    if (lists === undefined) texts = valuesOf(program, reader).map((value) => rendered(value, false));
    else if (throughShell) texts = lists.map((list) => rendered(list[0] ?? '', false));
    else texts = lists.map((list) => argvText(list.slice(call.skipFirst === true ? 1 : 0), throughShell));
  }
  // Perl's two-argument open runs a command only with a pipe before or after it (a value zotbox cannot see may be one).
  if (call.pipe === true) texts = texts.flatMap((text) => (/^\s*\||\|\s*$/u.test(text) ? [text.replace(/^\s*\|\s*|\s*\|\s*$/gu, '')] : text.startsWith(COMPUTED) ? [text] : []));
  texts = [...new Set(texts)];
  const cwds = optionValues(options, ['cwd', 'chdir'], reader);
  if (cwds.length === 0) return texts.map((text) => ({ text }));
  return cwds.flatMap((cwd) => {
    if (RUNNING_DIRECTORY.test(cwd)) return texts.map((text) => ({ text }));
    if (OWN_DIRECTORY.test(cwd)) return texts.map((text) => ({ text, cwd: '.', ownDirectory: true as const }));
    // A literal or a followed constant (`cwd: SCRIPTS`, `cwd=os.path.join(ROOT, "scripts")`): the operands are taken from there.
    const directories = cwd === UNKNOWN ? [HOLE] : valuesOf(cwd, { ...reader, own: [] });
    // A directory the program computes (or an options value zotbox cannot spell out): a cd the shell reading cannot
    // spell out, so a name run there is refused.
    if (!directories.every(isSpelledDirectory)) return texts.map((text) => ({ text: `cd ${COMPUTED} && ${text}` }));
    return directories.flatMap((directory) => texts.map((text) => ({ text, cwd: directory })));
  });
}

/** A directory value with nothing computed in it. */
const isSpelledDirectory = (directory: string) => directory !== '' && !directory.includes(HOLE) && !directory.includes(MODULE) && !/[\n$`]/u.test(directory);

/** Where the program may stand when it runs its calls: where it starts ('.') and each place its own chdir calls move it. */
function programPlaces(reader: Reader): string[] {
  let places = ['.'];
  for (const move of directoryChanges(reader, reader.language)) {
    if (RUNNING_DIRECTORY.test(move)) continue;
    // The program's own directory is where it lies (absolute), a hole where the caller gives none.
    const directories = move === UNKNOWN ? [HOLE] : valuesOf(move, reader);
    if (!directories.every(isSpelledDirectory)) return [HOLE];
    // By name, not by order: a move may follow any other (more places, never fewer).
    places = [...new Set([...places, ...places.flatMap((place) => directories.map((directory) => (directory.startsWith('/') || place === '.' ? directory : `${place}/${directory}`)))])];
    if (places.length > MAX_VALUES) return [HOLE];
  }
  return places;
}

/** A call's run placed where the program stands: its cwd taken from there, or a computed cd before it. */
function placedRun(run: { text: string; cwd?: string; ownDirectory?: true }, place: string): { text: string; cwd?: string; ownDirectory?: true } {
  if (place === '.' || run.ownDirectory === true || run.text.startsWith(`cd ${COMPUTED}`) || run.cwd?.startsWith('/') === true) return run;
  if (place === HOLE) return { text: `cd ${COMPUTED} && ${run.text}` };
  return { ...run, cwd: run.cwd === undefined ? place : `${place}/${run.cwd}` };
}

/** Whether a command of `text` (or of shell text inside it, `sh -c …`) runs a program that is a computed value. */
export function runsComputedProgram(text: string, depth = 0): boolean {
  const expansions: string[] = [];
  const holds = (word: string) => (word.match(/[\uE000-\uEFFF]/gu) ?? []).some((mark) => expansions[mark.charCodeAt(0) - EXPANSION_BASE]?.includes('$(computed)') === true);
  for (const words of lexShell(text, expansions)) {
    const program = words[programOf(words).at];
    if (program !== undefined && holds(program)) return true;
    for (const inner of commandStrings(words).values()) if (holds(inner) || (depth < MAX_DEPTH && runsComputedProgram(inner, depth + 1))) return true;
  }
  return expansions.some((expansion) => depth < MAX_DEPTH && /^\$\((?!computed\))/u.test(expansion) && runsComputedProgram(expansion.slice(2, -1), depth + 1));
}

/** The command texts `code`'s process calls run, each as shell text with the line it is on and its literal cwd. */
export function programCommandTexts(code: string, language?: ProgramLanguage, own: readonly string[] = []): ProgramCommandText[] {
  const { clean, skeleton } = codeSkeleton(code, language);
  const skip = (text: string, at: number) => literalAt(text, at, language)?.end;
  const reader: Reader = { clean, skeleton, skip, language, own };
  const found: ProgramCommandText[] = [];
  const seen = new Set<string>();
  const places = programPlaces(reader);
  for (const call of processCalls(reader, language, callAliases(clean, language))) {
    const line = clean.slice(0, call.at).split('\n').length - 1;
    for (const run of callTexts(call, reader).flatMap((each) => places.map((place) => placedRun(each, place)))) {
      // One call read two ways (unknown language: a backquote both JavaScript's and Perl's) is one command.
      const key = JSON.stringify([run, line]);
      if (seen.has(key)) continue;
      seen.add(key);
      const operandRun = computedOperandRun(run.text);
      found.push({
        text: run.text,
        line,
        ...(run.cwd === undefined ? {} : { directory: run.cwd }),
        ...(run.ownDirectory === true ? { ownDirectory: true as const } : {}),
        ...(runsComputedProgram(run.text) ? { computed: true as const } : {}),
        ...(operandRun === undefined ? {} : { computedOperand: operandRun }),
      });
    }
  }
  return found;
}
