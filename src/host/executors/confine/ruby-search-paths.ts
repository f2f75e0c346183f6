// The directories Ruby code puts on its load path (`$LOAD_PATH`/`$:` `unshift`, `push`, `append`, `prepend`, `<<`,
// `concat`, `insert`), read by a closed grammar anchored at the program file (file-relative-paths.ts): literals,
// `__dir__`, `__FILE__`, Dir.pwd, File.dirname/expand_path/absolute_path/realpath/join, Pathname and its
// parent/join/`+`, "#{…}" interpolation, a name bound once. Any other change to the load path is `computed`. Pure.

import {
  absolutePath,
  concatenated,
  directoryOf,
  isFileValue,
  joinPath,
  literalPath,
  type PathValue,
  programDirectory,
  programFile,
  searchDirectory,
  singleBinding,
  workingDirectory,
} from './file-relative-paths.js';
import type { InterpreterName } from './interpreter-operands.js';
import { argumentAt } from './python-search-paths.js';
import { pathTokens, TokenCursor } from './path-expression-tokens.js';
import { searchDirectoryNames } from './module-search-directories.js';

/** A Ruby value: a path, held as a String or a Pathname (whose `+` joins rather than concatenates), or a list. */
type Reading =
  | { readonly kind: 'path'; readonly value: PathValue; readonly pathname: boolean }
  | { readonly kind: 'list'; readonly values: readonly PathValue[] }
  | { readonly kind: 'number'; readonly value: number };

const string = (value: PathValue | undefined): Reading | undefined => (value === undefined ? undefined : { kind: 'path', value, pathname: false });
const pathname = (value: PathValue | undefined): Reading | undefined => (value === undefined ? undefined : { kind: 'path', value, pathname: true });

/** File.join's join: strings only, a leading "/" dropped (File.join("a", "/b") is "a/b"), nothing joined onto the file. */
function fileJoined(values: readonly PathValue[]): PathValue | undefined {
  const [first, ...rest] = values;
  let at = first;
  for (const next of rest) at = at === undefined || isFileValue(at) || next.absolute || next.anchor !== 'cwd' ? undefined : joinPath(at, next.text.replace(/^\/+/u, ''));
  return at;
}

/** File.expand_path(REL, BASE): REL against BASE (where the program runs without one), lexically, the file itself a step. */
function expanded(relative: PathValue, base: PathValue = workingDirectory): PathValue | undefined {
  if (relative.absolute) return relative;
  const joined = joinPath(base, relative.text);
  return joined === undefined ? undefined : absolutePath(joined);
}

class RubyReader {
  constructor(
    private readonly code: string,
    private readonly depth = 0,
  ) {}

  read(text: string): Reading | undefined {
    const tokens = pathTokens(text);
    if (tokens === undefined || this.depth > 8) return undefined;
    const cursor = new TokenCursor(tokens);
    const reading = this.sum(cursor);
    return cursor.done() ? reading : undefined;
  }

  /** Several arguments (`unshift a, b`, `<< a << b` split by the caller): their values. */
  values(text: string): PathValue[] | undefined {
    const tokens = pathTokens(text);
    if (tokens === undefined) return undefined;
    const cursor = new TokenCursor(tokens);
    const values: PathValue[] = [];
    while (!cursor.done()) {
      const splat = cursor.take('*');
      const reading = this.sum(cursor);
      if (reading === undefined || reading.kind === 'number' || (reading.kind === 'list' && !splat)) return undefined;
      values.push(...(reading.kind === 'list' ? reading.values : [reading.value]));
      if (!cursor.take(',') && !cursor.done()) return undefined;
    }
    return values;
  }

  private sum(cursor: TokenCursor): Reading | undefined {
    let left = this.primary(cursor);
    while (left !== undefined && cursor.take('+')) {
      const right = this.primary(cursor);
      if (left.kind !== 'path' || right?.kind !== 'path') return undefined;
      left = left.pathname
        ? pathname(right.value.absolute ? right.value : isFileValue(left.value) ? undefined : joinPath(left.value, right.value.text))
        : string(concatenated(left.value, right.value));
    }
    return left;
  }

  private arguments(cursor: TokenCursor): PathValue[] | undefined {
    const values: PathValue[] = [];
    if (!cursor.take('(')) return undefined;
    while (!cursor.take(')')) {
      const reading = this.sum(cursor);
      if (reading?.kind === 'number') values.push({ anchor: 'cwd', text: String(reading.value), absolute: false });
      else if (reading?.kind === 'path') values.push(reading.value);
      else return undefined;
      if (!cursor.take(',') && cursor.peek()?.kind !== 'punct') return undefined;
    }
    return values;
  }

  private primary(cursor: TokenCursor): Reading | undefined {
    let reading = this.atom(cursor);
    while (reading?.kind === 'path' && cursor.take('.')) {
      const method = cursor.name();
      const value = reading.value;
      if (method === 'to_s' || method === 'to_path' || method === 'freeze') reading = string(value);
      else if (method === 'parent' || method === 'dirname') reading = pathname(directoryOf(value));
      else if (method === 'expand_path' || method === 'realpath') reading = cursor.peek()?.kind === 'punct' && cursor.take('(') && !cursor.take(')') ? undefined : pathname(expanded(value));
      else if (method === 'join') {
        const parts = this.arguments(cursor);
        let at: PathValue | undefined = value;
        for (const part of parts ?? []) at = at === undefined ? undefined : part.absolute ? part : isFileValue(at) ? undefined : joinPath(at, part.text);
        reading = parts === undefined ? undefined : pathname(at);
      } else reading = undefined;
    }
    return reading;
  }

