// The environment files a loader exports into the command it runs, where a tool file runs one (s46u review): dotenv-cli
// (`dotenv -- CMD`: `.env`, `-e FILE`, `-c [ENV]`'s cascade), dotenvx (`.env`, `-f FILE`, `--convention`), env-cmd
// (`.env`, `.env.js` and `.env-cmdrc.js`, which are code, `-f`, `-r`), the Procfile runners (foreman, nf, honcho,
// overmind, `heroku local`: `.env`, `-e`), uv's `--env-file`/UV_ENV_FILE and deno's `--env-file`. GIT_CONFIG_* or
// NODE_OPTIONS there runs code in what the loader runs. Closed world: a name zotbox cannot spell out is a reason.
// Reads text and variables; placing the loader (each cd) reads what node-bin-runs.ts reads. Never writes.
import path from 'node:path';
import { type NodeBinContext, nodeBinReading } from './node-bin-runs.js';
import { commandStrings, programOf } from './shell-command-reading.js';
import { commandSubstitutions, EXPANSION_BASE, lexShell, unmark } from './shell-lexer.js';

/** A file a loader reads, relative to where it runs (an absolute one as it is); `above`: in each directory above too. */
export interface LoadedFile {
  readonly loader: string;
  readonly name: string;
  readonly above?: true;
}

