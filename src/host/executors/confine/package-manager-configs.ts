// The configuration a package manager reads from the project, where a tool file runs one (npm, npx, pnpm, pnpx,
// yarn, bun, bunx, corepack, bundle, pipenv, nx): `.npmrc` (node-options, script-shell, onload-script), pnpm's
// `.pnpmfile.cjs` and `pnpm-workspace.yaml`, yarn 1's `.yarnrc` (yarn-path), bun's `bunfig.toml` (preload), corepack's
// `.corepack.env`, bundler's `.bundle/config`, and the environment files a runner loads into what it runs (yarn's
// `.env.yarn`, bun's, pipenv's and Nx's `.env` family: NODE_OPTIONS there runs in every node). Each is named in every
// directory the text may run in (each cd, and npm's --prefix/-C, bun's --cwd) and each above it: protected whole,
// whether there or not. What one that is there names (a path in a value) is protected and read as what runs. Closed
// world: a config there that cannot be read, or a directory zotbox cannot place, is unresolved.
// This file never writes; it reads only the configs it names (and ~/.npmrc, for the files it points npm at).

import { lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { OVERSIZED, readSmallFile } from './git-inventory.js';
import { type NodeBinContext, nodeBinReading } from './node-bin-runs.js';
import { runnerDirectoryOptions } from './runner-directory-options.js';
import { nxProjectRoots } from './nx-project-roots.js';
import { runnerEnvironmentFiles } from './runner-environment-files.js';
import { loaderEnvironmentFileNames } from './env-file-loaders.js';

/** A file the package manager reads, or one such a file names, as tool-file-references.ts takes a name. */
export interface PackageManagerConfigName {
  readonly name: string;
  readonly as: 'words';
  readonly by: string;
  readonly runBy: string;
  /** A path a config names: what the package manager loads or runs (read on as the file it is). */
  readonly runs?: true;
}

/** bun's environment files (`.env.$NODE_ENV` for the three values it knows; another NODE_ENV is added where set). */
const BUN_ENV = ['.env', '.env.local', '.env.development', '.env.production', '.env.test'];
/**
 * Each runner word and the project files it reads that can make it run code (yarn berry's .yarnrc.yml: node-bin-runs),
 * and the environment files it loads into what it runs (NODE_OPTIONS there reaches every node it starts): yarn 4's
 * `.env.yarn` (injectEnvironmentFiles' default; the entries a .yarnrc.yml lists: yarn-pnp-files.ts), bun's `.env`
 * family, pipenv's `.env` (run, shell), Nx's workspace `.env` family.
 */
const CONFIGS: Readonly<Record<string, readonly string[]>> = {
  npm: ['.npmrc', '.corepack.env'],
  npx: ['.npmrc', '.corepack.env'],
  pnpm: ['.npmrc', '.pnpmfile.cjs', '.pnpmfile.mjs', 'pnpm-workspace.yaml', '.corepack.env'],
  pnpx: ['.npmrc', '.pnpmfile.cjs', '.pnpmfile.mjs', 'pnpm-workspace.yaml', '.corepack.env'],
  yarn: ['.yarnrc', '.npmrc', '.corepack.env', '.env.yarn'],
  bun: ['bunfig.toml', '.npmrc', ...BUN_ENV],
  bunx: ['bunfig.toml', '.npmrc', ...BUN_ENV],
  corepack: ['.corepack.env'],
  bundle: ['.bundle/config'],
  pipenv: ['.env'],
  nx: ['.env', '.local.env', '.env.local'],
};
/** A runner word as a command (or a path to one) spells it: not part of a longer name (`bun.lockb`, `npm-run-all`). */
const RUNNER_WORD = /(?<![\w.-])(npx|npm|pnpm|pnpx|yarn|bunx|bun|corepack|bundle|pipenv|nx)(?![\w.-])/gu;
const RUNNER_UNPLACED = /^it runs "(?:npx|npm|pnpm|pnpx|yarn|bunx|bun|corepack|bundle|pipenv|nx)" .*cannot work out/u;
/** npm's keys whose value is another npmrc it then reads (a file of the same kind, read the same way). */
const NPMRC_KEYS = /^\s*(?:userconfig|globalconfig)\s*[=:]/u;
/** How deep configs naming configs are followed (userconfig → globalconfig). */
const MAX_DEPTH = 3;

/** Whether `token`, from a config's value, is written as a path (a URL, a variable, a number or a flag is not). */
function isPathToken(token: string): boolean {
  if (token === '' || /[:${}*?~]/u.test(token) || token.startsWith('-') || /^(?:true|false|null|\d+)$/u.test(token)) return false;
  return token.includes('/') || token.startsWith('.') || /\.[A-Za-z]\w*$/u.test(token);
}

/** The path tokens of one config line's value (after `=`, `:` or the first blank: ini, toml, yaml, yarn 1's lockfile grammar). */
function lineValuePaths(line: string): string[] {
  const trimmed = line.trim();
  if (trimmed === '' || /^[#;[]/u.test(trimmed)) return [];
  const value = /^[^=:\s]+\s*[=:]\s*(.*)$/su.exec(trimmed)?.[1] ?? /^\S+\s+(.*)$/su.exec(trimmed)?.[1] ?? '';
  // node-options' `--require=./x.js`, a toml list `["./a.ts", "./b.ts"]`: each piece between blanks, quotes and `=`.
  return value.split(/[\s=,"'[\]]+/u).filter(isPathToken);
}

/** The runners `text` names, and the directories (absolute) its commands may run in; unresolved for a move zotbox cannot place. */
function runnerPlaces(text: string, base: string, context: Omit<NodeBinContext, 'workingDirectory'>, by: string, unresolved: string[]): { runners: Set<string>; directories: Set<string> } {
  const runners = new Set([...text.matchAll(RUNNER_WORD)].map((match) => match[1]!));
  const directories = new Set([path.resolve(base)]);
  if (runners.size === 0) return { runners, directories };
  // Read as if node_modules/.bin were on PATH: every command word is then placed where its command runs (each cd).
  const reading = nodeBinReading(text, { ...context, workingDirectory: path.resolve(base), pathHasBin: true });
  for (const run of reading.runs) for (const directory of run.directories) directories.add(directory);
  // One reason per place is enough: where the name it runs is unresolved already, every writer is refused.
  const known = unresolved.some((why) => why.startsWith(`${by}: `));
  const unplaced = reading.unresolved.find((why) => RUNNER_UNPLACED.test(why));
  if (unplaced !== undefined && !known) unresolved.push(`${by}: ${unplaced}, so zotbox cannot tell which project configuration (.npmrc ...) it reads`);
  // npm's --prefix/-C, npx's, bun's --cwd, npm_config_prefix=: a move for the config lookup, from wherever it may run.
  const options = runnerDirectoryOptions(text);
  for (const word of options.unspelled)
    unresolved.push(
      `${by}: a package runner is moved to ${JSON.stringify(word)} (--prefix, -C, --cwd), a directory zotbox cannot work out, so zotbox cannot tell which project configuration (.npmrc ...) it reads`,
    );
  for (const word of options.directories) {
    const spelled = /^~(?=\/|$)/u.test(word) && context.homeDirectory !== undefined ? `${context.homeDirectory}${word.slice(1)}` : word;
    for (const from of [...directories]) directories.add(path.resolve(from, spelled));
  }
  return { runners, directories };
}

/**
 * The configs the package managers `text` runs read from the project, and the paths those that exist name (`by`: the
 * tool file's place that runs it). Those outside the write scopes are dropped by the caller.
 */
export function packageManagerConfigNames(text: string, base: string, by: string, runBy: string, unresolved: string[], context: Omit<NodeBinContext, 'workingDirectory'>): PackageManagerConfigName[] {
  const { runners, directories } = runnerPlaces(text, base, context, by, unresolved);
  const names: PackageManagerConfigName[] = [];
  const seen = new Set<string>();
  const add = (file: string, runner: string, depth: number) => {
    if (seen.has(file)) return;
    seen.add(file);
    const why = `${runBy}; ${runner} reads it from the project, and its settings or variables can make ${runner} run code (node-options, NODE_OPTIONS, script-shell, a preload, another ${runner})`;
    names.push({ name: file, as: 'words', by, runBy: why });
    for (const found of configPaths(file, [...directories], unresolved)) {
      if (found.npmrc && depth < MAX_DEPTH) add(found.name, runner, depth + 1);
      else names.push({ name: found.name, as: 'words', by: `${file} line ${found.line + 1}`, runBy: `${why}; it loads or runs it`, runs: true });
    }
  };
  const extra = runnerEnvironmentFiles(text, runners, context.environment ?? {});
  unresolved.push(...extra.unresolved.map((why) => `${by}: ${why}`));
  for (const runner of runners)
    for (const start of directories) {
      const own = extra.each.filter((file) => file.runner === runner || (runner === 'bunx' && file.runner === 'bun')).map((file) => file.name);
      for (let at = start; ; at = path.dirname(at)) {
        for (const config of [...CONFIGS[runner]!, ...own]) add(path.join(at, config), runner, 0);
        if (path.dirname(at) === at) break;
      }
      // Nx loads a task's environment files in each project's root too (nx-project-roots.ts).
      if (runner === 'nx' && own.length > 0) {
        const projects = nxProjectRoots(start);
        if (projects.unresolved !== undefined) unresolved.push(`${by}: ${projects.unresolved}, and nx loads a task's environment files there`);
        for (const root of projects.roots) for (const config of [...CONFIGS.nx!, ...own]) add(path.join(root, config), runner, 0);
      }
      for (const file of extra.located) if (file.runner === runner) add(path.resolve(start, file.name), runner, 0);
    }
  // dotenv-cli, dotenvx, env-cmd, the Procfile runners, uv, deno: what they load into what they run (env-file-loaders.ts).
  for (const file of loaderEnvironmentFileNames(text, base, by, unresolved, context)) add(file.name, file.loader, 0);
  // The user's own npmrc (and one the environment names): where it points npm's userconfig/globalconfig into a write
  // scope, that file is read for every command, wherever it runs.
  if ([...runners].some((runner) => CONFIGS[runner]!.includes('.npmrc'))) {
    const environment = context.environment ?? {};
    const own = [
      context.homeDirectory === undefined ? undefined : path.join(context.homeDirectory, '.npmrc'),
      environment.NPM_CONFIG_USERCONFIG,
      environment.npm_config_userconfig,
      environment.NPM_CONFIG_GLOBALCONFIG,
      environment.npm_config_globalconfig,
    ];
    for (const file of own) if (file !== undefined && file !== '' && path.isAbsolute(file)) add(file, 'npm', 0);
  }
  return names;
}

/**
 * The paths a config that exists names, each with its line, and whether it is another npmrc. A relative one is taken
 * from the config's directory (bundler's from the project above .bundle/ too) and from each directory the package
 * manager runs in (node resolves node-options' `--require ./x` from the process's working directory).
 */
function configPaths(file: string, runsIn: readonly string[], unresolved: string[]): { name: string; line: number; npmrc: boolean }[] {
  const text = configText(file);
  if (text === 'unreadable') unresolved.push(`${file} exists but cannot be read, and a package manager a tool file runs reads it`);
  if (text === OVERSIZED) unresolved.push(`${file} is larger than zotbox reads, and a package manager a tool file runs reads it`);
  if (text === undefined || text === 'unreadable' || text === OVERSIZED) return [];
  const own = path.dirname(file);
  const bases = [...new Set([own, ...(path.basename(own) === '.bundle' ? [path.dirname(own)] : []), ...runsIn])];
  return text
    .split('\n')
    .flatMap((line, index) =>
      lineValuePaths(line).flatMap((token) => (path.isAbsolute(token) ? [token] : bases.map((base) => path.resolve(base, token))).map((name) => ({ name, line: index, npmrc: NPMRC_KEYS.test(line) }))),
    );
}

/**
 * A config's text as the package manager reads it: through a link (a dotfiles ~/.npmrc is one), to where it leads;
 * undefined when nothing is there; 'unreadable' for one there that cannot be read (a link that leads nowhere too).
 */
function configText(file: string): string | undefined {
  let stats;
  try {
    stats = lstatSync(file, { throwIfNoEntry: false });
  } catch (error) {
    // Below a file (ENOTDIR): nothing there. Anything else: it may be there, unread.
    return (error as NodeJS.ErrnoException).code === 'ENOTDIR' ? undefined : 'unreadable';
  }
  if (stats === undefined) return undefined;
  let at = file;
  if (stats.isSymbolicLink())
    try {
      at = realpathSync(file);
    } catch {
      return 'unreadable';
    }
  return readSmallFile(at) ?? 'unreadable';
}
