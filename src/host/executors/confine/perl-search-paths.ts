// The directories Perl code puts on @INC (`use lib LIST`, `lib->import(LIST)`, `unshift`/`push @INC, LIST`), read by a
// closed grammar anchored at the program file (file-relative-paths.ts): literals, qw(), `$FindBin::Bin`/`$RealBin`
// (and `$Bin`/`$RealBin` imported from FindBin) in a string or joined by `.`, `__FILE__`, dirname(), abs_path()/
// realpath()/rel2abs(), File::Spec->catdir(); the modules that change @INC on use (perl-search-path-modules.ts).
// Anything else, and any other change to @INC, is `computed`. Pure, no I/O.

import { absolutePath, concatenated, directoryOf, isFileValue, joinPath, literalPath, type PathValue, programDirectory, programFile, searchDirectory } from './file-relative-paths.js';
import type { InterpreterName } from './interpreter-operands.js';
import { pathTokens, TokenCursor } from './path-expression-tokens.js';
import { searchDirectoryNames } from './module-search-directories.js';
import { perlSearchPathModules } from './perl-search-path-modules.js';

/** The names a Perl program may use for the directory of the script perl runs. */
function findBinNames(code: string): Set<string> {
  const names = new Set(['$FindBin::Bin', '$FindBin::RealBin']);
  for (const variable of ['$Bin', '$RealBin']) if (new RegExp(`\\buse\\s+FindBin\\b[^;]*\\${variable}\\b`, 'u').test(code)) names.add(variable);
  return names;
}

/** Functions the grammar knows, by every name a program may call them (the bare one only where its module exports it). */
function knownFunctions(code: string): Map<string, 'dirname' | 'absolute' | 'catdir'> {
  const known = new Map<string, 'dirname' | 'absolute' | 'catdir'>([
    ['File::Basename::dirname', 'dirname'],
    ['Cwd::abs_path', 'absolute'],
    ['Cwd::realpath', 'absolute'],
    ['File::Spec->rel2abs', 'absolute'],
    ['File::Spec->catdir', 'catdir'],
    ['File::Spec::Functions::catdir', 'catdir'],
  ]);
  if (/\buse\s+File::Basename\b/u.test(code)) known.set('dirname', 'dirname');
  if (/\buse\s+Cwd\b[^;]*\babs_path\b/u.test(code)) known.set('abs_path', 'absolute');
  if (/\buse\s+Cwd\b[^;]*\brealpath\b/u.test(code)) known.set('realpath', 'absolute');
  if (/\buse\s+File::Spec::Functions\b/u.test(code)) for (const name of ['catdir', 'rel2abs']) known.set(name, name === 'catdir' ? 'catdir' : 'absolute');
  return known;
}

/** Reads one LIST of a `use lib` (items joined by `,`, each terms joined by `.`): its values, or undefined. */
class PerlReader {
  private readonly bins: Set<string>;
  private readonly functions: Map<string, 'dirname' | 'absolute' | 'catdir'>;
  /** FindBin names the directory of the script perl runs: in a module (a `package` other than main), not this file's. */
  readonly script: boolean;
  constructor(code: string) {
    this.bins = findBinNames(code);
    this.functions = knownFunctions(code);
    this.script = !/^[ \t]*package[ \t]+(?!main\b)[\w:]+/mu.test(code);
  }

  list(cursor: TokenCursor): PathValue[] | undefined {
    const values: PathValue[] = [];
    const parenthesized = cursor.take('(');
    while (!cursor.done() && !(parenthesized && cursor.take(')'))) {
      const value = this.item(cursor);
      if (value === undefined) return undefined;
      values.push(value);
      if (!cursor.take(',') && !cursor.done() && !(parenthesized && cursor.peek()?.kind === 'punct')) {
        // A statement modifier (`unshift @INC, "lib" if -d "lib"`) ends the list.
        if (/^(if|unless)$/u.test((cursor.peek() as { text?: string }).text ?? '')) break;
        return undefined;
      }
    }
    return values;
  }

  /** Terms joined by `.`, as strings are: a path held absolute, then literal text that starts a component. */
  private item(cursor: TokenCursor): PathValue | undefined {
    let value = this.term(cursor);
    while (value !== undefined && cursor.take('.')) {
      const next = this.term(cursor);
      value = next === undefined ? undefined : concatenated(value, next);
    }
    return value;
  }

  private qualified(cursor: TokenCursor): string | undefined {
    let name = cursor.name();
    while (name !== undefined && cursor.take('::')) {
      const next = cursor.name();
      name = next === undefined ? undefined : `${name}::${next}`;
    }
    if (name !== undefined && cursor.take('->')) {
      const method = cursor.name();
      name = method === undefined ? undefined : `${name}->${method}`;
    }
    return name;
  }

