// setuptools' editable finders (`__editable___NAME_finder.py`, which an `import` line of an editable install's .pth
// puts last on sys.meta_path): what directory each top-level name (or dotted name) imports from. Read from the file's
// MAPPING and NAMESPACES literals by a closed grammar (dicts of plain string literals, lists of them); anything else
// is unreadable, never "maps nothing". Never runs the file.
import { readFileSync } from 'node:fs';

/** A name the finder imports and the directories (or the module path without its suffix) it takes it from. */
export type FinderMapping = ReadonlyMap<string, readonly string[]>;

/** One Python literal: a string without escapes, a list of them, or a dict of string keys to either. */
type Literal = string | Literal[] | Map<string, Literal>;

/** Reads a literal from `text` at `at`; undefined where the text is anything else. */
function literalAt(text: string, at: { i: number }): Literal | undefined {
  const skip = () => {
    while (/\s/u.test(text[at.i] ?? '')) at.i++;
  };
  skip();
  const open = text[at.i];
  if (open === "'" || open === '"') {
    const end = text.indexOf(open, at.i + 1);
    const value = end < 0 ? undefined : text.slice(at.i + 1, end);
    if (value === undefined || /[\\\n]/u.test(value)) return undefined; // an escape: outside the grammar
    at.i = end + 1;
    return value;
  }
  if (open !== '[' && open !== '{') return undefined;
  const close = open === '[' ? ']' : '}';
  const list: Literal[] = [];
  const dict = new Map<string, Literal>();
  at.i++;
  for (;;) {
    skip();
    if (text[at.i] === close) {
      at.i++;
      return open === '[' ? list : dict;
    }
    const item = literalAt(text, at);
    if (item === undefined) return undefined;
    if (open === '{') {
      skip();
      if (typeof item !== 'string' || text[at.i] !== ':') return undefined;
      at.i++;
      const value = literalAt(text, at);
      if (value === undefined) return undefined;
      dict.set(item, value);
    } else list.push(item);
    skip();
    if (text[at.i] === ',') at.i++;
    else if (text[at.i] !== close) return undefined;
  }
}

/** The value assigned to `name` at the start of a line (`MAPPING: dict[str, str] = {...}`), if the grammar reads it. */
function assigned(text: string, name: string): Literal | undefined {
  const match = new RegExp(String.raw`^${name}\s*(?::[^=\n]*)?=`, 'mu').exec(text);
  if (match === null) return undefined;
  return literalAt(text, { i: match.index + match[0].length });
}

/**
 * The names a finder's text maps: MAPPING (name -> a path) and NAMESPACES (name -> paths); why not, where either is
 * missing or outside the grammar.
 */
export function finderMapping(text: string): { readonly mapping: FinderMapping } | { readonly unreadable: string } {
  const mapping = assigned(text, 'MAPPING');
  const namespaces = assigned(text, 'NAMESPACES');
  if (!(mapping instanceof Map) || !(namespaces instanceof Map)) return { unreadable: 'its MAPPING or NAMESPACES is not a literal dict of plain strings' };
  const found = new Map<string, string[]>();
  for (const [name, value] of mapping) {
    if (typeof value !== 'string') return { unreadable: `its MAPPING gives ${name} no plain string` };
    found.set(name, [value]);
  }
  for (const [name, value] of namespaces) {
    if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) return { unreadable: `its NAMESPACES gives ${name} no list of plain strings` };
    found.set(name, [...(found.get(name) ?? []), ...(value as string[])]);
  }
  return { mapping: found };
}

/** The mapping of the finder file at `file`; why not, where it cannot be read. */
export function readFinder(file: string): { readonly mapping: FinderMapping } | { readonly unreadable: string } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return { unreadable: `${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  const read = finderMapping(text);
  return 'unreadable' in read ? { unreadable: `${file}: ${read.unreadable}` } : read;
}
