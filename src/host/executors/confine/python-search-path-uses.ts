// Every use of Python's search path in a program's text, under any name it goes by (`import sys as _sys`, `search =
// sys.path`, `from sys import path`, `from site import addsitedir`, `os.sys`): each change this module knows
// (insert/append/extend, a slice or whole assignment, addsitedir) is returned for python-search-paths.ts to read; each
// read it knows (`x in sys.path`, `print(sys.path)`, `sys.path[0]`) is passed over; any other use of sys.path,
// sys.meta_path, sys.path_hooks, sys itself as a value or site's functions is `unresolved` (closed world). Pure.

import { pythonLogicalLines } from './python-logical-lines.js';

/** A change to sys.path: the text that makes it and where the expression it adds starts (after `insert(` it holds the index too). */
export type SearchPathChange = { readonly text: string; readonly at: number; readonly insert: boolean };

/** Calls that only read a list passed to them as a direct argument. */
const READING_CALLS = new Set(['print', 'pprint', 'pformat', 'len', 'list', 'tuple', 'set', 'frozenset', 'sorted', 'str', 'repr', 'enumerate', 'reversed', 'join', 'dumps', 'any', 'all']);
/** sys.path methods that only read it. */
const READING_METHODS = new Set(['index', 'count', 'copy']);
/** site names that only read (a directory list, a setting). */
const SITE_READS = new Set(['getsitepackages', 'getusersitepackages', 'getuserbase', 'USER_SITE', 'USER_BASE', 'ENABLE_USER_SITE', 'PREFIXES']);
/** sys attributes that are the import machinery's search state. */
const HOOK_STATE = new Set(['meta_path', 'path_hooks', 'path_importer_cache']);

/**
 * `code` with comments and the bodies of plain strings blanked, offsets kept: a mention in prose is no use. An
 * f-string's {expressions} are kept (they are code), its text blanked, unless `formatted` is set, for statement
 * shapes (`import …` written inside an f-string is none): then the whole body is blanked.
 */
export function maskedPython(code: string, formatted = false): string {
  // UTF-16 units, as the offsets are.
  const out = Array.from({ length: code.length }, (_, at) => code[at]!);
  for (let at = 0; at < code.length; ) {
    if (code[at] === '#') {
      for (; at < code.length && code[at] !== '\n'; at++) out[at] = ' ';
      continue;
    }
    if (code[at] !== '"' && code[at] !== "'") {
      at++;
      continue;
    }
    const prefix = /[A-Za-z]*$/u.exec(code.slice(Math.max(0, at - 3), at))![0];
    const quote = code.startsWith(code[at]!.repeat(3), at) ? code[at]!.repeat(3) : code[at]!;
    const keptAsCode = !formatted && /f/iu.test(prefix);
    let end = at + quote.length;
    for (; end < code.length && !code.startsWith(quote, end); end++) {
      if (code[end] === '\\') end++;
      else if (code[end] === '\n' && quote.length === 1) break;
    }
    // An f-string's {expressions} are code, kept to be read as code (a mention there refuses, never hides); its text is not.
    blankStringText(code, out, at + quote.length, Math.min(end, code.length), keptAsCode);
    at = end + quote.length;
  }
  return out.join('');
}

/** Blanks `code[from..to)` in `out` (newlines kept); in an f-string, its text only, each `{…}` field kept as code. */
function blankStringText(code: string, out: string[], from: number, to: number, fString: boolean): void {
  let depth = 0;
  for (let index = from; index < to; index++) {
    const char = code[index]!;
    if (fString && depth === 0 && (char === '{' || char === '}') && code[index + 1] === char) {
      out[index] = ' ';
      out[index + 1] = ' ';
      index++;
      continue;
    }
    if (fString && char === '{') depth++;
    else if (fString && char === '}' && depth > 0) {
      depth--;
      continue;
    }
    if (depth === 0 && char !== '\n') out[index] = ' ';
  }
}

/** The expression from `at` to the end of its statement (a bracket that closes past it, or the line's end). */
function statementRest(code: string, at: number): string {
  let depth = 0;
  let end = at;
  for (; end < code.length && ((code[end] !== '\n' && code[end] !== ';') || depth > 0); end++) {
    if ('([{'.includes(code[end]!)) depth++;
    else if (')]}'.includes(code[end]!) && --depth < 0) break;
  }
  return code.slice(at, end);
}

