// A directory a Perl or Ruby program puts on its module search path (`use lib`, `-I`, `$LOAD_PATH.unshift`), as the
// readers pass it along: a reserved last path component naming the language. It is searched before the installed
// modules, so every module loaded there (the program's, the standard library's own `strict`, `Exporter`, `set`...)
// may come from it: the directory is protected whole. Where it holds a write scope (`use lib "$FindBin::Bin/.."`
// from bin/, `ruby -I .` at the top) it cannot be protected whole, and no list of module names is the closed world
// (Python's module entries are python-installed-names.ts): such a search path is unresolved and refuses every writer.
// A walk to the root (FindBin::libs) is spelled out to a fixed depth, with a name that is unresolved where it falls short.
import path from 'node:path';
import type { ControlLocation } from '../../../policy/protected-files.js';
import { isInsideRoot } from '../../../policy/scopes.js';
import type { SearchDirectory } from './file-relative-paths.js';
import type { InterpreterName } from './interpreter-operands.js';

const MARK = '__zotbox_module_search_directory__@';
/** The end of a walk up to the root spelled out to a fixed depth (FindBin::libs): it must land on the root. */
const WALK_MARK = '__zotbox_module_search_walk__@';

/** The name, `levels` directories up, that is unresolved unless those levels reach the root (a walk spelled out that far). */
export function searchWalkLimitName(levels: number, language: 'perl' | 'ruby'): string {
  return `${'../'.repeat(levels)}${WALK_MARK}${language}`;
}

/** The name standing for `directory` (relative or absolute) on `language`'s module search path. */
export function searchDirectoryName(directory: string, language: 'perl' | 'ruby'): string {
  const trimmed = directory.replace(/\/+$/u, '');
  return trimmed === '' || trimmed === '.' ? `${MARK}${language}` : path.join(trimmed, `${MARK}${language}`);
}

/**
 * What a directory on Perl's or Ruby's module search path makes control locations: itself whole, its mark (unresolved
 * where it holds a write scope), and each module file the program loads there (`files`, relative to it).
 */
export function searchDirectoryNames(directory: SearchDirectory, files: readonly string[], language: 'perl' | 'ruby'): InterpreterName[] {
  const anchor = directory.anchor === undefined ? {} : { anchor: directory.anchor };
  const text = directory.text.replace(/\/+$/u, '') || '.';
  return [
    { text, tree: true, ...anchor },
    { text: searchDirectoryName(text, language), tree: false, ...anchor },
    ...files.map((file) => ({ text: text === '.' ? file : `${text}/${file}`, tree: false, ...anchor })),
  ];
}

/**
 * The location a path built by searchDirectoryName stands for: its directory whole, or unresolved where that directory
 * holds a write scope. Undefined for any other path.
 */
export function searchDirectoryLocation(written: string, reason: string, writeRoots: readonly string[]): { readonly location: ControlLocation } | { readonly unresolved: string } | undefined {
  const last = path.basename(written);
  if (last.startsWith(WALK_MARK)) {
    // Past the root every further `..` stays there: the directories named up to it were every one the walk visits.
    if (path.dirname(written) === '/') return { location: { path: written, tree: false, reason } };
    return {
      unresolved: `${reason}; ${last.slice(WALK_MARK.length) === 'ruby' ? 'Ruby' : 'Perl'} searches every directory from the program's up to the root, and it lies deeper than zotbox spells out`,
    };
  }
  if (!last.startsWith(MARK)) return undefined;
  const directory = path.dirname(written);
  const language = last.slice(MARK.length) === 'ruby' ? 'Ruby' : 'Perl';
  const why = `${reason}; ${language} looks up every module the program loads there before the installed ones`;
  const holds = writeRoots.find((root) => isInsideRoot(root, directory));
  if (holds !== undefined)
    return {
      unresolved: `${directory}: ${why}, and it holds the write scope ${holds}, so zotbox cannot keep what is loaded from it out of reach; put the program's modules in a directory of their own (lib/)`,
    };
  return { location: { path: directory, tree: true, reason: why } };
}
