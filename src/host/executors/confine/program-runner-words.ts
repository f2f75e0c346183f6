// Whether a package runner is in play for a file of program code, so that a command it computes (one zotbox cannot
// spell out) may run a name through node_modules/.bin and must be unresolved: a literal of the code names a package
// runner (npx, pnpx, bunx, bun, npm, pnpm, yarn, corepack) or a node_modules/.bin directory, or is a name a
// node_modules/.bin holds from where the commands run upward; or the PATH they run with holds a node_modules/.bin.
// Where none is, a computed command (`execSync(process.argv[2])`, git's own commands) is left to the shell's reading:
// the balance that keeps a hook computing `git diff --name-only` from refusing every writer. Reads directories only.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { ProgramLanguage } from './inline-program-runs.js';
import { codeSkeleton, literalAt, literalText } from './program-code-literals.js';

const RUNNER_WORDS = new Set(['npx', 'pnpx', 'bunx', 'bun', 'npm', 'pnpm', 'yarn', 'corepack']);

const isWithin = (inner: string, outer: string) => {
  const relative = path.relative(path.resolve(outer), path.resolve(inner));
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
};

/** Each word of each string literal of the code (comments are not read). */
function literalWords(code: string, language: ProgramLanguage | undefined): Set<string> {
  const { clean } = codeSkeleton(code, language);
  const words = new Set<string>();
  for (let index = 0; index < clean.length; index++) {
    const literal = literalAt(clean, index, language);
    if (literal === undefined) continue;
    for (const word of literalText(literal, ' ').split(/[\s;&|()'"=,:]+/u)) if (word !== '') words.add(word);
    index = literal.end - 1;
  }
  return words;
}

/** The names the node_modules/.bin directories from `directory` up to the root hold; undefined where one cannot be listed. */
function binNames(directory: string): Set<string> | undefined {
  const names = new Set<string>();
  for (let at = path.resolve(directory); ; at = path.dirname(at)) {
    try {
      for (const name of readdirSync(path.join(at, 'node_modules', '.bin'))) names.add(name);
    } catch (error) {
      // None there (or a file in the way): nothing it holds. Anything else: zotbox cannot tell what it holds.
      if (!['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) return undefined;
    }
    if (path.dirname(at) === at) return names;
  }
}

/**
 * Why a package runner is in play for `code` run from `directories` with `environment`'s PATH, or undefined where none
 * is: the first literal word that is a runner or a .bin name, or the PATH entry.
 */
export function runnerInPlay(code: string, language: ProgramLanguage | undefined, directories: readonly string[], environment: Readonly<Record<string, string | undefined>>): string | undefined {
  // A .bin on PATH counts where it is relative (`node_modules/.bin`: where the commands run) or lies on the way up from
  // there or below (the project's own); a tool's own elsewhere (`npx` puts its project's first) holds no project file.
  const related = (entry: string) => {
    const project = path.dirname(path.dirname(entry));
    return !path.isAbsolute(entry) || directories.some((directory) => isWithin(project, directory) || (isWithin(directory, project) && path.dirname(project) !== project));
  };
  const onPath = (environment['PATH'] ?? '').split(':').find((entry) => /(?:^|\/)node_modules\/\.bin\/?$/u.test(entry) && related(entry));
  if (onPath !== undefined) return `the PATH it runs with holds ${onPath}`;
  const words = literalWords(code, language);
  for (const word of words) {
    if (RUNNER_WORDS.has(path.basename(word))) return `the program names the package runner ${JSON.stringify(word)}`;
    if (word.includes('node_modules/.bin')) return `the program names ${JSON.stringify(word)}`;
  }
  for (const directory of directories) {
    const held = binNames(directory);
    if (held === undefined) return `${path.join(directory, 'node_modules/.bin')} (or one above it) cannot be listed`;
    for (const word of words) if (held.has(word)) return `the program names ${JSON.stringify(word)}, which a node_modules/.bin holds`;
  }
  return undefined;
}

/** The language of a program file, by its name or its #! line: each has its own process calls and comments. */
export function programFileLanguage(file: string, text: string): ProgramLanguage | undefined {
  if (/\.py$/iu.test(file)) return 'python';
  if (/\.[cm]?[jt]sx?$/iu.test(file)) return 'node';
  if (/\.p[lm]$/iu.test(file)) return 'perl';
  if (/\.rb$/iu.test(file)) return 'ruby';
  const line = /^#!\s*(\S+)((?:[ \t]+\S+)*)/u.exec(text);
  if (line === null) return undefined;
  const interpreter = path.basename(line[1]!) === 'env' ? (line[2]!.split(/\s+/u).find((word) => word !== '' && !word.startsWith('-') && !word.includes('=')) ?? '') : path.basename(line[1]!);
  if (/^(?:python|pypy)/u.test(interpreter)) return 'python';
  if (/^(?:node|nodejs|bun|deno|tsx|ts-node)/u.test(interpreter)) return 'node';
  if (interpreter.startsWith('perl')) return 'perl';
  if (interpreter.startsWith('ruby')) return 'ruby';
  return undefined;
}
