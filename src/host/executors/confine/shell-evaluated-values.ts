// Values bash evaluates as code where they are used, not where they are set: arithmetic (`(( n > 0 ))`, `$((n))`,
// `let`, `[[ $n -gt 0 ]]`, an array subscript, a substring's offset) evaluates a name's value as an expression, and an
// array subscript in that value (`a[$(sh x.sh)]`) runs its command substitution; `${X@P}` and PS4 (under `set -x`)
// expand a value as a prompt, command substitutions included; `${!X}` expands the name X holds, its subscript too.
// Where a script sets such a name to what zotbox cannot spell out as harmless (a line it reads, a command's output, a
// value built of quoted code), that use is unresolved: the check is on the use, however the value was made.
// Pure, no I/O. Read by pattern over the script's text: more is unresolved, never less.
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

const NAME = /(?<!\w)[A-Za-z_]\w*/gu;
/** The text of the arithmetic contexts: `((…))` and `$((…))`, `let …`, a subscript, a substring's offset and length. */
const ARITHMETIC = [/\(\((.*?)\)\)/gu, /(?:^|[;&|({]|\bthen|\bdo)\s*let\s+([^;&|\n]*)/gmu, /\$\{!?\w+\[([^\]]*)\]/gu, /(?:^|[\s;&|(])\w+\[([^\]]*)\]\+?=/gmu, /\$\{\w+:(?![-=+?])([^}]*)\}/gu];
/** `[[ A -gt B ]]`: each operand of an arithmetic comparison is evaluated as an expression. */
const COMPARISON = /\[\[([^\]]*?)\]\]/gu;
const COMPARED = /(\S+)\s+-(?:eq|ne|lt|le|gt|ge)\s+(\S+)/gu;
/** A command whose output is a count: wc, grep -c, git rev-list --count. */
const COUNTS = /^\$\((?:[^()]*\|\s*)?(?:wc(?:\s+-[lcmw]+)*(?:\s+[^|;&]*)?|grep\s+(?:-\w*c\w*|--count)\b[^|;&]*|git\s+rev-list\s+--count\b[^|;&]*)\s*\)$/u;

/** The uses in `text` (a whole script) of a value bash evaluates that the script may have set to code. */
export function evaluatedUses(text: string, values: ScriptValues): EvaluatedUse[] {
  const code = text.replace(/^\s*#.*$/gmu, '');
  // An array's elements (`a=('$(…)' b)`) are not among the values read: any array the script sets is unknown.
  const arrays = [...code.matchAll(/(?:^|[\s;&|({])([A-Za-z_]\w*)\+?=\(/gmu)].map((match) => match[1]!);
  const set = { ...values, unknown: new Set([...values.unknown, ...arrays]) };
  const uses: EvaluatedUse[] = [];
  // An associative array's subscript is a string, expanded once: no arithmetic.
  const associative = new Set([...code.matchAll(/\b(?:declare|typeset|local)\s+(?:-\w+\s+)*-\w*A\w*\s+(\w+)/gu)].map((match) => match[1]!));
  const arithmetic = (body: string, use: string) => {
    const array = /(\w+)\[/u.exec(use)?.[1];
    if (array !== undefined && associative.has(array)) return;
    for (const [name] of body.matchAll(NAME))
      if (!harmless(name, set, new Set()))
        uses.push({
          text: use.slice(0, 60),
          why: `bash evaluates ${name} there as an expression, and an array subscript in its value runs commands; the script sets ${name} to what zotbox cannot spell out`,
        });
  };
  for (const pattern of ARITHMETIC) for (const match of code.matchAll(pattern)) arithmetic(match[1] ?? '', match[0].trim());
  for (const [test, body] of code.matchAll(COMPARISON)) for (const compared of body!.matchAll(COMPARED)) arithmetic(`${compared[1] ?? ''} ${compared[2] ?? ''}`, test);
  const expanded = (name: string, use: string, how: string) => {
    if (!harmless(name, set, new Set())) uses.push({ text: use.slice(0, 60), why: `bash ${how} the value of ${name}, and the script sets ${name} to what zotbox cannot spell out` });
  };
  for (const [use, name] of code.matchAll(/\$\{(\w+)(?:\[[^\]]*\])?@P\}/gu)) expanded(name!, use, 'expands as a prompt (running its command substitutions)');
  for (const [use, name] of code.matchAll(/\$\{!(\w+)\}/gu)) expanded(name!, use, 'expands the name (and its subscript) held in');
  if (set.values.has('PS4') || set.unknown.has('PS4')) expanded('PS4', 'PS4', 'expands as a prompt before each traced command (set -x)');
  return uses;
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
