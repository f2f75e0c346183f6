// What a package runner's words say it runs (npx, `npm exec`, pnpm, yarn, bun, pnpx, bunx): the name it looks up in
// node_modules/.bin, the package specs it takes, the shell text it runs, its own directory and workspace options. Pure
// reading of words: no I/O; where the name is looked up is node-bin-runs.ts's.

import path from 'node:path';
import { unmark } from './shell-lexer.js';

/** Options of npx / npm exec / pnpm / yarn that take a value as the next word. */
const VALUED = new Set(['-p', '--package', '-C', '--dir', '--filter', '-F', '--filter-prod', '--prefix', '--workspace', '-w', '--cwd', '-c', '--call']);
/** Their options that name the directory the command runs in (npm's -C is --prefix, pnpm's is --dir). */
const DIRECTORY_OPTIONS = ['-C', '--prefix', '--dir', '--cwd'];
/** Their options that run the command in workspace packages (npm's --workspace(s), pnpm's --filter and --recursive, -w either's). */
const WORKSPACE_OPTIONS = ['--workspace', '-w', '--workspaces', '-ws', '--filter', '-F', '--filter-prod', '--recursive', '-r'];
/** Their options whose value is shell text run with node_modules/.bin on PATH (pnpm's --shell-mode makes the operand that). */
const CALL_OPTIONS = ['-c', '--call'];
/**
 * npm's command words that are `exec`: the command, its alias, and every unique abbreviation npm's deref takes
 * (`npm exe`; `ex` is also explain's and explore's, so npm refuses it).
 */
const NPM_EXEC = new Set(['exec', 'exe', 'x']);
/** The runners that take their operand as a package spec and run that package's bin when no .bin holds the name. */
const SPEC_RUNNERS = new Set(['npx', 'npm', 'bunx']);
/** yarn's own commands (Berry's and yarn 1's): `yarn install` runs no script or bin of that name. */
export const YARN_COMMANDS = new Set(
  'add audit autoclean bin cache check config constraints create dedupe dlx exec explain generate-lock-entry global help import info init install licenses link list login logout node npm outdated owner pack patch patch-commit plugin policies publish rebuild remove run search set stage tag team unlink unplug up upgrade upgrade-interactive version versions why workspace workspaces'.split(
    ' ',
  ),
);
/** bun's own commands: `bun install`, `bun test` run no script or bin of that name (`bun NAME` runs one otherwise). */
const BUN_COMMANDS = new Set(
  'a add audit build c completions create exec help i info init install link outdated patch patch-commit pm publish remove repl rm test unlink update upgrade why'.split(' '),
);

/** The first operand at or after `at`, past options (and the values of those that take one) and a `--`. */
function operandFrom(words: readonly string[], at: number): number {
  let index = at;
  while (index < words.length && words[index]!.startsWith('-')) {
    if (words[index] === '--') return index + 1;
    index += VALUED.has(words[index]!) ? 2 : 1;
  }
  return index;
}

/** The value of the last of `names` among words[from, to) (`-C DIR`, `--prefix=DIR`), if one is there. */
function optionValue(words: readonly string[], from: number, to: number, names: readonly string[]): string | undefined {
  let value: string | undefined;
  for (let index = from; index < to; index++) {
    const word = words[index]!;
    if (names.includes(word)) value = words[index + 1];
    else for (const name of names) if (name.startsWith('--') && word.startsWith(`${name}=`)) value = word.slice(name.length + 1);
  }
  return value;
}

/**
 * What a package runner at `at` runs: the name it looks up in node_modules/.bin, the shell text it runs with
 * node_modules/.bin on PATH (`npx -c`, `npm exec --call`, `pnpm exec --shell-mode`), the directory its own option
 * moves it to. Undefined for a program that is no package runner; an empty result for one that runs none (`npm test`,
 * `pnpm dlx`: npm scripts are read with package.json, downloads are no project file).
 */