  private term(cursor: TokenCursor): PathValue | undefined {
    const token = cursor.peek();
    if (token?.kind === 'string') {
      cursor.at++;
      return token.prefix === '' ? this.string(token.quote, token.body) : undefined;
    }
    const name = this.qualified(cursor);
    if (name === undefined) return undefined;
    if (this.bins.has(name)) return this.script ? programDirectory : undefined;
    if (name === '__FILE__') return programFile(false);
    if (name === 'File::Spec->updir' || name === 'File::Spec->curdir') return cursor.take('(') && !cursor.take(')') ? undefined : literalPath(name.endsWith('updir') ? '..' : '.');
    const kind = this.functions.get(name);
    if (kind === undefined || !cursor.take('(')) return undefined;
    const values: PathValue[] = [];
    while (!cursor.take(')')) {
      const value = this.item(cursor);
      if (value === undefined || (!cursor.take(',') && cursor.peek()?.kind !== 'punct')) return undefined;
      values.push(value);
    }
    const [first, ...rest] = values;
    if (first === undefined) return undefined;
    if (kind === 'catdir')
      return rest.reduce<PathValue | undefined>((at, next) => (at === undefined || next.absolute || next.anchor !== 'cwd' || isFileValue(at) ? undefined : joinPath(at, next.text)), first);
    if (rest.length > 0) return undefined;
    return kind === 'dirname' ? directoryOf(first) : absolutePath(first);
  }

  /** A quoted string: '…' as written; "…" with FindBin's directory at its start, and nothing else interpolated. */
  private string(quote: string, body: string): PathValue | undefined {
    if (quote === "'") return literalPath(body);
    const bin = /^\$(?:\{([\w:]+)\}|([\w:]+))/u.exec(body);
    const rest = bin === null ? body : body.slice(bin[0].length);
    if (/[$@]/u.test(rest)) return undefined;
    if (bin === null) return literalPath(rest);
    if (!this.bins.has(`$${bin[1] ?? bin[2]!}`) || !this.script) return undefined;
    return concatenated(programDirectory, literalPath(rest));
  }
}

/** The .pm files of the modules the program loads (`use Checker;`, `require Foo::Bar;`): Foo/Bar.pm. */
function moduleFiles(code: string): string[] {
  const files = new Set<string>();
  for (const match of code.matchAll(/^[ \t]*(?:use|require)[ \t]+([A-Za-z_]\w*(?:::\w+)*)\b/gmu)) if (!/^(lib|v?\d)/u.test(match[1]!)) files.add(`${match[1]!.replace(/::/gu, '/')}.pm`);
  return [...files];
}

/**
 * Perl's `use lib LIST`, `lib->import(LIST)` and `unshift`/`push @INC, LIST`: directories relative to where perl runs,
 * or to the program file's own directory (FindBin, __FILE__: `anchor: 'file'`), whole, with the modules the program
 * loads there; any other change to @INC, or a LIST item the grammar does not spell out, is `computed`.
 */
export function perlLibraryPaths(code: string): { names: InterpreterName[]; computed: string[] } {
  const names: InterpreterName[] = [];
  const computed: string[] = [];
  const reader = new PerlReader(code);
  const modules = moduleFiles(code);
  for (const match of code.matchAll(/\b(?:use\s+lib(?![\w:])|lib\s*->\s*import\b|(?:unshift|push)\s*\(?\s*@INC\s*,)\s*((?:"[^"\n]*"|'[^'\n]*'|[^;}"'])*)/gu)) {
    // unshift(@INC, LIST): the call's closing bracket is not the LIST's.
    const list = (/\(\s*@INC/u.test(match[0]) ? match[1]!.trim().replace(/\)$/u, '') : match[1]!).trim();
    // qw(a b/c): words as written; else the LIST read by the grammar.
    const words = /^qw\s*[([{/<](.*)[)\]}/>]$/su.exec(list);
    const tokens = words === null ? pathTokens(list) : undefined;
    const values =
      words !== null
        ? words[1]!
            .split(/\s+/u)
            .filter((word) => word !== '')
            .map(literalPath)
        : tokens === undefined
          ? undefined
          : reader.list(new TokenCursor(tokens));
    const directories = values?.map(searchDirectory);
    if (directories === undefined || directories.some((directory) => directory === undefined)) computed.push(match[0].trim());
    else for (const directory of directories) names.push(...searchDirectoryNames(directory!, modules, 'perl'));
  }
  // Modules that change @INC (FindBin::libs, Test::Lib, lib::relative, local::lib...): perl-search-path-modules.ts.
  const used = perlSearchPathModules(code, modules, reader.script);
  names.push(...used.names);
  computed.push(...used.computed);
  // @INC changed any other way: assigned, spliced, an element set.
  for (const match of code.matchAll(/@INC\s*=(?!=)|\bsplice\s*\(?\s*@INC\b|\$INC\s*\[[^\]]*\]\s*=(?!=)/gu)) computed.push(`${match[0].trim()} (a change to @INC zotbox does not read)`);
  return { names, computed };
}