/** The loaders by the name they are run as (a path's, a package spec's last part: `@dotenvx/dotenvx`). */
const LOADERS = new Set(['dotenv', 'dotenv-cli', 'dotenvx', 'env-cmd', 'foreman', 'nf', 'honcho', 'overmind', 'heroku', 'uv', 'deno']);
const LOADER_UNPLACED = /^it runs "(?:@dotenvx\/)?(?:dotenv|dotenv-cli|dotenvx|env-cmd|foreman|nf|honcho|overmind|heroku|uv|deno)" .*cannot work out/u;
/** A word zotbox cannot spell out: an expansion, a pattern, a process substitution, `~` (a home it may not know). */
const UNSPELLED = /[$`*?[{~\uE000-\uEFFF\uF100-\uF1FF]/u;
/** env-cmd's defaults (its env file, then its rc file): `.js` ones are required, code run in env-cmd's node. */
const ENV_CMD = ['.env', '.env.js', '.env.json', '.env-cmdrc', '.env-cmdrc.js', '.env-cmdrc.json'];
/** The environments dotenvx's `--convention` cascades know without NODE_ENV/DOTENV_ENV. */
const CONVENTION_ENVIRONMENTS = ['development', 'production', 'test'];

/** The values `options` take among `words` (`-e FILE`, `--env=FILE`), up to `--`; `many`: each word after until an option (commander's variadic). */
function optionValues(words: readonly string[], options: readonly string[], many = false): string[] {
  const values: string[] = [];
  for (let index = 0; index < words.length && words[index] !== '--'; index++) {
    const word = words[index]!;
    const joined = options.find((option) => option.startsWith('--') && word.startsWith(`${option}=`));
    if (joined !== undefined) values.push(word.slice(joined.length + 1));
    if (!options.includes(word)) continue;
    do values.push(...(words[index + 1] === undefined || words[index + 1]!.startsWith('-') ? [] : [words[++index]!]));
    while (many && words[index + 1] !== undefined && !words[index + 1]!.startsWith('-'));
  }
  return values;
}

/** The values a text's assignments and the user's environment give `variable`. */
function variableValues(text: string, variable: string, environment: Readonly<Record<string, string | undefined>>): string[] {
  const assignment = new RegExp(String.raw`(?:^|[\s;&|(])${variable}=("[^"]*"|'[^']*'|[^\s;&|()]*)`, 'gmu');
  const written = [...text.matchAll(assignment)].map((match) => match[1]!.replace(/^(["'])(.*)\1$/su, '$2'));
  return [...written, ...(environment[variable] ? [environment[variable]] : [])];
}

/** The files the loader `loader` reads given its words after it (`args`): its defaults and what its options name. */
function loaderFiles(loader: string, args: readonly string[], text: string, environment: Readonly<Record<string, string | undefined>>): string[] {
  const values = (options: readonly string[], many = false) => optionValues(args, options, many);
  if (loader === 'dotenv' || loader === 'dotenv-cli') {
    // `-c [ENV]`: each file with `.local`, and `.ENV`, `.ENV.local` (the value is optional: a word after it that is no option).
    const cascade = args.indexOf('-c');
    const environmentName = cascade === -1 || args[cascade + 1] === undefined || args[cascade + 1]!.startsWith('-') ? undefined : args[cascade + 1];
    // python-dotenv's CLI is `dotenv` too (`dotenv -f FILE run CMD`, `python -m dotenv run`): its `-f`/`--file` counted.
    const bases = values(['-e', '-f', '--file']);
    return (bases.length > 0 ? bases : ['.env']).flatMap((base) =>
      cascade === -1 ? [base] : [base, `${base}.local`, ...(environmentName === undefined ? [] : [`${base}.${environmentName}`, `${base}.${environmentName}.local`])],
    );
  }
  if (loader === 'dotenvx') {
    const named = values(['-f', '--env-file', '-fv', '--env-vault-file'], true);
    if (!args.some((word) => word === '--convention' || word.startsWith('--convention='))) return named.length > 0 ? named : ['.env'];
    const environments = [...CONVENTION_ENVIRONMENTS, ...variableValues(text, 'NODE_ENV', environment), ...variableValues(text, 'DOTENV_ENV', environment)];
    return [...named, '.env', '.env.local', '.env.defaults', ...environments.flatMap((name) => [`.env.${name}`, `.env.${name}.local`])];
  }
  if (loader === 'env-cmd') return [...ENV_CMD, ...values(['-f', '--file', '-r', '--rc-file'])];
  if (['foreman', 'nf', 'honcho', 'overmind', 'heroku'].includes(loader)) {
    if (loader === 'heroku' && !/^local(?::|$)/u.test(args[0] ?? '')) return [];
    // Each env file from each root: where it runs, a root option's, a Procfile option's directory (foreman, honcho).
    const roots = ['.', ...values(['-d', '--root', '--app-root', '--directory']), ...values(['-f', '--procfile', '-j']).map((file) => path.dirname(file))];
    const files = ['.env', ...(loader === 'foreman' ? ['.foreman'] : []), ...(loader === 'overmind' ? ['.overmind.env'] : [])];
    const named = values(['-e', '--env', '--env-file']).flatMap((value) => value.split(','));
    return [...new Set(roots)].flatMap((root) => [...files, ...named].map((file) => (path.isAbsolute(file) ? file : path.join(root, file))));
  }
  if (loader === 'uv') {
    const fromVariable = args.includes('--no-env-file') ? [] : variableValues(text, 'UV_ENV_FILE', environment).flatMap((value) => value.split(/\s+/u));
    return [...values(['--env-file']), ...fromVariable].filter((file) => file !== '');
  }
  // deno: `--env-file=FILE` (the value is joined), `--env-file` alone is `.env` (looked up from above too: the caller).
  return args.flatMap((word) => (/^--env(?:-file)?=/u.test(word) ? [word.slice(word.indexOf('=') + 1)] : []));
}

/** Every loader a text runs (nested shell text and command substitutions too) and the files each reads, relative to where it runs. */
export function loadedEnvironmentFiles(text: string, environment: Readonly<Record<string, string | undefined>>): { files: LoadedFile[]; unresolved: string[] } {
  const files: LoadedFile[] = [];
  const unresolved: string[] = [];
  const read = (body: string, depth: number) => {
    const expansions: string[] = [];
    // A name as written, its expansions back in (the lexer leaves a mark for each).
    const written = (name: string) => name.replace(/[\uE000-\uEFFF]/gu, (mark) => expansions[mark.charCodeAt(0) - EXPANSION_BASE] ?? mark);
    for (const command of lexShell(body, expansions)) {
      const words = command.map(unmark);
      // Any word from the program on: a loader behind a wrapper or a runner (`timeout 60 dotenv`, `npx dotenv`).
      for (let index = programOf(command).at; index < words.length; index++) {
        const loader = path.basename(words[index]!);
        if (!LOADERS.has(loader)) continue;
        const args = words.slice(index + 1);
        for (const name of loaderFiles(loader, args, text, environment))
          if (UNSPELLED.test(name)) unresolved.push(`${loader} loads the environment file ${JSON.stringify(written(name))} into the command it runs, a name zotbox cannot spell out`);
          else if (name !== '') files.push({ loader, name });
        if (loader === 'deno' && args.some((word) => word === '--env-file' || word === '--env')) files.push({ loader, name: '.env', above: true });
      }
      if (depth < 4) for (const inner of commandStrings(words).values()) read(inner, depth + 1);
    }
    if (depth < 4) for (const expansion of expansions) for (const inner of commandSubstitutions(expansion)) read(inner, depth + 1);
  };
  if ([...LOADERS].some((loader) => text.includes(loader))) read(text, 0);
  // A variable read over the whole text (UV_ENV_FILE, NODE_ENV) names its file for each command: once is enough.
  const unique = new Map(files.map((file) => [`${file.loader}\0${file.name}\0${file.above === true}`, file]));
  return { files: [...unique.values()], unresolved: [...new Set(unresolved)] };
}

/**
 * The environment files (absolute) the loaders `text` runs read, from each directory it may run them in (the tool
 * file's place `by`); a loader zotbox cannot place, or a name it cannot spell out, is unresolved.
 */
export function loaderEnvironmentFileNames(text: string, base: string, by: string, unresolved: string[], context: Omit<NodeBinContext, 'workingDirectory'>): LoadedFile[] {
  const found = loadedEnvironmentFiles(text, context.environment ?? {});
  unresolved.push(...found.unresolved.map((why) => `${by}: ${why}`));
  if (found.files.length === 0) return [];
  // Every command word placed where it runs (each cd), as package-manager-configs.ts places the runners.
  const reading = nodeBinReading(text, { ...context, workingDirectory: path.resolve(base), pathHasBin: true });
  const directories = new Set([path.resolve(base), ...reading.runs.flatMap((run) => run.directories)]);
  const unplaced = reading.unresolved.find((why) => LOADER_UNPLACED.test(why));
  if (unplaced !== undefined) unresolved.push(`${by}: ${unplaced}, so zotbox cannot tell which environment files it loads`);
  const names: LoadedFile[] = [];
  for (const file of found.files)
    for (const directory of path.isAbsolute(file.name) ? ['/'] : directories)
      for (let at = directory; ; at = path.dirname(at)) {
        names.push({ loader: file.loader, name: path.resolve(at, file.name) });
        if (file.above !== true || path.dirname(at) === at) break;
      }
  return [...new Map(names.map((name) => [name.name, name])).values()];
}
