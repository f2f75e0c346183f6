// The names a shell text runs through the project's `node_modules/.bin`: `npx NAME`, `npm exec [--] NAME` (`npm x`),
// `pnpm exec NAME`, `pnpm NAME`, `yarn [run|exec] NAME`, `pnpx`/`bunx NAME`, and a plain `NAME` where the script's
// PATH holds a `node_modules/.bin` entry (`PATH=node_modules/.bin:$PATH`; husky v9 puts it first for every hook).
// Looked up as npm does, from where the command runs up to the root: a name found there is run as
// `node_modules/.bin/NAME` written out (its link followed, where it leads read: tool-file-references.ts). A name found
// nowhere is left to the shell's reading (npx would download it): a command name, as any other.

import { lstatSync } from 'node:fs';
import path from 'node:path';

/** Programs that run the command after them (their options and assignments skipped). */
const PREFIXES = new Set(['exec', 'command', 'env', 'nice', 'nohup', 'time', 'builtin']);
/** Options of those programs that take a value as the next word (`nice -n 5`, `env -u VAR`, `env -C DIR`). */
const PREFIX_VALUED = new Set(['-n', '--adjustment', '-u', '--unset', '-C', '--chdir']);
/** The shell's own builtins and keywords: never looked up on PATH. */
const SHELL_OWN = new Set(
  'export local declare readonly typeset set unset cd echo printf test [ [[ if then else elif fi for do done while until case esac exit return true false . source shift trap eval wait read'.split(
    ' ',
  ),
);
/** Options of npx / npm exec / pnpm / yarn that take a value as the next word. */
const VALUED = new Set(['-p', '--package', '-C', '--dir', '--filter', '-F', '--prefix', '--workspace', '-w', '--cwd']);

/** The words of each simple command of `text`, quotes removed (rough: a command it cannot split names nothing here; the shell reading still protects every word). */
function commandsOf(text: string): string[][] {
  return text
    .split(/\n|;|&&|\|\||\||&|\(|\)|`|\$\(/u)
    .map((command) => [...command.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/gu)].map((match) => match[1] ?? match[2] ?? match[3]!))
    .filter((words) => words.length > 0);
}

/** Whether `text` puts a `node_modules/.bin` directory on PATH (an assignment, exported or not, or husky's `export PATH=...`). */
export function putsNodeBinOnPath(text: string): boolean {
  return /(?:^|[\s;&|(])(?:export\s+|declare\s+-x\s+|local\s+)?PATH=["']?[^\s;&|]*node_modules\/\.bin/mu.test(text);
}

/** The first operand at or after `at`, past options (and the values of those that take one) and a `--`. */
function operandFrom(words: readonly string[], at: number): number {
  let index = at;
  while (index < words.length && words[index]!.startsWith('-')) {
    if (words[index] === '--') return index + 1;
    index += VALUED.has(words[index]!) ? 2 : 1;
  }
  return index;
}

/**
 * The command names `text` runs through node_modules/.bin, each as written (no "/"), in order. `pathHasBin`: the PATH
 * the text runs with already holds node_modules/.bin (a husky hook), or the text puts it there.
 */
export function nodeBinRuns(text: string, pathHasBin = false): string[] {
  const onPath = pathHasBin || putsNodeBinOnPath(text);
  const found: string[] = [];
  for (const words of commandsOf(text)) {
    let at = 0;
    while (at < words.length && (/^[A-Za-z_]\w*=/u.test(words[at]!) || PREFIXES.has(words[at]!) || (at > 0 && words[at]!.startsWith('-')))) at += at > 0 && PREFIX_VALUED.has(words[at]!) ? 2 : 1;
    const program = words[at];
    if (program === undefined) continue;
    const next = operandFrom(words, at + 1);
    let name: string | undefined;
    if (['npx', 'pnpx', 'bunx'].includes(program)) name = words[next];
    else if (program === 'npm' && (words[next] === 'exec' || words[next] === 'x')) name = words[operandFrom(words, next + 1)];
    else if (program === 'pnpm' || program === 'yarn') {
      // `pnpm NAME` and `yarn NAME` run a package.json script of that name first, else the bin (the script is read
      // with package.json); `run`/`exec` name it next. `dlx` downloads: no lookup.
      const word = words[next];
      name = word === 'run' || word === 'exec' || word === 'run-script' ? words[operandFrom(words, next + 1)] : word === 'dlx' ? undefined : word;
    } else if (onPath && !SHELL_OWN.has(program)) name = program;
    if (name !== undefined && /^[\w@.+-][\w@.+-]*$/u.test(name) && !name.startsWith('.')) found.push(name);
  }
  return [...new Set(found)];
}

/**
 * Where `name` is looked up in node_modules/.bin from `directory` upward, nearest first, up to and including the first
 * that holds it (a link counts, followed or not); none when no node_modules/.bin holds it. A place zotbox cannot
 * examine ends the lookup there, named: it is protected, and read or refused, as the path written out is.
 */
export function nodeBinPlaces(name: string, directory: string): string[] {
  const places: string[] = [];
  for (let at = path.resolve(directory); ; at = path.dirname(at)) {
    if (path.basename(at) !== 'node_modules') {
      const candidate = path.join(at, 'node_modules', '.bin', name);
      places.push(candidate);
      let present: boolean;
      try {
        present = lstatSync(candidate, { throwIfNoEntry: false }) !== undefined;
      } catch (error) {
        // Below a file (ENOTDIR): nothing there. Anything else: named, so the reading that follows refuses it.
        present = (error as NodeJS.ErrnoException).code !== 'ENOTDIR';
      }
      if (present) return places;
    }
    if (path.dirname(at) === at) return [];
  }
}
