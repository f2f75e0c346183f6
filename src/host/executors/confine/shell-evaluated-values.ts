// Values bash evaluates as code where they are used, not where they are set: arithmetic evaluates a name's value as an
// expression, and an array subscript in that value (`a[$(sh x.sh)]`) runs its command substitution; `${X@P}` and PS4
// (under `set -x`) expand a value as a prompt, command substitutions included; `${!X}` expands the name X holds, its
// subscript too. Where a script sets such a name to what zotbox cannot spell out as harmless (a line it reads, a
// command's output, a value built of quoted code, an array), or uses a positional parameter (a caller's argument),
// that use is unresolved: the check is on the use, however the value was made.
// The arithmetic places are found by scanning, brackets balanced, over lines (arithmetic-regions below): `((…))`,
// `$((…))`, `$[…]`, `let`, an `[[ … ]]` comparison's operands, every `NAME[…]` subscript (quoted too: `unset 'a[X]'`,
// `test -v 'a[X]'`), a substring's or slice's offset and length, and a `declare -i`/`local -i` command.
// Pure, no I/O: more is unresolved, never less.
import { EXPANSION_BASE, unmark } from './shell-lexer.js';
import { bashPrintedText } from './shell-printed-text.js';
import { startsAtTopLevel } from './shell-top-level-lines.js';

/** What the script sets: each name's values as written (expansions marked), and the names set to what is never spelled out. */
export interface ScriptValues {
  readonly values: ReadonlyMap<string, readonly string[]>;
  readonly unknown: ReadonlySet<string>;
  readonly expansions: readonly string[];
}

/** A use of a value bash evaluates, and why it is unresolved. */
export interface EvaluatedUse {
  readonly text: string;
  readonly why: string;
}

/** A name in arithmetic: bare, `$NAME`, `${NAME…}`; a positional parameter `$1`, `${1}`, `$@`, `$*`. */
const NAME = /(?<!\w)[A-Za-z_]\w*/gu;
const POSITIONAL = /\$(?:\{?[1-9]\d*\}?|[@*]|\{[@*]\})/u;
/**
 * A command whose output is one count: wc reading its input (`… | wc -l`, `wc -l < f`: with a file operand it prints
 * the name too), grep -c of one pattern on its input or one file (no -H), git rev-list --count, stat -c %s of one
 * file, date +%s.
 */
const COUNTS =
  /^\$\((?:[^()\n]*\|\s*)?(?:wc(?:\s+-[lcmw]+)*\s*(?:<\s*[^\s|;&<>]+)?|grep\s+(?:-[a-zA-GI-Z]*c[a-zA-GI-Z]*|--count)\s+(?:'[^'\n]*'|"[^"\n]*"|[^\s'"|;&<>]+)(?:\s+(?:<\s*)?[^\s|;&<>]+)?|git\s+rev-list\s+--count(?:\s+(?!--(?:format|pretty))[^\s|;&<>$`]+)*|stat\s+-c\s*['"]?%s['"]?\s+[^\s|;&<>]+|date\s+['"]?\+%s['"]?)\s*\)$/u;
/** The names bash sets to numbers itself. */
const SHELL_NUMBERS = new Set(['RANDOM', 'SRANDOM', 'SECONDS', 'EPOCHSECONDS', 'LINENO', 'PPID', 'UID', 'EUID', 'BASHPID', 'OPTIND', 'SHLVL']);
/**
 * What may set any name to any text, so no name's value is the script's own: an assignment whose name or operand is
 * computed (`export $(cat .env | xargs)`, `declare "$k=$v"`), eval, and a file sourced (its assignments are not read here).
 */
const SETS_ANY = new RegExp(
  [
    // A declaration with a computed name or operand (`export -- $(…)`, `declare "$k=$v"`).
    String.raw`(?:^|[\s;&|({])(?:export|declare|typeset|local|readonly)\s+(?:[-+]\S*\s+)*[^\s;&|=]*\$`,
    // A name given to read, mapfile, printf -v or unset by an expansion.
    String.raw`(?:^|[\s;&|({])(?:read|mapfile|readarray|unset|printf\s+-v)\b[^;&|\n]*\s["']?\$`,
    // eval, and a file sourced however it is spelled (`\source`, `builtin source`, `command .`).
    String.raw`(?:^|[\s;&|({\\])(?:(?:builtin|command)\s+)?(?:eval|source|\.)\s`,
  ].join('|'),
  'mu',
);