/** The offset just past the bracket that closes the one at `open`, or undefined. */
function closing(code: string, open: number): number | undefined {
  let depth = 0;
  for (let at = open; at < code.length; at++) {
    if ('([{'.includes(code[at]!)) depth++;
    else if (')]}'.includes(code[at]!) && --depth === 0) return at + 1;
  }
  return undefined;
}

/** The offset of the first comma outside brackets in `list`. */
function topLevelComma(list: string): number | undefined {
  let depth = 0;
  for (let at = 0; at < list.length; at++) {
    if ('([{'.includes(list[at]!)) depth++;
    else if (')]}'.includes(list[at]!)) depth--;
    else if (list[at] === ',' && depth === 0) return at;
  }
  return undefined;
}

/** The name of the call whose direct argument starts after `before` (`print("x", ` → print), if it is one. */
function enclosingCall(before: string): string | undefined {
  let depth = 0;
  for (let at = before.length - 1; at >= 0; at--) {
    const char = before[at]!;
    if (')]}'.includes(char)) depth++;
    else if ('[{'.includes(char) && depth-- === 0) return undefined;
    else if (char === '(' && depth-- === 0) return /(\w+)\s*$/u.exec(before.slice(0, at))?.[1];
    else if (char === '\n' && depth === 0) return undefined;
  }
  return undefined;
}

/** Where a statement starts on a logical line: its start, or after a compound statement's header (`try: import sys`). */
const STATEMENT = String.raw`(?:^|(?<=:))[ \t]*`;

/** The names `import`/`from` statements and plain assignments bind to sys, site, sys.path and site.addsitedir (`masked` with f-strings blanked too). */
function searchPathNames(masked: string): { sys: Set<string>; site: Set<string>; path: Set<string>; addsitedir: Set<string>; unresolved: string[] } {
  // `site` is a common word: it names the module only where the program imports it.
  const site = new RegExp(String.raw`${STATEMENT}import[ \t][^\n;]*\bsite\b`, 'mu').test(masked) ? ['site'] : [];
  const names = { sys: new Set(['sys']), site: new Set(site), path: new Set<string>(), addsitedir: new Set<string>(), unresolved: [] as string[] };
  for (const [line, list] of masked.matchAll(new RegExp(String.raw`${STATEMENT}import[ \t]+([^\n;]+)`, 'gmu')))
    for (const item of list!.split(',')) {
      const [module, , alias] = item.trim().split(/\s+/u);
      if ((module === 'sys' || module === 'site') && alias !== undefined) names[module].add(alias);
      else if (/^(sys|site)\./u.test(module ?? '')) names.unresolved.push(line.trim());
    }
  for (const [line, module, parenthesized, plain] of masked.matchAll(new RegExp(String.raw`${STATEMENT}from[ \t]+(sys|site)[ \t]+import[ \t]+(?:\(([^)]*)\)|([^\n;]+))`, 'gmu')))
    for (const item of (parenthesized ?? plain)!.split(',')) {
      const [name, , alias] = item.trim().split(/\s+/u);
      if (name === undefined || name === '') continue;
      if (module === 'sys' && name === 'path') names.path.add(alias ?? name);
      else if (module === 'site' && name === 'addsitedir') names.addsitedir.add(alias ?? name);
      else if (name === '*' || (module === 'sys' && HOOK_STATE.has(name)) || (module === 'site' && !SITE_READS.has(name))) names.unresolved.push(line.trim());
    }
  // NAME = sys.path (or another name for it), NAME = site.addsitedir: the name is one more for the same object.
  for (let grew = true; grew; ) {
    grew = false;
    for (const [, name, value] of masked.matchAll(/^[ \t]*([A-Za-z_]\w*)[ \t]*=[ \t]*([\w.]+)[ \t]*$/gmu)) {
      const [first, ...rest] = value!.split('.');
      const target =
        rest.length === 0
          ? names.path.has(first!)
            ? 'path'
            : names.addsitedir.has(first!)
              ? 'addsitedir'
              : undefined
          : rest.length === 1 && names.sys.has(first!) && rest[0] === 'path'
            ? 'path'
            : rest.length === 1 && names.site.has(first!) && rest[0] === 'addsitedir'
              ? 'addsitedir'
              : undefined;
      if (target !== undefined && !names[target].has(name!)) {
        names[target].add(name!);
        grew = true;
      }
    }
  }
  return names;
}

