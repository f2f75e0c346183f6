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
/** A command whose output is a count: wc, grep -c, git rev-list --count. */
const COUNTS = /^\$\((?:[^()]*\|\s*)?(?:wc(?:\s+-[lcmw]+)*(?:\s+[^|;&]*)?|grep\s+(?:-\w*c\w*|--count)\b[^|;&]*|git\s+rev-list\s+--count\b[^|;&]*)\s*\)$/u;

/** The uses in `text` (a whole script) of a value bash evaluates that the script may have set to code. */
export function evaluatedUses(text: string, values: ScriptValues): EvaluatedUse[] {
  const code = text.replace(/^\s*#.*$/gmu, '');
  // An array's elements (`a=('$(…)' b)`) are not among the values read: any array the script sets is unknown.
  const arrays = [...code.matchAll(/(?:^|[\s;&|({])([A-Za-z_]\w*)\+?=\(/gmu)].map((match) => match[1]!);
  const set = { ...values, unknown: new Set([...values.unknown, ...arrays]) };
  const associative = new Set([...code.matchAll(/\b(?:declare|typeset|local)\s+(?:-\w+\s+)*-\w*A\w*\s+(\w+)/gu)].map((match) => match[1]!));
  const uses: EvaluatedUse[] = [];
  for (const region of arithmeticRegions(code, associative)) {
    const shown = region.replace(/\s+/gu, ' ').trim().slice(0, 60);
    if (POSITIONAL.test(region)) uses.push({ text: shown, why: "bash evaluates a caller's argument there as an expression, and an array subscript in it runs commands" });
    for (const [name] of region.matchAll(NAME))
      if (!harmless(name, set, new Set()))
        uses.push({ text: shown, why: `bash evaluates ${name} there as an expression, and an array subscript in its value runs commands; the script sets ${name} to what zotbox cannot spell out` });
  }
  const expanded = (name: string, use: string, how: string) => {
    if (!harmless(name, set, new Set())) uses.push({ text: use.slice(0, 60), why: `bash ${how} the value of ${name}, and the script sets ${name} to what zotbox cannot spell out` });
  };
  for (const [use, name] of code.matchAll(/\$\{(\w+)(?:\[[^\]]*\])?@P\}/gu)) expanded(name!, use, 'expands as a prompt (running its command substitutions)');
  for (const [use, name] of code.matchAll(/\$\{!(\w+)\}/gu)) expanded(name!, use, 'expands the name (and its subscript) held in');
  if (set.values.has('PS4') || set.unknown.has('PS4')) expanded('PS4', 'PS4', 'expands as a prompt before each traced command (set -x)');
  return uses;
}

/** The index after the bracket that closes the one opened just before `from` (`open`…`close`, nested), or the text's end. */
function closing(code: string, from: number, open: string, close: string): number {
  let depth = 1;
  for (let index = from; index < code.length; index++) {
    if (code.startsWith(close, index) && --depth === 0) return index;
    if (code.startsWith(open, index)) depth++;
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
      const end = closing(code, index + 2, '[[', ']]');
      // The operands of an arithmetic comparison: the words beside -eq, -ne, -lt, -le, -gt, -ge.
      const words = code.slice(index + 2, end).split(/\s+/u);
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
    const slice = /^\$\{(?:[A-Za-z_]\w*(?:\[[@*]\])?|[@*])(:(?![-=+?]))/u.exec(code.slice(index, index + 200));
    if (slice !== null) {
      const open = index + slice[0].length;
      regions.push(code.slice(open, closing(code, open, '{', '}')));
    }
  }
  // let's operands, and a declaration of integers (each value is evaluated when assigned), to the command's end.
  for (const match of code.matchAll(/(?:^|[\s;&|({!])let\s+([^;&|\n]*)/gmu)) regions.push(match[1]!);
  for (const match of code.matchAll(/(?:^|[\s;&|({])(?:declare|typeset|local|export|readonly)\s+(?:-\w+\s+)*-\w*i\w*\s+([^;&|\n]*)/gmu)) regions.push(match[1]!);
  return regions;
}

/** Whether every value the script gives `name` is one bash evaluates to no command: a number, a plain expression, a count. */
function harmless(name: string, set: ScriptValues, seen: Set<string>): boolean {
  if (seen.has(name)) return true;
  seen.add(name);
  if (set.unknown.has(name)) return false;
  // A name the script does not set is the user's environment's (or unset: 0).
  return (set.values.get(name) ?? []).every((value) => harmlessValue(value, set, seen));
}

function harmlessValue(value: string, set: ScriptValues, seen: Set<string>): boolean {
  const marked = /[\uE000-\uEFFF]/gu;
  for (const [mark] of value.matchAll(marked)) {
    const expansion = set.expansions[mark.charCodeAt(0) - EXPANSION_BASE] ?? '';
    const variable = /^\$\{?([A-Za-z_]\w*)\}?$/u.exec(expansion)?.[1];
    if (variable !== undefined ? !harmless(variable, set, seen) : !harmlessExpansion(expansion, set, seen)) return false;
  }
  const plain = unmark(value.replace(marked, '0')).replace(/\$\{?([A-Za-z_]\w*)\}?/gu, '$1');
  if (!/^[\w\s+\-*/%<>=!&|^~?:(),.]*$/u.test(plain)) return false;
  return [...plain.matchAll(NAME)].every(([inner]) => harmless(inner, set, seen));
}

/** `$((…))` of harmless names, `${#X}`, a count, `$?`/`$#`/`$$`: a number. */
function harmlessExpansion(expansion: string, set: ScriptValues, seen: Set<string>): boolean {
  if (/^\$(?:[?#$!]|\{#\w+(?:\[[@*]\])?\})$/u.test(expansion) || COUNTS.test(expansion)) return true;
  const body = /^\$\(\((.*)\)\)$/su.exec(expansion)?.[1];
  return body !== undefined && harmlessValue(body, set, seen);
}
