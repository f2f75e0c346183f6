// The paths a program builds with its language's path calls, so that a constant directory carried into them is spelled
// out: node's path.join/path.resolve, Python's os.path.join, pathlib's Path(…) and `/`, str()/String()/os.fspath(), the
// directory the program runs in (process.cwd(), os.getcwd()) and the program's own (__dirname, __file__'s parent(s)).
// Recognizes the shapes only; the caller gives each piece its values. Anything else stays the caller's hole. Pure.

/** Stands for the program file's own directory inside a value (the caller puts the directory in, or a hole). */
export const OWN = '\uE7FE';

/**
 * Marks a package module's resolved path (`require.resolve("pkg/x")`) inside a value: it is that module only alone.
 * Anything put together with it (a join, `+`, `..`) lies under the directory node found the package in, which is no
 * path from where the program runs: the caller makes such a value computed (see `moduleJoined`).
 */
export const MODULE = '\uE7FC';

/** Whether a value put together from `pieces` uses a package module's resolved path as anything but the whole value. */
export const moduleJoined = (pieces: readonly string[]): boolean => pieces.length > 1 && pieces.some((piece) => piece.includes(MODULE));

/** A path call at the start of a term: how its pieces are put together, and where the call ends. */
export interface PathCall {
  /** `join`: node's path.join (glues every piece); `restart`: path.resolve, os.path.join (an absolute piece starts again). */
  readonly kind: 'join' | 'restart' | 'same';
  /** Where the opening parenthesis is. */
  readonly open: number;
}

const CALL = /^(?:(path(?:\.posix)?\.join)|(path(?:\.posix)?\.resolve|os\.path\.join|posixpath\.join)|((?:pathlib\.)?(?:Pure(?:Posix)?)?Path|str|String|os\.fspath))\s*\(/u;

/** The path call that starts `text` (none where `text` does not start with one). */
export function pathCallAt(text: string): PathCall | undefined {
  const match = CALL.exec(text);
  if (match === null) return undefined;
  return { kind: match[1] !== undefined ? 'join' : match[2] !== undefined ? 'restart' : 'same', open: match[0].length - 1 };
}

/** A directory the language gives at the start of `text`: where the program runs ('.') or its own (OWN, its parents, a file beside it). */
export function knownDirectoryAt(text: string): { value: string; length: number } | undefined {
  const running = /^(?:process\.cwd\(\s*\)|os\.getcwd\(\s*\)|(?:pathlib\.)?Path\.cwd\(\s*\))/u.exec(text);
  if (running !== null) return { value: '.', length: running[0].length };
  const own = /^(?:__dirname|import\.meta\.dirname|os\.path\.dirname\(\s*(?:os\.path\.(?:abspath|realpath)\(\s*__file__\s*\)|__file__)\s*\))(?![\w$])/u.exec(text);
  if (own !== null) return { value: OWN, length: own[0].length };
  // A file beside the program: fileURLToPath(new URL("./x", import.meta.url)), require.resolve("./x").
  const beside = /^(?:(?:url\.)?fileURLToPath\(\s*new\s+URL\(\s*(["'])(\.{1,2}\/[^"'$`\\\n]*)\1\s*,\s*import\.meta\.url\s*\)\s*\)|require\.resolve\(\s*(["'])(\.{1,2}\/[^"'$`\\\n]*)\3\s*\))/u.exec(
    text,
  );
  if (beside !== null) return { value: `${OWN}/${beside[2] ?? beside[4]!}`, length: beside[0].length };
  // require.resolve("pkg/x") of a package: the file node's resolution finds, which the module reading protects (or
  // leaves unresolved: node-module-resolution.ts), so the operand is spelled out; the name as written is protected too.
  // Marked MODULE: that holds for the value alone; joined on, it is a path under wherever node found the package.
  const resolved = /^require\.resolve\(\s*(["'])((?:@[\w.-]+\/)?[\w.-]+(?:\/[^"'$`\\\n]*)?)\1\s*\)/u.exec(text);
  if (resolved !== null) return { value: MODULE + resolved[2]!, length: resolved[0].length };
  // Path(__file__)[.resolve()|.absolute()].parent(.parent)* or .parents[N]: that many levels above the own directory.
  const pathlib = /^(?:pathlib\.)?Path\(\s*__file__\s*\)(?:\.(?:resolve|absolute)\(\s*\))*((?:\.parent(?![\w$]))+|\.parents\[\s*(\d+)\s*\])/u.exec(text);
  if (pathlib === null) return undefined;
  const levels = pathlib[2] !== undefined ? Number(pathlib[2]) + 1 : pathlib[1]!.split('.parent').length - 1;
  return { value: [OWN, ...Array.from({ length: levels - 1 }, () => '..')].join('/'), length: pathlib[0].length };
}

/** Pieces' values put together as the call does (no normalizing: a `..` after OWN must stay to be placed). */
export function joinPieces(kind: PathCall['kind'], pieces: readonly string[]): string {
  if (kind === 'same') return pieces[0] ?? '';
  let from = 0;
  if (kind === 'restart') for (const [index, piece] of pieces.entries()) if (piece.startsWith('/') || piece.startsWith(OWN)) from = index;
  return pieces
    .slice(from)
    .filter((piece) => piece !== '')
    .join('/')
    .replace(/\/{2,}/gu, '/');
}