  private atom(cursor: TokenCursor): Reading | undefined {
    const token = cursor.peek();
    if (token === undefined) return undefined;
    if (token.kind === 'string') {
      cursor.at++;
      return token.prefix === '' ? string(token.quote === "'" ? literalPath(token.body) : this.interpolated(token.body)) : undefined;
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
    const name = cursor.name();
    if (name === '__dir__') return string(programDirectory);
    if (name === '__FILE__') return string(programFile(false));
    if (name === 'Dir' && cursor.take('.')) return cursor.name() === 'pwd' ? string(workingDirectory) : undefined;
    if (name === 'Pathname') {
      const construct = cursor.take('.') ? cursor.name() === 'new' : true;
      const [value, ...rest] = construct ? (this.arguments(cursor) ?? []) : [];
      return value === undefined || rest.length > 0 ? undefined : pathname(value);
    }
    if (name === 'File' && cursor.take('.')) return string(this.fileCall(cursor.name(), this.arguments(cursor)));
    // A plain local name bound once (lib = File.expand_path("lib", __dir__)), read in its turn.
    if (name === undefined || !/^[a-z_]\w*$/u.test(name)) return undefined;
    const bound = singleBinding(this.code, name);
    return bound === undefined ? undefined : new RubyReader(this.code, this.depth + 1).read(bound);
  }

  private fileCall(method: string | undefined, values: PathValue[] | undefined): PathValue | undefined {
    if (values === undefined || values.length === 0) return undefined;
    const [first, second] = values;
    if (method === 'join') return fileJoined(values);
    if (method === 'dirname' && values.length <= 2) {
      const levels = second === undefined ? 1 : /^[0-9]+$/u.test(second.text) && second.anchor === 'cwd' ? Number(second.text) : Number.NaN;
      let at: PathValue | undefined = first;
      for (let step = 0; step < levels && at !== undefined; step++) at = directoryOf(at);
      return Number.isNaN(levels) ? undefined : at;
    }
    if ((method === 'expand_path' || method === 'absolute_path' || method === 'realpath') && values.length <= 2) return expanded(first!, second === undefined ? undefined : absolutePath(second));
    return undefined;
  }

  /** A "…" string: its text with each #{…} read as a value and concatenated; any other interpolation, undefined. */
  private interpolated(body: string): PathValue | undefined {
    if (/#[$@]/u.test(body)) return undefined;
    let value: PathValue | undefined = literalPath('');
    for (const [index, piece] of body.split(/#\{([^}]*)\}/u).entries()) {
      const read = index % 2 === 0 ? string(literalPath(piece)) : this.read(piece);
      const part = read?.kind === 'path' ? read.value : undefined;
      value = value === undefined || part === undefined ? undefined : concatenated(value, part);
    }
    return value;
  }
}

/** Methods of $LOAD_PATH that only read it. */
const READS = /^(include\?|index|each|each_with_index|map|collect|select|grep|find|detect|any\?|none\?|first|last|size|length|count|to_a|inspect|join|dup|sort|uniq|reject|empty\?|to_s|frozen\?)$/u;
/** Methods that add what their arguments name. */
const ADDS = /^(unshift|push|append|prepend|concat|insert)$/u;

/** The text of a paren-less argument list: to the line's end, before a modifier (`if`, `unless`) or a `;`. */
const restOfStatement = (code: string, index: number) =>
  code
    .slice(index, code.indexOf('\n', index) === -1 ? undefined : code.indexOf('\n', index))
    .replace(/\s(?:if|unless)\s.*$|;.*$/u, '')
    .trim();

/** The files `require "x"` loads from a load-path directory: x.rb (and x as written when it names its extension). */
function requiredFiles(code: string): string[] {
  const files = new Set<string>();
  for (const match of code.matchAll(/\brequire\s*\(?\s*["']([\w./-]+)["']/gu)) files.add(/\.(rb|so)$/u.test(match[1]!) ? match[1]! : `${match[1]!}.rb`);
  return [...files];
}

/**
 * The directories Ruby code adds to `$LOAD_PATH`/`$:`: relative to where ruby runs, or to the program file's own
 * directory (`__dir__`, `__FILE__`: `anchor: 'file'`), whole, with the files its `require`s load there; an argument
 * the grammar does not spell out, a method that changes the load path otherwise, or the load path handed elsewhere,
 * is `computed`.
 */
export function rubyLoadPaths(code: string): { names: InterpreterName[]; computed: string[] } {
  const names: InterpreterName[] = [];
  const computed: string[] = [];
  const reader = new RubyReader(code);
  const required = requiredFiles(code);
  for (const match of code.matchAll(/(?<![\w\\$])(?:\$LOAD_PATH\b|\$:)\s*(?:(<<)|\.\s*([A-Za-z_]\w*[?!]?)\s*(\(?))?/gu)) {
    const [whole, shift, method, paren] = match;
    const after = match.index + whole.length;
    let text: string | undefined;
    if (shift !== undefined)
      text = restOfStatement(code, after)
        .split(/\s*<<\s*/u)
        .join(', ');
    else if (method !== undefined && READS.test(method)) continue;
    else if (method !== undefined && ADDS.test(method)) {
      text = paren === '(' ? argumentAt(code, after) : restOfStatement(code, after);
      // insert(INDEX, X…): the index is no directory.
      if (method === 'insert') text = text.replace(/^[^,]*,/u, '');
      if (method === 'concat') text = `*${text}`;
    }
    const values = text === undefined ? undefined : reader.values(text);
    const directories = values?.map(searchDirectory);
    if (directories === undefined || directories.some((directory) => directory === undefined)) computed.push(`${whole}${text ?? ''} (a load path zotbox cannot spell out)`);
    else for (const directory of directories) names.push(...searchDirectoryNames(directory!, required, 'ruby'));
  }
  return { names, computed };
}
