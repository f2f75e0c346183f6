// Where a file of program code moves its own working directory: node's `process.chdir(X)`, Python's `os.chdir(X)` (and
// contextlib's `chdir`), Perl's `chdir X`, Ruby's `Dir.chdir(X)`, and every name they are bound to (`const { chdir } =
// process`, `const cd = process.chdir`, `from os import chdir as cd`). Each is the expression it moves to; closed world:
// a chdir zotbox cannot read (called without a directory, passed on as a value, `fchdir`) is UNKNOWN, never left out.
// By name across the file (no scopes, no order): more moves, never fewer. Pure: the caller reads each expression.
import type { ProgramLanguage } from './inline-program-runs.js';
import { listPieces, UNKNOWN, type ValueSource } from './program-command-values.js';

const escape = (name: string) => name.replace(/\$/gu, '\\$');

/** The names the code binds chdir to (`const { chdir: cd } = process`, `const cd = process.chdir`, `from os import chdir as cd`), and where each binding is. */
function chdirAliases(skeleton: string): { names: Set<string>; bindings: Set<number> } {
  const names = new Set(['chdir']);
  const bindings = new Set<number>();
  for (const match of skeleton.matchAll(/\{([^}]*)\}\s*=\s*(?:process|require\s*\(\s*["'](?:node:)?process["']\s*\))/gu))
    for (const entry of match[1]!.split(',')) {
      const [from, to] = entry.split(':').map((part) => part.trim());
      if (from === 'chdir' && to !== undefined && /^[A-Za-z_$][\w$]*$/u.test(to)) names.add(to);
    }
  for (const match of skeleton.matchAll(/(?:^|[\s;])(?:const|let|var)?\s*([A-Za-z_$][\w$]*)\s*=\s*(?:[\w$]+\s*\.\s*)?chdir(?:\s*\.\s*bind\s*\([^)]*\))?\s*(?=[;\n]|$)/gmu)) {
    names.add(match[1]!);
    bindings.add(match.index + match[0].lastIndexOf('chdir'));
  }
  for (const match of skeleton.matchAll(/\bfrom\s+(?:os|contextlib)\s+import\s+\(?([^)\n]*)/gu))
    for (const entry of match[1]!.split(',')) {
      const [from, to] = entry.split(/\s+as\s+/u).map((part) => part.trim());
      if (from === 'chdir' && to !== undefined) names.add(to);
    }
  return { names, bindings };
}

/** Whether the mention at `at` is where a name is bound or imported, not a use of it. */
function isBinding(skeleton: string, at: number, bindings: ReadonlySet<number>): boolean {
  if (bindings.has(at)) return true;
  const line = skeleton.slice(skeleton.lastIndexOf('\n', at) + 1, at);
  return /\b(?:from\s+\S+\s+)?import\b/u.test(line) || /\{[^}]*$/u.test(line) || /^\s*(?:const|let|var)\s+$/u.test(line) || /\b(?:def|function|sub)\s+$/u.test(line);
}

/** The expressions the code moves its working directory to (UNKNOWN for a move zotbox cannot read). */
export function directoryChanges(reader: ValueSource, language: ProgramLanguage | undefined): string[] {
  const { skeleton, clean, skip } = reader;
  const moves: string[] = [];
  const { names, bindings } = chdirAliases(skeleton);
  if (/(?<![\w$])fchdir(?![\w$])/u.test(skeleton)) moves.push(UNKNOWN);
  const perlish = language === 'perl' || language === 'ruby' || language === undefined;
  for (const name of names)
    for (const match of skeleton.matchAll(new RegExp(String.raw`(?<![\w$])${escape(name)}(?![\w$])`, 'gu'))) {
      const after = skeleton.slice(match.index + name.length);
      // Ruby's `chdir:` option of a call is the call's cwd (read with it), no move of the program's own.
      if (isBinding(skeleton, match.index, bindings) || /^\s*(?::(?!:)|=>)/u.test(after)) continue;
      const call = /^\s*\(/u.exec(after);
      if (call !== null) {
        // A directory given (Python's `path=` keyword too); none is the home directory.
        const pieces = listPieces(clean, match.index + name.length + call[0].length - 1, skip);
        moves.push(pieces.length === 0 ? UNKNOWN : pieces[0]!.replace(/^\s*path\s*=(?!=)/u, ''));
        continue;
      }
      // Perl's `chdir "x";` / `chdir $dir or die`, without parentheses.
      const bare = perlish ? /^[ \t]+(?!or\b|and\b|if\b|unless\b)([^;\n]+?)(?=\s*(?:;|\n|$|\bor\b|\band\b|\bif\b|\bunless\b|\bdo\b|\{))/u.exec(clean.slice(match.index + name.length)) : null;
      moves.push(bare === null ? UNKNOWN : bare[1]!);
    }
  return moves;
}
