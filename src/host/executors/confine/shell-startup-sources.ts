// What a shell's startup file (.bashrc, .profile, .zshrc, .zshenv ...) sources: each `source FILE` / `. FILE` command
// (behind `if`, `&&`, `command`, `builtin`, in a function body: over-read, never under-read), read by the shell's
// lexer. A literal target is named (with `~/` and $HOME the home directory; relative, from the startup file's own
// directory, where the shell starts), and read in turn as a startup file, to the end of the chain. Closed world: a
// target zotbox cannot spell out (another variable, a pattern, a loop's `$f`) is unresolved, and so is a file the
// lexer cannot split; a process substitution's operands are each read as the file. Pure, no I/O.
import path from 'node:path';
import { type LexNotes, lexShell, processSubstitutionOf } from './shell-lexer.js';
import { CLIMB_REASON, climbsOutOfName } from './lexical-climb.js';

/** A file a startup file sources: as written (absolute, or relative to the startup file's directory), with its line. */
export interface SourcedName {
  readonly name: string;
  readonly index: number;
}

/** Words before a command's program that leave what it runs the program: keywords, grouping, `command`/`builtin`. */
const LEADING = new Set(['if', 'then', 'else', 'elif', 'do', 'while', 'until', '!', '{', '(', 'time', 'command', 'builtin', 'noglob', 'nocorrect']);
/** The private-use marks the lexer leaves for expansions, patterns, process substitutions and case lists. */
const COMPUTED_MARK = /[\uE000-\uF8FF]/u;

/**
 * The names a process substitution's commands give besides their programs (over-read: `cat FILE` writes FILE, a
 * program's output is its own doing, and the program is a word the startup file's words name).
 */
function substitutedNames(text: string, home: string): string[] {
  return lexShell(text, [])
    .flatMap((words) => words.slice(1))
    .filter((word) => !COMPUTED_MARK.test(word) && !word.startsWith('-') && word !== '')
    .map((word) => word.replace(/^~(?=\/|$)/u, home));
}

/** The first line of `lines` that spells `target` (0 when none does: the reason still names the file). */
function lineOf(lines: readonly string[], target: string): number {
  const index = lines.findIndex((line) => /(^|[\s;&|({])(?:\.|source)\s/u.test(line) && line.includes(target));
  return index === -1
    ? Math.max(
        0,
        lines.findIndex((line) => /(^|[\s;&|({])(?:\.|source)\s/u.test(line)),
      )
    : index;
}

/**
 * The files `text` sources, with `home` for `~/` and $HOME; what it sources by a name zotbox cannot spell out is pushed
 * to `unresolved` through `where` (the line and why).
 */
export function shellSourcedNames(text: string, home: string, where: (index: number, what: string) => string, unresolved: string[]): SourcedName[] {
  const notes: LexNotes = { hereDocuments: [], pipes: new Map(), processSubstitutions: [], unclosed: false };
  const commands = lexShell(text, [], (expansion) => (/^\$(?:HOME|\{HOME\})$/u.test(expansion) ? home : undefined), notes);
  const lines = text.split('\n');
  if (notes.unclosed) {
    unresolved.push(where(0, ': a quote is never closed, so zotbox cannot tell which files the shell sources from it'));
    return [];
  }
  const names: SourcedName[] = [];
  for (const words of commands) {
    let at = 0;
    while (at < words.length && (LEADING.has(words[at]!) || /^[A-Za-z_][A-Za-z0-9_]*=/u.test(words[at]!))) at++;
    if (words[at] !== 'source' && words[at] !== '.') continue;
    const raw = words[at + 1] === '--' ? words[at + 2] : words[at + 1];
    // `.` alone (or `source` with nothing after it) sources nothing.
    if (raw === undefined) continue;
    // `source <(cat tools/env.sh)`: the text its command writes; each literal operand there may be the file it is.
    const substitution = processSubstitutionOf(raw);
    if (substitution !== undefined) {
      names.push(...substitutedNames(notes.processSubstitutions?.[substitution] ?? '', home).map((name) => ({ name, index: lineOf(lines, '<(') })));
      continue;
    }
    const target = raw.replace(/^~(?=\/|$)/u, home);
    if (COMPUTED_MARK.test(target) || target.startsWith('~') || target === '') {
      unresolved.push(where(lineOf(lines, 'source'), ': the shell sources a file whose name is computed, and zotbox cannot work out which file that is'));
      continue;
    }
    // The shell walks a `..` through the folder before it, which may become a link (lexical-climb.ts).
    if (climbsOutOfName(target)) {
      unresolved.push(where(lineOf(lines, raw), `: the shell sources ${JSON.stringify(target)}, and ${CLIMB_REASON}`));
      continue;
    }
    names.push({ name: path.isAbsolute(target) ? target : path.normalize(target), index: lineOf(lines, raw) });
  }
  return names;
}
