// The directories Python code puts on sys.path (`sys.path.insert/append/extend`, `sys.path[:0] = [...]`,
// `sys.path = [...] + sys.path`, `site.addsitedir`, under any name: python-search-path-uses.ts), read by a closed grammar of path expressions anchored at the
// program file (file-relative-paths.ts): `__file__`, abspath/realpath/normpath, Path(...), .resolve()/.absolute(),
// .parent/.parents[N]/dirname one step up, os.pardir/"..", os.path.join, `/`, .joinpath, str(), literals and a name
// bound once to such an expression. Anything else is `computed`: unresolved. Pure, no I/O.

import {
  absolutePath,
  concatenated,
  directoryOf,
  isAncestor,
  isFileValue,
  joinPath,
  literalPath,
  type PathValue,
  programFile,
  type SearchDirectory,
  searchDirectory,
  singleBinding,
  workingDirectory,
} from './file-relative-paths.js';
import type { InterpreterName } from './interpreter-operands.js';
import { pathEntryNames, pythonImportNames, searchRootNames } from './python-imports.js';
import { pythonLogicalLines } from './python-logical-lines.js';
import { pathTokens, TokenCursor } from './path-expression-tokens.js';
import { searchPathUses } from './python-search-path-uses.js';

/** The expression a sys.path change starts at `index` (to the bracket that closes its call, or the line's end). */
export function argumentAt(code: string, index: number): string {
  let depth = 0;
  let end = index;
  for (; end < code.length && (code[end] !== '\n' || depth > 0); end++) {
    if ('([{'.includes(code[end]!)) depth++;
    else if (')]}'.includes(code[end]!) && --depth < 0) break;
  }
  return code.slice(index, end).trim();
}

/** The text after an argument list's first top-level comma. */
function afterFirstArgument(list: string): string | undefined {
  let depth = 0;
  for (let at = 0; at < list.length; at++) {
    if ('([{'.includes(list[at]!)) depth++;
    else if (')]}'.includes(list[at]!)) depth--;
    else if (list[at] === ',' && depth === 0) return list.slice(at + 1).trim();
  }
  return undefined;
}

/** What a Python expression is, as far as a search path goes. */
type Reading =
  | { readonly kind: 'path'; readonly value: PathValue }
  | { readonly kind: 'list'; readonly values: readonly PathValue[] }
  | { readonly kind: 'sys.path' }
  | { readonly kind: 'number'; readonly value: number };