export function runnerName(words: readonly string[], at: number): RunnerRun | undefined {
  const program = path.basename(unmark(words[at]!));
  const next = operandFrom(words, at + 1);
  let operand: number | undefined;
  if (program === 'yarn' && (words[next] === 'workspace' || words[next] === 'workspaces')) {
    // `yarn workspace PKG NAME`, `yarn workspaces foreach … run NAME`: run in workspace packages.
    const run = words.findIndex((word, index) => index > next && (word === 'run' || word === 'exec'));
    const name = words[words[next] === 'workspace' ? next + 2 : run === -1 ? words.length : run + 1];
    return { ...(name === undefined ? {} : { name }), workspaces: words[next] === 'workspace' ? [words[next + 1] ?? '*'] : ['*'] };
  }
  const word = words[next];
  // `bun x NAME` is bunx; `bun run NAME` and `bun NAME` are `pnpm NAME` (bun's own commands run no such name).
  const spec = SPEC_RUNNERS.has(program) || (program === 'bun' && word === 'x');
  let bare = false;
  if (['npx', 'pnpx', 'bunx'].includes(program)) operand = next;
  else if (program === 'npm') operand = NPM_EXEC.has(word ?? '') ? operandFrom(words, next + 1) : undefined;
  else if (program === 'pnpm' || program === 'yarn' || program === 'bun') {
    // `pnpm NAME` and `yarn NAME` run a package.json script of that name first, else the bin (the script is read
    // with package.json); `run`/`exec` name it next. `dlx` downloads: no lookup.
    bare = !(word === 'run' || word === 'exec' || word === 'run-script' || (program === 'bun' && word === 'x'));
    operand = !bare ? operandFrom(words, next + 1) : word === 'dlx' || (program === 'bun' && (word === undefined || BUN_COMMANDS.has(word))) ? undefined : next;
  } else return undefined;
  if (operand === undefined) return {};
  const directoryWord = optionValue(words, at + 1, operand, DIRECTORY_OPTIONS);
  const selectors = workspaceSelectors(words, at + 1, operand);
  const directory = { ...(directoryWord === undefined ? {} : { directory: directoryWord }), ...(selectors.length === 0 ? {} : { workspaces: selectors }) };
  const shellMode = words.slice(at + 1, operand).includes('--shell-mode');
  const call = optionValue(words, at + 1, operand, CALL_OPTIONS) ?? (shellMode ? words[operand] : undefined);
  // npx's -p/--package name the packages to run from; with none, the operand is one when no .bin holds it.
  const packageOptions = spec ? packageValues(words, at + 1, operand) : [];
  const specs = [...packageOptions, ...(spec && packageOptions.length === 0 && call === undefined && words[operand] !== undefined ? [words[operand]!] : [])];
  const found = { ...directory, ...(specs.length === 0 ? {} : { specs }), ...(bare ? { bare: true as const } : {}) };
  if (call !== undefined) return { call, ...found };
  return { ...(words[operand] === undefined ? {} : { name: words[operand] }), ...found };
}

/** What a package runner runs (runnerName). `bare`: pnpm's, yarn's or bun's operand with no run/exec before it. */
export interface RunnerRun {
  readonly name?: string;
  readonly specs?: string[];
  readonly call?: string;
  readonly directory?: string;
  readonly workspaces?: readonly string[];
  readonly bare?: true;
}

/** Every -p/--package value among words[from, to) (`-p a -p b`, `--package=a`). */
function packageValues(words: readonly string[], from: number, to: number): string[] {
  const values: string[] = [];
  for (let index = from; index < to; index++) {
    const word = words[index]!;
    if ((word === '-p' || word === '--package') && index + 1 < to) values.push(words[index + 1]!);
    else if (word.startsWith('--package=')) values.push(word.slice('--package='.length));
  }
  return values;
}

/** The values of the workspace options among words[from, to) (`--filter web`, `-w=packages/a`); `*` for one that picks every package. */
function workspaceSelectors(words: readonly string[], from: number, to: number): string[] {
  const selectors: string[] = [];
  for (let index = from; index < to; index++) {
    const [option, value] = words[index]!.split(/=(.*)/su) as [string, string | undefined];
    if (!WORKSPACE_OPTIONS.includes(option)) continue;
    selectors.push(value ?? (VALUED.has(option) ? (words[index + 1] ?? '*') : '*'));
  }
  return selectors;
}
