// Perl modules whose whole job is to put directories on @INC when a program uses them, read as the change to @INC they
// make: FindBin::libs (every BASE/ from the script's directory up to the root), Test::Lib and tlib (t/lib in the file's
// directory or one of its five parents), blib (blib/ in where perl runs or one of four parents), ExtUtils::testlib,
// lib::relative and lib::abs (paths from the file's directory). Any other use of a module named as one of them is
// `computed` (refuses every writer): closed world, never "nothing there". Pure, no I/O.

import { joinPath, programDirectory, searchDirectory, type SearchDirectory } from './file-relative-paths.js';
import type { InterpreterName } from './interpreter-operands.js';
import { searchDirectoryNames, searchWalkLimitName } from './module-search-directories.js';

/** How many directories up FindBin::libs' walk to the root is spelled out; a program deeper than this is unresolved. */
export const PERL_WALK_LEVELS = 40;

/**
 * Names of modules that change @INC by convention: a lower-case last component ending in lib or libs (lib::relative,
 * local::lib, FindBin::libs, rlib, blib, tlib, Module::Install's inc::latest is not one), anything under lib::, and
 * Test::Lib. `lib` itself is read by perl-search-paths.ts.
 */
const SEARCH_PATH_MODULE = /^(?:(?:[\w]+::)*[a-z_]*libs?|lib::[\w:]+|Test::Lib)$/u;

const up = (levels: number) => '../'.repeat(levels);

/** The words of a `use` LIST that is only literals (`qw(a b)`, `'a', "b"`), or undefined. */
function literalWords(list: string): string[] | undefined {
  const inner = list
    .trim()
    .replace(/^\(([\s\S]*)\)$/u, '$1')
    .trim();
  if (inner === '') return [];
  const words = /^qw\s*([([{/<])([\s\S]*)[)\]}/>]$/u.exec(inner);
  if (words !== null) return words[2]!.split(/\s+/u).filter((word) => word !== '');
  if (!/^(?:(?:'[^'\\]*'|"[^"\\$@]*")\s*(?:,|=>)?\s*)+$/u.test(inner)) return undefined;
  return [...inner.matchAll(/'([^'\\]*)'|"([^"\\$@]*)"/gu)].map((match) => match[1] ?? match[2]!);
}

/** FindBin::libs' options: the base name it looks for, or why the directories are not known (`Bin=`, a computed list). */
function findBinLibsBase(words: readonly string[]): { base: string } | { why: string } {
  let base = 'lib';
  for (const word of words) {
    const [key, value] = word.split('=', 2) as [string, string | undefined];
    // Bin= moves the walk's start; every other option (use, export, subdir, subonly, ignore, p5lib, realbin, print...)
    // keeps its directories within BASE/ of the same walk (or uses none of them).
    if (key === 'Bin') return { why: 'Bin= starts its walk from a directory zotbox does not follow' };
    if (key !== 'base') continue;
    // It takes basename(base): one component.
    const name = (value ?? '').replace(/\/+$/u, '').split('/').pop() ?? '';
    if (!/^[\w.@+-]+$/u.test(name) || name === '.' || name === '..') return { why: `base=${value ?? ''} is not a directory name zotbox reads` };
    base = name;
  }
  return { base };
}

/** The directories one `use MODULE LIST` puts on @INC, or why zotbox cannot spell them out. */
function moduleDirectories(module: string, list: string, script: boolean): SearchDirectory[] | { why: string } {
  const words = literalWords(list);
  if (words === undefined) return { why: 'its import list is computed' };
  const fromFile = (text: string): SearchDirectory => ({ text, anchor: 'file' });
  switch (module) {
    case 'FindBin::libs': {
      // $FindBin::Bin is the directory of the script perl runs: in a module, not this file's.
      if (!script) return { why: 'in a module, FindBin names the script perl runs, not this file' };
      const found = findBinLibsBase(words);
      if ('why' in found) return found;
      return Array.from({ length: PERL_WALK_LEVELS + 1 }, (_, levels) => fromFile(`${up(levels)}${found.base}`));
    }
    case 'Test::Lib':
    case 'tlib':
      // The first of the file's directory and its five parents that is named t, with lib/ in it: D/../t/lib is that
      // lib/ whenever D is named t (and a t/lib beside it otherwise: more protected, never less).
      if (words.length > 0) return { why: 'it is given a directory to search from' };
      return Array.from({ length: 6 }, (_, levels) => fromFile(`${up(levels + 1)}t/lib`));
    case 'blib':
      // blib/ (its lib/ and arch/) in where perl runs or one of four parents.
      if (words.length > 0) return { why: 'it is given a directory to search from' };
      return Array.from({ length: 5 }, (_, levels) => ({ text: `${up(levels)}blib` }));
    case 'ExtUtils::testlib':
      return [{ text: 'blib' }];
    case 'lib::relative':
    case 'lib::abs': {
      // Each path relative to the file's directory (lib::abs's -soft is an option; a glob is not read).
      const read: SearchDirectory[] = [];
      for (const word of words.filter((each) => !(module === 'lib::abs' && each.startsWith('-')))) {
        const value = joinPath(programDirectory, word);
        const directory = value === undefined ? undefined : searchDirectory(value);
        if (directory === undefined) return { why: `${JSON.stringify(word)} is not a path zotbox reads` };
        read.push(directory);
      }
      return read;
    }
    default:
      return { why: 'a module that changes @INC zotbox does not read' };
  }
}

/**
 * The directories the search-path modules a program uses put on @INC, whole (search-directory names with `modules`,
 * the .pm files it loads), and the uses zotbox cannot spell out (`computed`). `script`: the file is not a module (no
 * `package` other than main), so FindBin names its directory.
 */
export function perlSearchPathModules(code: string, modules: readonly string[], script: boolean): { names: InterpreterName[]; computed: string[] } {
  const names: InterpreterName[] = [];
  const computed: string[] = [];
  for (const match of code.matchAll(/(?:^|[;{])[ \t]*use\s+([A-Za-z_][\w]*(?:::\w+)*)(?![\w:])((?:"[^"\n]*"|'[^'\n]*'|[^;}"'])*)/gmu)) {
    const module = match[1]!;
    if (module === 'lib' || !SEARCH_PATH_MODULE.test(module)) continue;
    const found = moduleDirectories(module, match[2]!.replace(/^\s*v?\d[\d._]*(?=\s|$)/u, ''), script);
    if ('why' in found) {
      computed.push(`${match[0].trim()} (${found.why})`);
      continue;
    }
    for (const directory of found) names.push(...searchDirectoryNames(directory, modules, 'perl'));
    if (module === 'FindBin::libs') names.push({ text: searchWalkLimitName(PERL_WALK_LEVELS, 'perl'), tree: false, anchor: 'file' });
  }
  // The same modules imported by a call (`require FindBin::libs; FindBin::libs->import(...)`): not read.
  for (const match of code.matchAll(/\b([A-Za-z_][\w]*(?:::\w+)*)\s*->\s*import\b/gu))
    if (match[1] !== 'lib' && SEARCH_PATH_MODULE.test(match[1]!)) computed.push(`${match[0].trim()} (a change to @INC zotbox does not read)`);
  return { names, computed };
}