/** The module each name a file's imports bind stands for (`import os.path as osp` → osp: os.path; `from pathlib import Path`). */
function importAliases(code: string): Map<string, string> {
  const aliases = new Map<string, string>();
  for (const [, list] of code.matchAll(/(?:^|(?<=:))[ \t]*import[ \t]+([^\n#;]+)/gmu))
    for (const item of list!.split(',')) {
      const [module, , alias] = item.trim().split(/\s+/u);
      if (module !== undefined) aliases.set(alias ?? module.split('.')[0]!, alias === undefined ? module.split('.')[0]! : module);
    }
  for (const [, module, list] of code.matchAll(/(?:^|(?<=:))[ \t]*from[ \t]+([\w.]+)[ \t]+import[ \t]+\(?([^)\n#;]+)/gmu))
    for (const item of list!.split(',')) {
      const [name, , alias] = item.trim().split(/\s+/u);
      if (name !== undefined && name !== '') aliases.set(alias ?? name, `${module!}.${name}`);
    }
  return aliases;
}

/** Calls and constants the grammar knows, by their full dotted name. */
const PATH_CONSTRUCTORS = new Set(['pathlib.Path', 'pathlib.PurePath', 'pathlib.PosixPath', 'pathlib.PurePosixPath']);
const IDENTITY = new Set(['str', 'os.fspath', 'os.path.normpath']);
const ABSOLUTE = new Set(['os.path.abspath', 'os.path.realpath']);
const CURRENT = new Set(['os.getcwd', 'pathlib.Path.cwd']);

/** The sys.path entries one Python expression adds, by the closed grammar; undefined where it leaves it. */
class PythonReader {
  private readonly aliases: Map<string, string>;
  constructor(
    private readonly code: string,
    private readonly depth = 0,
  ) {
    this.aliases = importAliases(code);
  }

  read(text: string): Reading | undefined {
    const tokens = pathTokens(text);
    if (tokens === undefined || this.depth > 8) return undefined;
    const cursor = new TokenCursor(tokens);
    const reading = this.sum(cursor);
    return cursor.done() ? reading : undefined;
  }

  private canonical(dotted: string): string {
    const [first, ...rest] = dotted.split('.');
    const module = this.aliases.get(first!) ?? first!;
    return [module, ...rest].join('.');
  }

  private sum(cursor: TokenCursor): Reading | undefined {
    let left = this.quotient(cursor);
    while (left !== undefined && cursor.take('+')) left = added(left, this.quotient(cursor));
    return left;
  }

  private quotient(cursor: TokenCursor): Reading | undefined {
    let left = this.primary(cursor);
    while (left !== undefined && cursor.take('/')) {
      const right = this.primary(cursor);
      left = left.kind === 'path' && right?.kind === 'path' ? pathReading(joined(left.value, right.value)) : undefined;
    }
    return left;
  }

  private arguments(cursor: TokenCursor): { values: Reading[]; keywords: string[] } | undefined {
    const values: Reading[] = [];
    const keywords: string[] = [];
    while (!cursor.take(')')) {
      const keyword = cursor.peek(1);
      if (cursor.peek()?.kind === 'name' && keyword?.kind === 'punct' && keyword.text === '=') {
        keywords.push(`${cursor.name()!}=${(cursor.take('='), cursor.name() ?? '?')}`);
      } else {
        const value = this.sum(cursor);
        if (value === undefined) return undefined;
        values.push(value);
      }
      if (!cursor.take(',') && cursor.peek()?.kind !== 'punct') return undefined;
    }
    return { values, keywords };
  }

  private primary(cursor: TokenCursor): Reading | undefined {
    let reading = this.atom(cursor);
    while (reading !== undefined && cursor.take('.')) reading = this.attribute(reading, cursor.name(), cursor);
    return reading;
  }

  /** `.parent`, `.parents[N]`, `.resolve()`, `.absolute()`, `.joinpath(...)`, `.as_posix()` of a path. */
  private attribute(reading: Reading, name: string | undefined, cursor: TokenCursor): Reading | undefined {
    if (reading.kind !== 'path') return undefined;
    const value = reading.value;
    if (name === 'parent') return pathReading(directoryOf(value));
    if (name === 'parents' && cursor.take('[')) {
      const index = cursor.peek();
      if (index?.kind !== 'number') return undefined;
      cursor.at++;
      if (!cursor.take(']')) return undefined;
      let up: PathValue | undefined = value;
      for (let step = 0; step <= Number(index.text) && up !== undefined; step++) up = directoryOf(up);
      return pathReading(up);
    }
    if (!cursor.take('(')) return undefined;
    const call = this.arguments(cursor);
    if (call === undefined) return undefined;
    if ((name === 'resolve' || name === 'absolute') && call.values.length === 0 && call.keywords.every((keyword) => /^strict=(True|False)$/u.test(keyword))) return pathReading(absolutePath(value));
    if (name === 'as_posix' && call.values.length === 0 && call.keywords.length === 0) return reading;
    if (name === 'joinpath' && call.keywords.length === 0) return pathReading(joinedAll(value, call.values));
    return undefined;
  }

  private atom(cursor: TokenCursor): Reading | undefined {
    const token = cursor.peek();
    if (token === undefined) return undefined;
    if (token.kind === 'string') {
      cursor.at++;
      if (/^(?:[fF][rR]?|[rR][fF])$/u.test(token.prefix)) return this.formatted(token.body);
      return /^[rRuU]?$/u.test(token.prefix) ? pathReading(literalPath(token.body)) : undefined;
    }
    if (token.kind === 'number') {
      cursor.at++;
      return { kind: 'number', value: Number(token.text) };
    }
    if (cursor.take('(')) {
      const inner = this.sum(cursor);
      return cursor.take(')') ? inner : undefined;
    }
    if (cursor.take('[')) {
      const values: PathValue[] = [];
      while (!cursor.take(']')) {
        const item = this.sum(cursor);
        if (item?.kind !== 'path') return undefined;
        values.push(item.value);
        if (!cursor.take(',') && cursor.peek()?.kind !== 'punct') return undefined;
      }
      return { kind: 'list', values };
    }
    return this.named(cursor);
  }

  /**
   * An f-string whose every substitution is a path the grammar reads (`f"{os.path.dirname(__file__)}/../lib"`): the
   * parts concatenated. A conversion, format spec, `=` or `{{` is undefined.
   */
  private formatted(body: string): Reading | undefined {
    let value: PathValue | undefined = literalPath('');
    for (let at = 0; at < body.length && value !== undefined; ) {
      const open = body.indexOf('{', at);
      const text = body.slice(at, open === -1 ? body.length : open);
      if (text.includes('}')) return undefined;
      value = concatenated(value, literalPath(text));
      if (open === -1 || value === undefined) break;
      let depth = 0;
      let close = open + 1;
      for (; close < body.length && (body[close] !== '}' || depth > 0); close++) {
        if ('([{'.includes(body[close]!)) depth++;
        else if (')]}'.includes(body[close]!)) depth--;
        else if ('!:='.includes(body[close]!) && depth === 0) return undefined;
      }
      if (close >= body.length || close === open + 1) return undefined;
      const inner = this.read(body.slice(open + 1, close));
      value = inner?.kind === 'path' ? concatenated(value, inner.value) : undefined;
      at = close + 1;
    }
    return pathReading(value);
  }

  /** A dotted name: a constant, a call the grammar knows, or a name bound once to an expression it reads. */
  private named(cursor: TokenCursor): Reading | undefined {
    const parts = [cursor.name()];
    while (cursor.peek()?.kind === 'punct' && (cursor.peek() as { text: string }).text === '.' && cursor.peek(1)?.kind === 'name') {
      const next = [...parts, (cursor.peek(1) as { text: string }).text].join('.');
      if (!isKnownPrefix(this.canonical(next))) break;
      cursor.at += 2;
      parts.push(next.split('.').at(-1));
    }
    if (parts[0] === undefined) return undefined;
    const name = this.canonical(parts.join('.'));
    if (name === '__file__') return pathReading(programFile(true));
    if (name === 'os.pardir' || name === 'os.path.pardir') return pathReading(literalPath('..'));
    if (name === 'os.curdir' || name === 'os.path.curdir') return pathReading(literalPath('.'));
    if (name === 'sys.path') return { kind: 'sys.path' };
    if (cursor.take('(')) {
      const call = this.arguments(cursor);
      if (call === undefined || call.keywords.length > 0) return undefined;
      const [first, ...rest] = call.values.map((value) => (value.kind === 'path' ? value.value : undefined));
      const all = call.values.every((value) => value.kind === 'path');
      if (CURRENT.has(name) && call.values.length === 0) return pathReading(workingDirectory);
      if (!all) return undefined;
      if (PATH_CONSTRUCTORS.has(name)) return pathReading(first === undefined ? literalPath('.') : joinedAll(first, rest.map(pathReading)));
      if (first === undefined) return undefined;
      if (name === 'os.path.join') return pathReading(joinedAll(first, rest.map(pathReading)));
      if (rest.length > 0) return undefined;
      if (IDENTITY.has(name)) return pathReading(first);
      if (ABSOLUTE.has(name)) return pathReading(absolutePath(first));
      if (name === 'os.path.dirname') return pathReading(directoryOf(first));
      // os.path.split(P)[0] is os.path.dirname(P) (dirname is defined as it).
      if (name === 'os.path.split' && cursor.peek(1)?.kind === 'number' && (cursor.peek(1) as { text: string }).text === '0' && cursor.take('[')) {
        cursor.at++;
        return cursor.take(']') ? pathReading(directoryOf(first)) : undefined;
      }
      return undefined;
    }
    // A plain name bound once (ROOT = Path(__file__).parent.parent), read in its turn.
    if (parts.length !== 1 || !/^[A-Za-z_]\w*$/u.test(parts[0])) return undefined;
    const bound = singleBinding(this.code, parts[0]);
    return bound === undefined ? undefined : new PythonReader(this.code, this.depth + 1).read(bound);
  }
}

/** Dotted names the grammar reads further (`os.path.join`, `pathlib.Path.cwd`, `sys.path`). */
const isKnownPrefix = (name: string) => /^(os|os\.path|os\.path\.\w+|os\.\w+|sys|sys\.path|pathlib|pathlib\.\w+|pathlib\.Path\.cwd)$/u.test(name);

const pathReading = (value: PathValue | undefined): Reading | undefined => (value === undefined ? undefined : { kind: 'path', value });

/** os.path.join's and `/`'s join: a literal is a component; a path held absolute replaces; nothing is joined onto the file. */
function joined(base: PathValue, next: PathValue): PathValue | undefined {
  if (next.absolute) return next;
  if (isFileValue(base)) return undefined;
  return joinPath(base, next.text);
}

function joinedAll(base: PathValue, rest: readonly (Reading | undefined)[]): PathValue | undefined {
  let value: PathValue | undefined = base;
  for (const next of rest) value = value !== undefined && next?.kind === 'path' ? joined(value, next.value) : undefined;
  return value;
}

/** `+`: lists concatenated (sys.path itself among them), or strings (file-relative-paths.ts). */
function added(left: Reading, right: Reading | undefined): Reading | undefined {
  if (right === undefined) return undefined;
  const values = (reading: Reading) => (reading.kind === 'list' ? reading.values : reading.kind === 'sys.path' ? [] : undefined);
  const [a, b] = [values(left), values(right)];
  if (a !== undefined && b !== undefined && (left.kind === 'list' || right.kind === 'list')) return { kind: 'list', values: [...a, ...b] };
  return left.kind === 'path' && right.kind === 'path' ? pathReading(concatenated(left.value, right.value)) : undefined;
}

/** The module entries of `directory` on python3's path (the interpreter a program's own text does not name). */
const moduleEntries = (directory: string, anchor?: 'file'): InterpreterName[] => pathEntryNames(directory, 'python3').map((name) => (anchor === undefined ? name : { ...name, anchor }));

/** The names a directory on sys.path makes control locations: itself whole, the program's imports there, and (one that may hold the workspace) each standard-library name's module there. */
function directoryNames(directory: SearchDirectory, imports: readonly InterpreterName[]): InterpreterName[] {
  const anchor = directory.anchor === undefined ? {} : { anchor: directory.anchor };
  // The program's own directory and where it runs are where its imports are looked up already.
  // Where it runs and a directory above the file may hold the workspace, which is not protected whole: there, the
  // module entries Python may import in place of an installed module (python-module-entries.ts; for python3's path).
  if (directory.text === '.' || directory.text === '')
    return directory.anchor === 'file' ? [{ text: '.', tree: true, anchor: 'file' }, ...searchRootNames('.', 'file'), ...moduleEntries('.', 'file')] : [...searchRootNames('.'), ...moduleEntries('.')];
  const below = (name: InterpreterName): InterpreterName => ({ text: `${directory.text}/${name.text}`, tree: name.tree, ...anchor });
  return [
    { text: directory.text, tree: true, ...anchor },
    ...imports.map(below),
    ...(isAncestor(directory) ? [...searchRootNames('.').map(below), ...moduleEntries(directory.text, directory.anchor)] : []),
  ];
}

/**
 * The directories Python code puts on sys.path: each one the grammar spells out (relative to where the program runs,
 * or to its own file's directory, `anchor: 'file'`) whole, with the modules the program imports from it; anything
 * else it puts there is returned in `computed`: unresolved.
 */
export function pythonSearchPaths(source: string): { readonly names: InterpreterName[]; readonly computed: string[] } {
  // Logical lines: the offsets searchPathUses returns are into this view (it takes the same one).
  const code = pythonLogicalLines(source);
  const names: InterpreterName[] = [];
  const computed: string[] = [];
  const imports = pythonImportNames(code).filter((name) => name.anchor === undefined);
  const reader = new PythonReader(code);
  const uses = searchPathUses(code);
  computed.push(...uses.unresolved);
  for (const change of uses.changes) {
    const whole = argumentAt(code, change.at);
    // insert(INDEX, X): the index may be any expression (len(sys.path)); X is what is read.
    const argument = change.insert ? afterFirstArgument(whole) : whole;
    const reading = argument === undefined ? undefined : reader.read(argument);
    const values = reading?.kind === 'list' ? reading.values : reading?.kind === 'path' ? [reading.value] : undefined;
    const directories = values?.map(searchDirectory);
    if (directories === undefined || directories.some((directory) => directory === undefined)) computed.push(change.text);
    else for (const directory of directories) names.push(...directoryNames(directory!, imports));
  }
  return { names, computed };
}