/** The uses in `text` (a whole script) of a value bash evaluates that the script may have set to code. */
export function evaluatedUses(text: string, values: ScriptValues, sourced: boolean): EvaluatedUse[] {
  // The script as bash reads it (shell-printed-text.ts): comments gone, continuations joined, here-documents as bash
  // takes them. Text bash cannot print is read as written, and no name's value there is its own.
  const printed = bashPrintedText(text);
  const code = printed ?? text;
  // An array's elements (`a=('$(…)' b)`) are not among the values read: any array the script sets is unknown.
  const arrays = [...code.matchAll(/(?:^|[\s;&|({])([A-Za-z_]\w*)\+?=\(/gmu)].map((match) => match[1]!);
  // `${X:=…}` and `${X=…}` set X where they are expanded.
  const defaults = [...code.matchAll(/\$\{([A-Za-z_]\w*):?=/gu)].map((match) => match[1]!);
  const associative = new Set([...code.matchAll(/\b(?:declare|typeset|local)\s+(?:-\w+\s+)*-\w*A\w*\s+(\w+)/gu)].map((match) => match[1]!));
  // bash evaluates a value assigned to its own integer names as arithmetic (`RANDOM=$(cat seed)`, `OPTIND=$x`).
  const integerValues = [...code.matchAll(/(?:^|[\s;&|({])(?:RANDOM|SRANDOM|OPTIND|HISTCMD|SECONDS|LINENO)\+?=("(?:[^"\\]|\\.)*"|'[^']*'|(?:\$\((?:[^()]|\([^()]*\))*\)|[^\s;&|])*)/gmu)].map(
    (match) => match[1]!,
  );
  const regions = [...arithmeticRegions(code, associative), ...nameOperands(code), ...integerValues];
  const set: Taint = {
    ...values,
    unknown: new Set([...values.unknown, ...arrays, ...defaults, ...outsideValues(code, values, regions, (line) => printed !== undefined && startsAtTopLevel(printed, line))]),
    // A name arithmetic itself sets (`for ((i = 0; …))`, `(( n++ ))`, `let i=1`) holds a number: what set it is checked where it stands.
    arithmetic: new Set(
      regions.flatMap((region) => [...region.matchAll(/(?<![\w$])([A-Za-z_]\w*)\s*(?:(?:[-+*/%&|^]|<<|>>)?=(?!=)|\+\+|--)|(?:\+\+|--)\s*([A-Za-z_]\w*)/gu)].map((match) => match[1] ?? match[2]!)),
    ),
    anything: SETS_ANY.test(code),
    // A sourced file runs in its sourcer's shell, with that shell's attributes and traps (`readonly MAX`, so its own
    // `MAX=3` fails; `declare -i`; a DEBUG trap that sets MAX before each command): no name's value is its own.
    inherited: sourced || printed === undefined,
  };
  const uses: EvaluatedUse[] = [];
  for (const region of regions) {
    const shown = region.replace(/\s+/gu, ' ').trim().slice(0, 60);
    if (POSITIONAL.test(region)) uses.push({ text: shown, why: "bash evaluates a caller's argument there as an expression, and an array subscript in it runs commands" });
    // A command's output written into the place (`[[ $(cat f) -gt 1 ]]`, `${X:-$(cat f)}`): text, unless it is a count.
    for (const substitution of substitutionsIn(region))
      if (!COUNTS.test(substitution)) uses.push({ text: shown, why: "bash evaluates a command's output there as an expression, and an array subscript in it runs commands" });
    // A length (`${#a[@]}`) is a number: its name is not evaluated (its subscript is a place of its own); a command
    // substitution's words are its command's, checked above.
    // Read with its quotes removed as well, as bash reads it (`M"A"X` is MAX).
    const readable = region.replace(/\$\{#[^}]*\}/gu, '0').replace(/\$\((?!\()[\s\S]*?\)|`[^`]*`/gu, '0');
    for (const name of new Set([...readable.matchAll(NAME), ...readable.replace(/["'\\]/gu, '').matchAll(NAME)].map(([each]) => each)))
      if (!harmless(name, set, new Set()))
        uses.push({ text: shown, why: `bash evaluates ${name} there as an expression, and an array subscript in its value runs commands; the script sets ${name} to what zotbox cannot spell out` });
  }
  const expanded = (name: string, use: string, how: string) => {
    if (!harmless(name, set, new Set())) uses.push({ text: use.slice(0, 60), why: `bash ${how} the value of ${name}, and the script sets ${name} to what zotbox cannot spell out` });
  };
  const prompt = (name: string, use: string, how: string) => {
    if (!promptHarmless(name, set, new Set())) uses.push({ text: use.slice(0, 60), why: `bash ${how} the value of ${name}, and the script sets ${name} to what zotbox cannot spell out` });
  };
  for (const [use, name] of code.matchAll(/\$\{(\w+)(?:\[[^\]]*\])?@P\}/gu)) prompt(name!, use, 'expands as a prompt (running its command substitutions)');
  // `${!X}` in any form but the keys of an array or the names with a prefix (`${!a[@]}`, `${!pre*}`).
  for (const [use, name] of code.matchAll(/\$\{!(\w+)(?!\[[@*]\]\}|[@*]\})/gu)) expanded(name!, use, 'expands the name (and its subscript) held in');
  if (set.values.has('PS4') || set.unknown.has('PS4')) prompt('PS4', 'PS4', 'expands as a prompt before each traced command (set -x)');
  return uses;
}

/**
 * The index of the bracket that closes the one opened just before `from` (`open`…`close`, nested), or the text's end. A
 * closer quoted or inside an expansion (`[[ $k == "]]" … ]]`, `(( ${x//)/} ))`) closes nothing (review s95r).
 */
function closing(code: string, from: number, open: string, close: string, nesting = 0): number {
  let depth = 1;
  for (let index = from; index < code.length; index++) {
    const skipped = quotedEnd(code, index, false, nesting);
    if (skipped !== undefined) {
      index = skipped - 1;
      continue;
    }
    if (code.startsWith(close, index) && --depth === 0) return index;
    if (code.startsWith(open, index)) depth++;
  }
  return code.length;
}

/** How deep quotes and expansions may nest before the reading takes the rest of the text as inside them. */
const MAX_QUOTE_NESTING = 64;

/**
 * The index after the quoted text or the expansion that starts at `index` (a `\` escape, '…', $'…', "…", `…`, ${…},
 * $(…)), or undefined where none starts there. Inside double quotes only `\`, ${…}, $(…) and `…` are special.
 */
function quotedEnd(code: string, index: number, inDoubleQuotes: boolean, nesting: number): number | undefined {
  const c = code[index];
  const next = code[index + 1];
  if (nesting > MAX_QUOTE_NESTING) return code.length;
  if (c === '\\') return index + 2;
  if (c === '$' && (next === '{' || next === '(')) return closing(code, index + 2, next, next === '{' ? '}' : ')', nesting + 1) + 1;
  if (c === '`') return quoteEnd(code, index + 1, '`', true);
  if (inDoubleQuotes) return undefined;
  if (c === "'") return quoteEnd(code, index + 1, "'", false);
  if (c === '$' && next === "'") return quoteEnd(code, index + 2, "'", true);
  if (c !== '"') return undefined;
  for (let at = index + 1; at < code.length; at++) {
    if (code[at] === '"') return at + 1;
    const inner = quotedEnd(code, at, true, nesting + 1);
    if (inner !== undefined) at = inner - 1;
  }
  return code.length;
}

/** The index after the `quote` that ends a quoted text from `from` (`\` escaping where `escapes`), or the text's end. */
function quoteEnd(code: string, from: number, quote: string, escapes: boolean): number {
  for (let at = from; at < code.length; at++) {
    if (escapes && code[at] === '\\') at++;
    else if (code[at] === quote) return at + 1;
  }
  return code.length;
}

/** `text` split at blanks outside quotes, escapes and expansions (read as quotedEnd reads them). */
function shellWords(text: string): string[] {
  const words: string[] = [];
  let word = '';
  for (let index = 0; index < text.length; index++) {
    const end = quotedEnd(text, index, false, 0);
    if (end !== undefined) {
      word += text.slice(index, end);
      index = end - 1;
    } else if (/\s/u.test(text[index]!)) {
      if (word !== '') words.push(word);
      word = '';
    } else word += text[index]!;
  }
  return word === '' ? words : [...words, word];
}

/**
 * The index of the `]]` that ends a `[[` opened just before `from`, as bash reads it: a word of its own, outside
 * quotes and expansions, and outside the parentheses of a `=~` pattern (`=~ ( ]] )`); or the text's end (review s97t).
 */
function conditionalEnd(code: string, from: number): number {
  let parentheses = 0;
  let pattern = false;
  for (let index = from; index < code.length; index++) {
    const end = quotedEnd(code, index, false, 0);
    if (end !== undefined) {
      index = end - 1;
      continue;
    }
    if (code.startsWith('=~', index)) pattern = true;
    else if (pattern && code[index] === '(') parentheses++;
    else if (pattern && code[index] === ')' && parentheses > 0) parentheses--;
    else if (parentheses === 0 && code.startsWith(']]', index) && /\s/u.test(code[index - 1] ?? '') && /^(?:[\s;&|)<>]|$)/u.test(code[index + 2] ?? '')) return index;
  }
  return code.length;
}

/** The text of every arithmetic place in `code` (see the head of this file); an associative array's key is no arithmetic. */
export function arithmeticRegions(code: string, associative: ReadonlySet<string>): string[] {
  const regions: string[] = [];
  for (let index = 0; index < code.length; index++) {
    const rest = code.slice(index, index + 2);
    if (rest === '((' || rest === '$[') {
      const end = rest === '((' ? closing(code, index + 2, '(', ')') : closing(code, index + 2, '[', ']');
      regions.push(code.slice(index + 2, end));
      continue;
    }
    if (rest === '[[') {
      const end = conditionalEnd(code, index + 2);
      // The operands of an arithmetic comparison: the words beside -eq, -ne, -lt, -le, -gt, -ge (a word whole, with
      // the `$(…)`, `${…}` and quotes in it).
      const words = shellWords(code.slice(index + 2, end));
      words.forEach((word, at) => {
        if (/^-(?:eq|ne|lt|le|gt|ge)$/u.test(word)) regions.push(`${words[at - 1] ?? ''} ${words[at + 1] ?? ''}`);
      });
      continue;
    }
    // A subscript: NAME[…] anywhere (an element, its length, an assignment, `unset 'a[X]'`), not `[[` nor a pattern.
    const subscript = /^([A-Za-z_]\w*)\[/u.exec(code.slice(index, index + 200));
    if (subscript !== null && (index === 0 || !/\w/u.test(code[index - 1]!))) {
      const open = index + subscript[0].length;
      const end = closing(code, open, '[', ']');
      if (!associative.has(subscript[1]!)) regions.push(code.slice(open, end));
      index += subscript[1]!.length - 1;
      continue;
    }
    // A substring's or a slice's offset and length: ${X:off:len}, ${a[@]:off}, ${@:off} (not ${X:-…}, :=, :+, :?).
    const slice = /^\$\{(?:[A-Za-z_]\w*(?:\[[^\]]*\])?|[@*]|\d+)(:(?![-=+?]))/u.exec(code.slice(index, index + 200));
    if (slice !== null) {
      const open = index + slice[0].length;
      regions.push(code.slice(open, closing(code, open, '{', '}')));
    }
  }
  // let's operands, and a declaration of integers (each value is evaluated when assigned), to the command's end.
  for (const match of code.matchAll(/(?:^|[\s;&|({!])let\s+([^;&|\n]*)/gmu)) regions.push(match[1]!);
  // An option is `-x` or `+x` (`declare +x -i n`), in any order.
  for (const match of code.matchAll(/(?:^|[\s;&|({])(?:declare|typeset|local|export|readonly)\s+(?:[-+]\w+\s+)*-\w*i\w*\s+([^;&|\n]*)/gmu)) regions.push(match[1]!);
  return regions;
}

/** What the script sets, with the names it may set to anything, arithmetic's own names, and whether any name may be reset. */
interface Taint extends ScriptValues {
  readonly arithmetic: ReadonlySet<string>;
  readonly anything: boolean;
  /** Sourced: every name may hold its sourcer's value, whatever the file assigns (evaluatedUses). */
  readonly inherited: boolean;
}

/**
 * The names whose value may come from outside the script's own assignments: one assigned in a way the reader does not
 * record (`2>/dev/null X=…`, after `then`: more `NAME=` in the text than values read), a loop's or `select`'s variable
 * wherever the loop stands, and one whose first mention is not a plain assignment at a line's start (a default
 * `[ -n "$X" ] || X=4` keeps the value a caller or sourcer gave X).
 */
function outsideValues(code: string, values: ScriptValues, regions: readonly string[], topLevel: (line: number) => boolean): string[] {
  const names = new Set<string>();
  for (const [, name] of code.matchAll(/\b(?:for|select)\s+([A-Za-z_]\w*)\b/gu)) names.add(name!);
  const written = new Map<string, number>();
  const assignment = /(?:^|[\s;&|({])([A-Za-z_]\w*)\+?=(?!=)/gmu;
  for (const [, name] of code.matchAll(assignment)) written.set(name!, (written.get(name!) ?? 0) + 1);
  // Arithmetic's own assignments (`for ((i=0; …))`) are checked where they stand.
  for (const region of regions) for (const [, name] of region.matchAll(assignment)) written.set(name!, (written.get(name!) ?? 0) - 1);
  for (const [name, count] of written) if (count > (values.values.get(name)?.length ?? 0)) names.add(name);
  // A mention spelled with quotes or a backslash (`M"A"X`, `MA\X`) is one too, as bash reads it after quote removal,
  // which keeps every line break: the earlier line of the two readings is the first mention's.
  const lines = code.split('\n');
  const writtenLines = lineOfIndex(code);
  const dequoted = code.replace(/["'\\]/gu, '');
  const spelledLines = lineOfIndex(dequoted);
  for (const name of values.values.keys()) {
    const mention = new RegExp(String.raw`(?<![\w])${name}(?!\w)`, 'u');
    const inCode = mention.exec(code);
    const inDequoted = mention.exec(dequoted);
    if (inCode === null && inDequoted === null) continue;
    const lineNumber = Math.min(inCode === null ? lines.length : writtenLines(inCode.index), inDequoted === null ? lines.length : spelledLines(inDequoted.index));
    // An assignment that surely runs first, before any mention: a whole command on a top-level line (a declaration's
    // too, not a prefix of another command: `X=3 cmd`), or arithmetic's there (`for ((i=0;`, `let i=0`), whose value
    // does not read the name itself (`X=$(( X * 2 ))` keeps the outside value).
    const line = lines[lineNumber]!;
    const value = String.raw`(?:"[^"]*"|'[^']*'|\$\((?:[^()]|\([^()]*\))*\)|[^\s;&|"'])*`;
    const sure = new RegExp(
      String.raw`^\s*(?:(?:(?:declare|typeset|readonly|export)\s+(?:[-+]\w+\s+)*)?${name}=(${value})\s*(?:$|;|&&|\|\||#)|(?:for\s*)?\(\(\s*${name}\s*=([^;)]*)|let\s+${name}=(\S*))`,
      'u',
    ).exec(line);
    const rhs = sure === null ? undefined : (sure[1] ?? sure[2] ?? sure[3] ?? '');
    if (rhs === undefined || new RegExp(String.raw`(?<!\w)${name}(?!\w)`, 'u').test(rhs) || !topLevel(lineNumber)) names.add(name);
  }
  return [...names];
}

/** The line (from 0) an index of `text` stands on. */
function lineOfIndex(text: string): (index: number) => number {
  const breaks = [...text.matchAll(/\n/gu)].map((match) => match.index);
  return (index) => {
    let low = 0;
    let high = breaks.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (breaks[middle]! < index) low = middle + 1;
      else high = middle;
    }
    return low;
  };
}

/**
 * The operands bash takes as a NAME that are written with an expansion (`printf -v "$k"`, `read "$k"`, `unset "$X"`,
 * `[[ -v $X ]]`, `declare "$k=…"`): bash evaluates a subscript in the name it is handed, so each is a place like
 * arithmetic's, its names checked.
 */
function nameOperands(code: string): string[] {
  const operands: string[] = [];
  for (const [, word] of code.matchAll(/(?:^|[\s;&|([])-v\s+("[^"\n]*"|'[^'\n]*'|[^\s;&|)\]]+)/gmu)) if (word!.includes('$')) operands.push(word!);
  for (const [, command, rest] of code.matchAll(/(?:^|[\s;&|({])(read|mapfile|readarray|unset|declare|typeset|local|export|readonly)\b([^;&|\n]*)/gmu)) {
    const words = shellWords(rest!);
    words.forEach((word, at) => {
      // An option's own argument (`read -p "$PROMPT"`) is no name; a value after `NAME=` is the value's.
      if (command === 'read' || command === 'mapfile' || command === 'readarray' ? /^-[pdtnNuiCcsO]$/u.test(words[at - 1] ?? '') : false) return;
      const name = word.split('=')[0]!;
      if (name.includes('$')) operands.push(name);
    });
  }
  return operands;
}

/** The command substitutions written in `region`: `$(…)` (not `$((`) and backquotes, each whole. */
function substitutionsIn(region: string): string[] {
  const found: string[] = [];
  for (let index = 0; index < region.length; index++) {
    if (region.startsWith('$(', index) && region[index + 2] !== '(') {
      const end = closing(region, index + 2, '(', ')');
      found.push(region.slice(index, end + 1));
      index = end;
    } else if (region[index] === '`') {
      const end = region.indexOf('`', index + 1);
      found.push(`$(${region.slice(index + 1, end === -1 ? region.length : end)})`);
      index = end === -1 ? region.length : end;
    }
  }
  return found;
}

/**
 * Whether every value the script gives `name` is one bash evaluates to no command: a number, a plain expression, a
 * count. A name the script does not set comes from outside it (the environment, a script that sources or runs it):
 * anything, unless arithmetic sets it here. Where something may set any name (SETS_ANY), only arithmetic's are known.
 */
function harmless(name: string, set: Taint, seen: Set<string>): boolean {
  if (seen.has(name)) return true;
  seen.add(name);
  if (set.unknown.has(name) || set.inherited) return false;
  const values = set.values.get(name);
  // bash's own numbers, where the script does not set them itself (`OPTIND=$(cat f)` is the script's value).
  if (values === undefined && SHELL_NUMBERS.has(name)) return true;
  if (values === undefined || set.anything) return set.arithmetic.has(name) && (values ?? []).every((value) => harmlessValue(value, set, seen));
  return values.every((value) => harmlessValue(value, set, seen));
}

function harmlessValue(value: string, set: Taint, seen: Set<string>): boolean {
  const marked = /[\uE000-\uEFFF]/gu;
  // An expansion glued to a name's letters or to another expansion (`${prefix}MAX`, `${a}${b}`) makes a name zotbox
  // cannot spell (review s95r).
  if (/[\uE000-\uEFFF](?=[\w\uE000-\uEFFF])|[A-Za-z_][\w]*[\uE000-\uEFFF]/u.test(value)) return false;
  for (const [mark] of value.matchAll(marked)) {
    const expansion = set.expansions[mark.charCodeAt(0) - EXPANSION_BASE] ?? '';
    const variable = /^\$\{?([A-Za-z_]\w*)\}?$/u.exec(expansion)?.[1];
    if (variable !== undefined ? !harmless(variable, set, seen) : !harmlessExpansion(expansion, set, seen)) return false;
  }
  const plain = unmark(value.replace(marked, '0')).replace(/\$\{?([A-Za-z_]\w*)\}?/gu, '$1');
  if (!/^[\w\s+\-*/%<>=!&|^~?:(),.]*$/u.test(plain)) return false;
  return [...plain.matchAll(NAME)].every(([inner]) => harmless(inner, set, seen));
}

/** The names the shell sets itself, whose text a prompt may show (not evaluate again): BASH_SOURCE, LINENO... */
const SHELL_SET = /^(?:BASH_SOURCE|BASH_LINENO|LINENO|FUNCNAME|BASH_COMMAND|HOSTNAME|PWD|SECONDS|BASHPID|PPID|UID|EUID)$/u;

/**
 * Whether a value bash expands as a prompt runs nothing: written out with no command substitution nor arithmetic
 * (`${X}` in it shows X's text, not evaluated again), and what it took from other names at its assignment the same.
 */
function promptHarmless(name: string, set: Taint, seen: Set<string>): boolean {
  if (seen.has(name) || SHELL_SET.test(name)) return true;
  seen.add(name);
  const values = set.values.get(name);
  if (set.unknown.has(name) || set.anything || set.inherited || values === undefined) return false;
  return values.every((value) => {
    for (const [mark] of value.matchAll(/[\uE000-\uEFFF]/gu)) {
      const variable = /^\$\{?([A-Za-z_]\w*)\}?$/u.exec(set.expansions[mark.charCodeAt(0) - EXPANSION_BASE] ?? '')?.[1];
      if (variable === undefined || !promptHarmless(variable, set, seen)) return false;
    }
    return !/\$[([]|`/u.test(unmark(value.replace(/[\uE000-\uEFFF]/gu, '')));
  });
}

/** `$((…))` of harmless names, `${#X}`, a count, `$?`/`$#`/`$$`: a number. */
function harmlessExpansion(expansion: string, set: Taint, seen: Set<string>): boolean {
  if (/^\$(?:[?#$!]|\{#\w+(?:\[[@*]\])?\})$/u.test(expansion) || COUNTS.test(expansion)) return true;
  const body = /^\$\(\((.*)\)\)$/su.exec(expansion)?.[1];
  return body !== undefined && harmlessValue(body, set, seen);
}
