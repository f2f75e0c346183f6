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
/** The file's own folder as node spells it. */
const OWN_FOLDER = String.raw`\b__dirname\b|\bimport\s*\.\s*meta\s*\.\s*dirname\b|\bpath\s*\.\s*dirname\s*\(\s*__filename\s*\)`;
/** A name bound once, for good, to the file's own folder (`const here = __dirname;`). */
const BOUND = new RegExp(String.raw`\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:path\s*\.\s*(?:join|resolve)\s*\(\s*)?(?:${OWN_FOLDER})\s*\)?\s*(?:;|$)`, 'gmu');

/** What a name written out may be built from besides literals: the file's own folder (by a name bound to it too) and path's joins. */
function ownParts(code: string): { readonly parts: RegExp; readonly folder: RegExp } {
  const bound = [...code.matchAll(BOUND)]
    .map((match) => match[1]!)
    .filter((name) => [...code.matchAll(new RegExp(String.raw`(?<![\w$.])${name.replace(/\$/gu, '\\$')}\s*(?:[-+*/]?=(?!=)|\+\+|--)`, 'gu'))].length === 1);
  const folder = [OWN_FOLDER, ...bound.map((name) => String.raw`(?<![\w$.])${name.replace(/\$/gu, '\\$')}(?![\w$])`)].join('|');
  return { parts: new RegExp(String.raw`\bpath\s*\.\s*(?:posix\s*\.\s*)?(?:join|resolve)\b|${folder}|[+,()\s]`, 'gu'), folder: new RegExp(folder, 'u') };
}
const LITERAL = '\u0001';

/** The computed loads of `code` (JavaScript, its escapes spelled out). */
export function nodeComputedLoads(code: string): ComputedLoads {
  // In JavaScript only a template literal expands (`${…}`); literalsOf also marks Perl's `@name` in "…".
  const literals = literalsOf(code, 'node').map((literal) => ({ ...literal, expands: code[literal.start] === '`' && literal.text.includes('${') }));
  const folders: { folder: string; line: number }[] = [];
  const unknown: { call: string; line: number }[] = [];
  const own = ownParts(code);
  for (const match of code.matchAll(LOAD)) {
    if (literals.some((literal) => match.index > literal.start && match.index < literal.end)) continue;
    const from = match.index + match[0].length;
    const argument = argumentAt(code, from, true, literals);
    const inside = literals.filter((literal) => literal.start >= from && literal.end <= from + argument.length);
    const shape = shapeOf(code, from, from + argument.length, inside);
    // Only literals that expand nothing, joined to the file's own folder: read as the program's literal names already.
    if (!inside.some((literal) => literal.expands) && shape.replaceAll(LITERAL, '').replace(own.parts, '') === '') continue;
    const line = code.slice(0, match.index).split('\n').length - 1;
    const folder = leadingFolder(code, from, inside[0], own);
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
function leadingFolder(code: string, from: number, first: Literal | undefined, own: ReturnType<typeof ownParts>): string | undefined {
  if (first === undefined) return undefined;
  const before = code.slice(from, first.start);
  if (before.replace(own.parts, '') !== '') return undefined;
  const fixed = first.text.split('${')[0]!;
  // A segment of path.join(__dirname, "rules", name): the whole literal is a folder.
  const segment = !first.expands && /^\s*,/u.test(code.slice(first.end));
  const folder = segment ? `${fixed.replace(/\/+$/u, '')}/` : fixed.slice(0, fixed.lastIndexOf('/') + 1);
  const afterOwn = own.folder.test(before);
  if (afterOwn ? folder === '' : !/^\.{1,2}\//u.test(folder)) return undefined;
  return afterOwn ? `./${folder.replace(/^\/+/u, '')}` : folder;
}
