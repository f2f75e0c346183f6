// A JavaScript program's loads whose name it computes: `require(`./rules/${name}`)`, `require(__dirname + "/rules/" +
// name)`, `require(dir + "/x")`, `import(name)`. Where the name starts with a folder written out (the file's own,
// through `./`, `../` or `__dirname`), that folder is what it may load from, whole; a name computed from its start
// (a variable, `process.cwd()`, a call) may be any file (closed world: unresolved). Pure, no I/O.
import { argumentAt, type Literal, literalsOf } from './inline-program-runs.js';

/** The folders computed loads reach into (relative to the file's own folder) and the loads zotbox cannot place, by line. */
export interface ComputedLoads {
  readonly folders: readonly { readonly folder: string; readonly line: number }[];
  readonly unknown: readonly { readonly call: string; readonly line: number }[];
}

/** require(…), require.resolve(…), import(…), and a method require (`module.require`, `r.main.require`). */
const LOAD = /(?<![\w$])(?:require(?:\s*\.\s*resolve)?|import)\s*\(/gu;
/** What a name written out may be built from besides literals: the file's own folder and path's joins. */
const OWN_PARTS = /\bpath\s*\.\s*(?:posix\s*\.\s*)?(?:join|resolve)\b|\b__dirname\b|[+,()\s]/gu;
const LITERAL = '\u0001';

/** The computed loads of `code` (JavaScript, its escapes spelled out). */
export function nodeComputedLoads(code: string): ComputedLoads {
  // In JavaScript only a template literal expands (`${…}`); literalsOf also marks Perl's `@name` in "…".
  const literals = literalsOf(code, 'node').map((literal) => ({ ...literal, expands: code[literal.start] === '`' && literal.text.includes('${') }));
  const folders: { folder: string; line: number }[] = [];
  const unknown: { call: string; line: number }[] = [];
  for (const match of code.matchAll(LOAD)) {
    if (literals.some((literal) => match.index > literal.start && match.index < literal.end)) continue;
    const from = match.index + match[0].length;
    const argument = argumentAt(code, from, true, literals);
    const inside = literals.filter((literal) => literal.start >= from && literal.end <= from + argument.length);
    const shape = shapeOf(code, from, from + argument.length, inside);
    // Only literals that expand nothing, joined to the file's own folder: read as the program's literal names already.
    if (!inside.some((literal) => literal.expands) && shape.replaceAll(LITERAL, '').replace(OWN_PARTS, '') === '') continue;
    const line = code.slice(0, match.index).split('\n').length - 1;
    const folder = leadingFolder(code, from, inside[0]);
    if (folder !== undefined) folders.push({ folder, line });
    else unknown.push({ call: code.slice(match.index, from + argument.length + 1).slice(0, 60), line });
  }
  return { folders, unknown };
}

/** The argument's text with each literal one mark. */
function shapeOf(code: string, from: number, to: number, inside: readonly Literal[]): string {
  let shape = '';
  let at = from;
  for (const literal of inside) {
    shape += code.slice(at, literal.start) + LITERAL;
    at = literal.end;
  }
  return shape + code.slice(at, to);
}

/**
 * The folder a computed name starts in, relative to the file's own: its first literal's text up to the last `/` before
 * anything computed, when nothing but the file's own folder comes before it and it is relative (`./`, `../`) or follows
 * `__dirname`. Undefined when the name may start anywhere.
 */
function leadingFolder(code: string, from: number, first: Literal | undefined): string | undefined {
  if (first === undefined) return undefined;
  const before = code.slice(from, first.start);
  if (before.replace(OWN_PARTS, '') !== '') return undefined;
  const fixed = first.text.split('${')[0]!;
  // A segment of path.join(__dirname, "rules", name): the whole literal is a folder.
  const segment = !first.expands && /^\s*,/u.test(code.slice(first.end));
  const folder = segment ? `${fixed.replace(/\/+$/u, '')}/` : fixed.slice(0, fixed.lastIndexOf('/') + 1);
  const afterOwn = /\b__dirname\b/u.test(before);
  if (afterOwn ? folder === '' : !/^\.{1,2}\//u.test(folder)) return undefined;
  return afterOwn ? `./${folder.replace(/^\/+/u, '')}` : folder;
}
