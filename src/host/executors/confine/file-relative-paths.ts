// The closed algebra of "a path anchored at the program file's location" (s37k review): the file itself, its
// directory, each step up, and literal components joined on, lexically. The Python, Perl and Ruby search-path readers
// build values with it; whatever falls outside it is undefined (the caller's unresolved). Pure, no I/O, no guessing.

import path from 'node:path';

/** The segment that stands for the program file's own name inside a value's text. */
const FILE = '\u0000';

/**
 * A path a program computes: `anchor` is what its text is relative to (the program file's directory, where it runs,
 * or nothing: an absolute path), `absolute` whether the running program holds it as an absolute path (a step up from a
 * relative `__FILE__` or `"lib"` is not a directory zotbox can name: `dirname("check.pl")` is ".").
 */
export interface PathValue {
  readonly anchor: 'file' | 'cwd' | 'root';
  readonly text: string;
  readonly absolute: boolean;
}

/** A directory put on a module search path: relative to the program file's directory (`file`) or to where it runs. */
export interface SearchDirectory {
  readonly text: string;
  readonly anchor?: 'file';
}

/** The program file itself (`__file__`, `__FILE__`), held absolute or as the command named it. */
export const programFile = (absolute: boolean): PathValue => ({ anchor: 'file', text: FILE, absolute });

/** The program file's directory (`__dir__`, `$FindBin::Bin`): absolute. */
export const programDirectory: PathValue = { anchor: 'file', text: '.', absolute: true };

/** Where the program runs (`os.getcwd()`, `Dir.pwd`): absolute. */
export const workingDirectory: PathValue = { anchor: 'cwd', text: '.', absolute: true };

/** A string literal as a path: relative to where the program runs, or absolute. */
export const literalPath = (text: string): PathValue => (text.startsWith('/') ? { anchor: 'root', text, absolute: true } : { anchor: 'cwd', text, absolute: false });

/** Whether the value's text is the very string the program holds (a literal, or an absolute path): text to concatenate. */
const isString = (value: PathValue) => value.anchor === 'root' || (value.anchor === 'cwd' && !value.absolute);

/**
 * String concatenation (`dirname(__file__) + "/../src"`, Perl's `.`, `"#{__dir__}/../lib"`): two strings' texts
 * joined; after a path held absolute, a string that starts a component ("/more") or nothing. Else undefined.
 */
export function concatenated(left: PathValue, right: PathValue): PathValue | undefined {
  if (isString(left) && left.text === '') return right;
  if (!isString(right)) return undefined;
  if (isString(left)) return literalPath(left.text + right.text);
  if (right.text === '') return left;
  return right.text.startsWith('/') && !isFileValue(left) ? joinPath(left, right.text.slice(1)) : undefined;
}

/** Characters a literal component may hold (no `~`, `$`, glob or quote: those mean something else to someone). */
const PLAIN = /^[\w.@+/-]*$/u;

/**
 * `value` with `component` joined on, lexically (an absolute component replaces it, as os.path.join and File.join do).
 * Joined on the file itself, the file is one step (Ruby's File.expand_path("../lib", __FILE__) is the file's lib/).
 */
export function joinPath(value: PathValue, component: string): PathValue | undefined {
  if (!PLAIN.test(component)) return undefined;
  if (component.startsWith('/')) return literalPath(component);
  if (component === '') return value;
  return { ...value, text: path.posix.normalize(`${value.text}/${component}`) };
}

/** One step up: the file's directory for the file itself, else the parent (only of a path held absolute). */
export function directoryOf(value: PathValue): PathValue | undefined {
  if (value.text.split('/').at(-1) === FILE) return { ...value, text: path.posix.normalize(`${value.text}/..`) };
  if (!value.absolute || value.anchor === 'root') return undefined;
  return { ...value, text: path.posix.normalize(`${value.text}/..`) };
}

/** The value made absolute (abspath, realpath, resolve(), File.expand_path): the same place, now held absolute. */
export const absolutePath = (value: PathValue): PathValue => ({ ...value, absolute: true });

/** Whether the value names the program file or something below it (not a directory a search path may hold). */
export const isFileValue = (value: PathValue): boolean => value.text.split('/').includes(FILE);

/** A value that names a directory, as a search directory; undefined for the file itself or a name with other characters. */
export function searchDirectory(value: PathValue): SearchDirectory | undefined {
  if (isFileValue(value) || !/^[\w.@+~/-]*$/u.test(value.text)) return undefined;
  if (value.anchor === 'file') return { text: value.text, anchor: 'file' };
  return { text: value.text };
}

/** A search directory that is the program file's directory or one above it (`..`, `../..`): it may hold the workspace. */
export const isAncestor = (directory: SearchDirectory): boolean => directory.text.split('/').every((segment) => segment === '..' || segment === '.');

/**
 * The single expression a name is bound to in `code` (`ROOT = Path(__file__).parent.parent`, Ruby's `lib = ...`): one
 * assignment, and no other binding of the name anywhere (another assignment, augmented or tuple assignment, a `for`,
 * `as`, `def`, `class`, `import`, `global`, a walrus, a keyword argument): else undefined, a value zotbox cannot trace.
 */
export function singleBinding(code: string, name: string): string | undefined {
  const word = name.replace(/[$]/gu, '\\$');
  const definitions = [...code.matchAll(new RegExp(`^[ \\t]*${word}[ \\t]*(?::[^=\\n]*)?=(?!=)[ \\t]*(.+)$`, 'gmu'))];
  if (definitions.length !== 1) return undefined;
  const others = code.split('\n').filter((line) => line !== definitions[0]![0]);
  const binds = new RegExp(
    `(?:^|[^\\w.$])${word}(?![\\w$])[^=\\n]*(?<![=!<>])=(?!=)|(?:^|[^\\w.$])${word}[ \\t]*:=|\\b(?:for|as|def|class|global|nonlocal|import)\\b[^\\n]*(?:^|[^\\w.$])${word}(?![\\w$])`,
    'u',
  );
  if (others.some((line) => binds.test(line))) return undefined;
  return definitions[0]![1]!.replace(/[ \t]+#.*$/u, '').trim();
}