/** An alternation of the names in `set`; one that matches nothing for none. */
const words = (set: Set<string>) => (set.size === 0 ? '(?!)' : [...set].map((name) => name.replace(/\W/gu, '')).join('|'));

/**
 * Each change to sys.path in Python `code`, through any name for sys, sys.path or site.addsitedir, and each use of
 * them it does not know as a read or one of those changes: `unresolved`.
 */
export function searchPathUses(source: string): { readonly changes: SearchPathChange[]; readonly unresolved: string[] } {
  // Logical lines: a use after `import sys;` or on a continued line is a statement of its own.
  const code = pythonLogicalLines(source);
  const masked = maskedPython(code);
  const statements = maskedPython(code, true);
  const names = searchPathNames(statements);
  const changes: SearchPathChange[] = [];
  const unresolved = [...names.unresolved];
  // The part of each change the search-path grammar reads (it takes sys.path there only as a list added to).
  const covered: [number, number][] = [];
  const inside = (at: number) => covered.some(([from, to]) => at >= from && at < to);
  // An import statement is one logical line (its sys and site are the names read above).
  const imports = [...statements.matchAll(new RegExp(String.raw`${STATEMENT}(?:import|from)\b[^\n]*`, 'gmu'))].map((match) => [match.index, match.index + match[0].length]);
  const importLine = (at: number) => imports.some(([from, to]) => at >= from! && at < to!);
  const pathName = names.path.size > 0 ? `|(?<![\\w.])(?:${words(names.path)})\\b` : '';
  const siteDir = names.addsitedir.size > 0 ? `|(?<![\\w.])(?<sitedir>${words(names.addsitedir)})\\b` : '';
  // `sys` after a dot too: os.sys is the same module.
  const USE = new RegExp(
    `(?<sysname>(?<![\\w])sys\\b|(?<![\\w.])(?:${words(names.sys)})\\b)(?<attribute>\\s*\\.\\s*\\w+)?|(?<sitename>(?<![\\w.])(?:${words(names.site)})\\b)(?<siteattribute>\\s*\\.\\s*\\w+)?${pathName}${siteDir}`,
    'gu',
  );
  const uses = [...masked.matchAll(USE)].filter((match) => !importLine(match.index));
  // Changes first: what their arguments hold (`sys.path = ["x"] + sys.path`) is read with them.
  const kinds = uses.map((match) => {
    const end = match.index + match[0].length;
    const attribute = match.groups!.attribute?.replace(/[\s.]/gu, '');
    if (match.groups!.sitename !== undefined) {
      const name = match.groups!.siteattribute?.replace(/[\s.]/gu, '');
      if (name === 'addsitedir' && /^\s*\(/u.test(masked.slice(end))) return siteChange(masked.indexOf('(', end) + 1);
      if (name === 'addsitedir' && bindsTo(match.index, end, names.addsitedir)) return 'read';
      return name !== undefined && SITE_READS.has(name) ? 'read' : 'other';
    }
    if (match.groups!.sitedir !== undefined) return /^\s*\(/u.test(masked.slice(end)) ? siteChange(masked.indexOf('(', end) + 1) : 'binding';
    if (match.groups!.sysname !== undefined && attribute !== 'path') {
      if (attribute === undefined || attribute.startsWith('__')) return 'other';
      return HOOK_STATE.has(attribute) ? pathUse(match.index, end, false) : 'read';
    }
    return pathUse(match.index, end, true);
  });
  /** `NAME = <use>` alone on its line, NAME one of `bound`: the binding searchPathNames follows. */
  function bindsTo(from: number, end: number, bound: Set<string>): boolean {
    const name = /^[ \t]*([A-Za-z_]\w*)[ \t]*=[ \t]*$/u.exec(masked.slice(masked.lastIndexOf('\n', from - 1) + 1, from))?.[1];
    return name !== undefined && bound.has(name) && /^[ \t]*(?:\n|$)/u.test(masked.slice(end));
  }
  function siteChange(at: number): 'change' {
    const to = closing(masked, at - 1) ?? masked.length;
    covered.push([at, to]);
    changes.push({ text: `addsitedir(${code.slice(at, to)}`, at, insert: false });
    return 'change';
  }
  /** One use of sys.path (or of the import hooks' lists, which are never read as changes). */
  function pathUse(from: number, end: number, searchPath: boolean): 'change' | 'read' | 'binding' | 'other' | 'later' {
    const after = masked.slice(end);
    const method = /^\s*\.\s*(\w+)\s*\(/u.exec(after);
    if (method !== null) {
      if (READING_METHODS.has(method[1]!)) return 'read';
      if (searchPath && ['insert', 'append', 'extend'].includes(method[1]!)) {
        const at = end + method[0].length;
        const to = closing(masked, at - 1) ?? masked.length;
        // insert(INDEX, X): the index is not read by the grammar, so a use of sys.path there must be a read on its own.
        covered.push([method[1] === 'insert' ? at + (topLevelComma(masked.slice(at, to)) ?? to - at) : at, to]);
        changes.push({ text: code.slice(from, closing(masked, at - 1) ?? masked.length), at, insert: method[1] === 'insert' });
        return 'change';
      }
      return 'other';
    }
    if (/^\s*\./u.test(after)) return 'other';
    const subscript = /^\s*\[/u.test(after) ? closing(masked, masked.indexOf('[', end)) : end;
    if (subscript === undefined) return 'other';
    const assigned = /^\s*(\+?=)(?!=)/u.exec(masked.slice(subscript));
    const before = masked.slice(masked.lastIndexOf('\n', from - 1) + 1, from);
    if (assigned !== null) {
      // A keyword argument (f(path=x)) is no assignment; `NAME = sys.path` is a binding (searchPathNames).
      if (/[(,]\s*$/u.test(before)) return 'read';
      const at = subscript + assigned[0].length;
      const value = statementRest(masked, at).trim();
      if (new RegExp(`^(?:(?:${words(names.sys)})\\s*\\.\\s*path|${words(names.path)})$`, 'u').test(value)) return 'binding';
      if (!searchPath || (assigned[1] === '+=' && subscript !== end)) return 'other';
      covered.push([at, at + statementRest(masked, at).length]);
      changes.push({ text: code.slice(from, at + statementRest(code, at).length), at, insert: false });
      return 'change';
    }
    if (/^\s*del\b/u.test(before)) return 'other';
    if (subscript !== end) return 'read';
    return searchPath && bindsTo(from, end, names.path) ? 'read' : 'later';
  }
  uses.forEach((match, index) => {
    let kind = kinds[index];
    if (inside(match.index) && kind === 'later') return;
    if (kind === 'later') kind = readContext(masked, match.index, match.index + match[0].length) ? 'read' : 'other';
    if (kind === 'binding')
      kind = /^[ \t]*[A-Za-z_]\w*[ \t]*=[ \t]*[\w.\s]+$/u.test(
        masked.slice(masked.lastIndexOf('\n', match.index - 1) + 1, match.index + match[0].length + statementRest(masked, match.index + match[0].length).length),
      )
        ? 'read'
        : 'other';
    if (kind === 'other') unresolved.push(statementRest(code, code.lastIndexOf('\n', match.index - 1) + 1).trim());
  });
  for (const match of code.matchAll(/\b(?:__import__|import_module)\s*\(\s*["'](?:sys|site)["']|\bmodules\s*\[\s*["'](?:sys|site)["']\s*\]/gu))
    unresolved.push(`${match[0]}: sys or site under another name`);
  return { changes, unresolved };
}

/** `x in sys.path`, `for p in sys.path:`, `print(sys.path)`, `len(sys.path)`, `sys.path == saved`: reads. */
function readContext(masked: string, from: number, end: number): boolean {
  const before = masked.slice(0, from);
  const after = masked.slice(end);
  if (/\bin\s*$/u.test(before) || /(?:[=!]=)\s*$/u.test(before) || /^\s*[=!]=/u.test(after)) return true;
  const call = enclosingCall(before);
  return call !== undefined && READING_CALLS.has(call) && /[(,]\s*$/u.test(before) && /^\s*[,)]/u.test(after);
}
