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

/**
 * The calls that load or run a file by the name they are given: require(…), require.resolve(…), import(…), a method
 * require (`module.require`, `r.main.require`), child_process's fork(…), a Worker (`new Worker(x)`, `new (…Worker)(x)`),
 * and a name bound to require or to createRequire(…) (`const r = require;`, `const req = createRequire(import.meta.url);`).
 */
function loadCalls(code: string): RegExp {
  const aliases = [...code.matchAll(/\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:require|(?:[\w$.]+\s*\.\s*)?createRequire\s*\([^()]*(?:\([^()]*\)[^()]*)*\))\s*(?:;|$)/gmu)].map((match) =>
    match[1]!.replace(/\$/gu, '\\$'),
  );
  return new RegExp(
    String.raw`(?<![\w$])(?:require(?:\s*\.\s*resolve)?|import|fork|Worker\s*\)?|createRequire\s*\([^()]*(?:\([^()]*\)[^()]*)*\)${aliases.map((alias) => `|${alias}`).join('')})\s*\(`,
    'gu',
  );
}

/**
 * What runs code by a name or a text the program computes, outside those calls: require or a module's loader used as
 * a value (`Reflect.apply(require, …)`, `require.call`, `module.constructor._load`, `Module._load`,
 * `require.extensions`, an object's `require:` key excepted), createRequire's require kept where zotbox does not follow it, eval, Function, node:vm,
 * process.dlopen. Read on the code with comments and string contents blanked.
 */
const RUNS_COMPUTED =
  /(?<![\w$.]|\btypeof\s|\b(?:const|let|var)\s+)require\b(?!\s*(?:\(|:|\.\s*(?:resolve|main|cache)\b))|\b_load\b|\bmodule\s*\.\s*constructor\b|\bModule\s*\.\s*(?:prototype|_\w+)|(?<![\w$.])eval\s*\(|\bFunction\s*\(|\bnode:vm\b|\b(?:runInThisContext|runInNewContext|runInContext|compileFunction|SourceTextModule)\b|\bdlopen\b/gu;
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
  // Calls whose result their literals decide, which zotbox reads where they stand (node-module-resolution.ts, URLs).
  const literalCalls = String.raw`\bnew\s+URL\b|\bimport\s*\.\s*meta\s*\.\s*(?:resolve|url)\b|\brequire\s*\.\s*resolve\b|\b(?:url\s*\.\s*)?(?:fileURLToPath|pathToFileURL)\b`;
  return { parts: new RegExp(String.raw`\bpath\s*\.\s*(?:posix\s*\.\s*)?(?:join|resolve)\b|${literalCalls}|${folder}|[+,()\s]`, 'gu'), folder: new RegExp(folder, 'u') };
}
const LITERAL = '\u0001';

/** The computed loads of `code` (JavaScript, its escapes spelled out). */
export function nodeComputedLoads(code: string): ComputedLoads {
  // In JavaScript only a template literal expands (`${…}`); literalsOf also marks Perl's `@name` in "…".
  const literals = literalsOf(code, 'node').map((literal) => ({ ...literal, expands: code[literal.start] === '`' && literal.text.includes('${') }));
  const folders: { folder: string; line: number }[] = [];
  const unknown: { call: string; line: number }[] = [];
  const own = ownParts(code);
  const lineOf = (index: number) => code.slice(0, index).split('\n').length - 1;
  for (const match of codeOnly(code, literals).matchAll(RUNS_COMPUTED)) unknown.push({ call: code.slice(match.index, match.index + 60).split('\n')[0]!, line: lineOf(match.index) });
  for (const match of code.matchAll(loadCalls(code))) {
    if (literals.some((literal) => match.index > literal.start && match.index < literal.end)) continue;
    const from = match.index + match[0].length;
    const argument = argumentAt(code, from, true, literals);
    const inside = literals.filter((literal) => literal.start >= from && literal.end <= from + argument.length);
    const shape = shapeOf(code, from, from + argument.length, inside);
    // Only literals that expand nothing, joined to the file's own folder: read as the program's literal names already.
    if (!inside.some((literal) => literal.expands) && shape.replaceAll(LITERAL, '').replace(own.parts, '') === '') continue;
    // A loop's variable over a list of literals, or a name bound once to one: the literals are read as names already.
    if (literalBound(code, argument.trim(), literals)) continue;
    const line = lineOf(match.index);
    const folder = leadingFolder(code, from, inside[0], own);
    if (folder !== undefined) folders.push({ folder, line });
    else unknown.push({ call: code.slice(match.index, from + argument.length + 1).slice(0, 60), line });
  }
  return { folders, unknown };
}

/** `code` with its comments and its string literals' contents blanked (so a word in a message is no call). */
function codeOnly(code: string, literals: readonly Literal[]): string {
  let out = code;
  for (const literal of literals) out = out.slice(0, literal.start + 1) + ' '.repeat(Math.max(0, literal.end - literal.start - 2)) + out.slice(literal.end - 1);
  return out.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//gu, (comment) => comment.replace(/[^\n]/gu, ' '));
}

/** Whether `name` is only ever a loop's variable over a list of plain literals, or bound once to a plain literal. */
function literalBound(code: string, name: string, literals: readonly Literal[]): boolean {
  if (!/^[A-Za-z_$][\w$]*$/u.test(name)) return false;
  const word = name.replace(/\$/gu, '\\$');
  const plain = String.raw`(?:"[^"\\\n]*"|'[^'\\\n]*'|\x60[^\x60\\\n$]*\x60)`;
  const bindings = [
    ...codeOnly(code, literals).matchAll(
      new RegExp(String.raw`(?<![\w$.])${word}\s*(?:[-+*/]?=(?!=)|\+\+|--)|\b(?:const|let|var)\s+${word}\b|\bfunction\b[^(]*\([^)]*(?<![\w$])${word}(?![\w$])`, 'gu'),
    ),
  ];
  if (bindings.length !== 1) return false;
  return new RegExp(String.raw`\bfor\s*\(\s*(?:const|let|var)\s+${word}\s+of\s+\[\s*${plain}(?:\s*,\s*${plain})*\s*,?\s*\]\s*\)|\b(?:const|let|var)\s+${word}\s*=\s*${plain}\s*(?:;|$)`, 'mu').test(
    code,
  );
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
