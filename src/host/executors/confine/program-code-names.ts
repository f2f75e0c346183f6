// What a file of program code (Python, JavaScript, Perl, Ruby) loads and runs by its language's grammar, resolved from
// the file's own directory as its interpreter resolves it: the reading of a hook program's code.
import path from 'node:path';
import { codeComputed, codeNames } from './interpreter-operands.js';
import { CLIMB_REASON, climbsOutOfName } from './lexical-climb.js';
import { packageSearchRoot } from './python-package-root.js';
import { moduleEntriesOf } from './python-module-entries.js';
import { plainWord } from './tool-file-words.js';

/** A file of program code (by its name or its #! line): Python, JavaScript, Perl or Ruby, which its interpreter loads. */
export function isProgramCode(file: string, text: string): boolean {
  const line = /^#!\s*(\S+)((?:[ \t]+\S+)*)/u.exec(text);
  // `#!/usr/bin/env -S node --flag`: env's program is its first word that is no option or assignment.
  const interpreter = line === null ? '' : path.basename(line[1]!) === 'env' ? (line[2]!.split(/\s+/u).find((word) => word !== '' && !word.startsWith('-') && !word.includes('=')) ?? '') : line[1]!;
  return /\.(py|[cm]?js|[cm]?ts|pl|pm|rb)$/iu.test(file) || /^(python|pypy|node|nodejs|bun|deno|tsx|ts-node|perl|ruby)[0-9.]*$/u.test(path.basename(interpreter));
}

/**
 * What a file of program code loads and runs by its language's grammar: the relative modules it requires or imports and
 * the modules it imports, resolved from THE FILE's directory as node and Python resolve them (node's extensions and
 * index files, interpreter-operands.ts); and each quoted pattern its code holds (`glob.glob("tools/checks/*.sh")`),
 * which covers its fixed directory, relative to where the program runs (a pattern with none is unresolved). A quoted
 * pattern that is an object's key (lint-staged's `'*.md': ...`) matches files handed to a command, and runs nothing.
 */
export function programCodeNames(
  file: string,
  text: string,
  where: (index: number, what: string) => string,
  unresolved: string[],
  linkDirectory?: string,
): { name: string; tree: boolean; index: number }[] {
  const names: { name: string; tree: boolean; index: number }[] = [];
  const lines = text.split('\n');
  const packageRoot = packageSearchRoot(file) ?? '';
  for (const name of codeNames(text)) {
    const index = Math.max(
      0,
      lines.findIndex((line) =>
        line.includes(
          name.text
            .replace(/\.(py|[cm]?js|json|node)$/u, '')
            .replace(/\/(__init__|__main__|index)$/u, '')
            .split('/')
            .pop() ?? '',
        ),
      ),
    );
    // Looked up where the program runs (the base), beside the file, and above its package; a relative import beside it
    // only (a linked hook is read where it leads); an absolute path as it is. A program run through a link names a
    // path from its file beside the link too (Python's __file__ is the link, abspath(__file__) its directory), all
    // but its sys.path[0], which CPython takes where the link leads.
    // A `..` after a folder is walked through that folder, which may become a link (lexical-climb.ts).
    if (climbsOutOfName(name.text)) {
      unresolved.push(`${where(index, '')}: it names ${JSON.stringify(name.text)}, and ${CLIMB_REASON}`);
      continue;
    }
    const beside = linkDirectory === undefined || moduleEntriesOf(name.text) !== undefined ? [] : [linkDirectory];
    const roots = path.isAbsolute(name.text) ? [''] : name.anchor === 'file' ? [...new Set([path.dirname(file), ...beside])] : [...new Set([path.dirname(file), '', packageRoot])];
    for (const root of roots) names.push({ name: path.join(root, name.text), tree: name.tree, index });
  }
  for (const computed of codeComputed(text)) unresolved.push(`${file}: the program ${computed}, and zotbox cannot work out which directory that is`);
  for (const [index, line] of lines.entries()) {
    for (const match of line.matchAll(/(["'`])((?:(?!\1)[^\\\n])*[*?[](?:(?!\1)[^\\\n])*)\1(?!\s*:)/gu)) {
      const pattern = match[2]!;
      // A path pattern: path characters only, with a "/" or a "." (not "[ERROR]" or "***" in a message).
      if (!/^[\w.@+~/*?[\]{}!,-]+$/u.test(pattern) || !/[/.]/u.test(pattern)) continue;
      const fixed = pattern
        .slice(0, pattern.search(/[*?[]/u))
        .replace(/[^/]*$/u, '')
        .replace(/\/+$/u, '');
      if (fixed === '' || !plainWord(fixed)) unresolved.push(where(index, `: the program runs what the pattern ${JSON.stringify(pattern)} may match, and zotbox cannot tell which files that is`));
      else names.push({ name: fixed, tree: true, index });
    }
  }
  return names;
}
