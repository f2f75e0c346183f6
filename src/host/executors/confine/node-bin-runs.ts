// The names a shell text runs through the project's `node_modules/.bin`: `npx NAME`, `npm exec [--] NAME` (`npm x`),
// `pnpm exec NAME`, `pnpm NAME`, `yarn [run|exec] NAME`, `bun [run|x] NAME`, `pnpx`/`bunx NAME`, and a plain `NAME` where the script's
// PATH holds a `node_modules/.bin` entry (`PATH=node_modules/.bin:$PATH`; husky v9 puts it first for every hook).
// Looked up as npm does, from where the command runs up to the root: the directories every `cd`/`pushd` of the text
// may have moved to (all of them, wherever they stand: more places, never fewer), or the program's own -C/--prefix/
// --dir/--cwd. Shell text inside (`sh -c`, `npx -c`, `npm exec --call`, eval, $(...), a here-document a shell reads)
// is read the same way. Closed world: a directory or a text zotbox cannot work out leaves the name unresolved, never
// looked up from the wrong place. A name found nowhere is left to the shell's reading (npx would download it), but
// where yarn runs it under Plug'n'Play (yarn-pnp-bins.ts: a script found so is read on, each name in it looked up as
// `yarn NAME` is); and what yarn itself runs where it runs is named (yarn-pnp-files.ts).

import { lstatSync } from 'node:fs';
import path from 'node:path';
import { commandStrings, programOf, stdinReader } from './shell-command-reading.js';
import { CASE_PATTERN, commandSubstitutions, EXPANSION_BASE, type LexNotes, lexShell, unmark } from './shell-lexer.js';
import { pathSelectedPackages, workspacePackages } from './node-workspace-packages.js';
import { yarnPnpName } from './yarn-pnp-bins.js';
import { PREFIX_VALUED, wrappedCommand } from './command-wrappers.js';
import { type RunnerRun, runnerName, YARN_COMMANDS } from './package-runner-words.js';
import { type YarnProjectFiles, yarnProjectFiles } from './yarn-pnp-files.js';

/** A name run through node_modules/.bin, with every directory (absolute) it may be run from. */
export interface NodeBinRun {
  readonly name: string;
  readonly directories: readonly string[];
}

export interface NodeBinReading {
  readonly runs: readonly NodeBinRun[];
  /**
   * The package specs npx / `npm exec` / bunx run a bin of (`@acme/lint`, `./packages/lint`, `-p pkg`, and a plain name
   * no node_modules/.bin holds): npm finds the package in the tree and runs its package.json's bin (node-package-bins.ts).
   */
  readonly packages: readonly NodeBinRun[];
  /** Why a name cannot be placed (a directory or a text zotbox cannot work out): each refuses every writer. */
  readonly unresolved: readonly string[];
  /** The workspace files read to list the packages a name runs in (there or not): they decide what runs, protected. */
  readonly files?: readonly string[];
  /** What yarn runs as code wherever it runs (its rc files, release, plugins, Plug'n'Play's runtime): protected, not read. */
  readonly yarnFiles?: readonly string[];
  /** The workspace bins yarn runs by name under Plug'n'Play (no node_modules/.bin): read as run. */
  readonly bins?: readonly string[];
  /** The folders a dependency's bin yarn runs under Plug'n'Play lies in (cache zips, unplugged copies): protected whole, not read. */
  readonly installed?: readonly string[];
}

export interface NodeBinContext {
  /** Where the text starts running (absolute): the top of the repository for a hook. */
  readonly workingDirectory: string;
  /** The script's own directory ($(dirname "$0")), where the text is a script's (a sourced file's $0 is its sourcer's). */
  readonly scriptDirectory?: string;
  /** BASH_SOURCE's directory, where bash reads the script: the file's own (other shells have none). */
  readonly sourceDirectory?: string;
  /** The PATH the text runs with already holds node_modules/.bin (a husky hook). */
  readonly pathHasBin?: boolean;
  /** The user's environment (a variable the text does not set expands to its value there) and home (`cd`, `cd ~/x`). */
  readonly environment?: Readonly<Record<string, string | undefined>>;
  readonly homeDirectory?: string;
  /**
   * The text is a package.json script yarn runs under Plug'n'Play: each of the scripts being read (file and name), outer
   * first. Yarn puts the dependencies' bins on its PATH (no node_modules/.bin), so its names are looked up as `yarn NAME`.
   */
  readonly yarnScripts?: readonly string[];
}

/** Programs that run the command after them (their options and assignments skipped). */
const PREFIXES = new Set(['exec', 'command', 'env', 'nice', 'nohup', 'time', 'builtin', 'then', 'do', 'else', 'if', 'elif', 'while', 'until', '!']);
/** The shell's builtins that run the command after them: never looked up on PATH. */
const BUILTIN_PREFIXES = new Set(['exec', 'command', 'builtin', 'time']);
/** The shell's own builtins and keywords: never looked up on PATH. */
const SHELL_OWN = new Set(
  'export local declare readonly typeset set unset cd pushd popd echo printf test [ [[ if then else elif fi for do done while until case esac exit return true false . source shift trap eval wait read'.split(
    ' ',
  ),
);
const RUNNERS = /\b(?:npx|pnpx|bunx|bun|npm|pnpm|yarn)\b/u;
const RUNNER_PROGRAMS = new Set(['npx', 'pnpx', 'bunx', 'bun', 'npm', 'pnpm', 'yarn']);
/** What yarn puts on a script's PATH itself (its node, itself) and the runners: read as themselves in a yarn script. */
const YARN_OWN = new Set([...RUNNER_PROGRAMS, 'node', 'yarnpkg']);
/** A package spec npm finds in the tree: a registry name (a scope, a version or tag after it) or a folder. */
const PACKAGE_SPEC = /^(?:(?:@[\w.-]+\/)?[\w.-][\w.+-]*(?:@[^\s/]*)?|\.{1,2}(?:\/.*)?|\/.*|~\/.*|file:.+)$/su;
/** A command name (not an option the lexer left first, as in `[ ! -f x ]`, nor a path). */
const NAME = /^[\w@][\w@.+-]*$/u;
/** Expansions a cd may spell whose value is known: the current directory, the repository's top, the script's own directory. */
const CURRENT = /^(?:\$PWD|\$\{PWD\}|\$\(pwd\)|`pwd`)$/u;
const TOPLEVEL = /^(?:\$\( ?git rev-parse --show-toplevel ?\)|`git rev-parse --show-toplevel`)$/u;
const OWN = String.raw`\$\( ?dirname (?:-- )?"?\$(?:0|\{0\}|\{BASH_SOURCE(?:\[0\])?\}|BASH_SOURCE)"? ?\)`;
const SCRIPT_DIRECTORY = new RegExp(String.raw`^(?:${OWN}|\$\{0%/\*\}|\$\( ?cd "?${OWN}"? ?(?:&&|;) ?pwd(?: -P)? ?\))$`, 'u');
const MAX_DEPTH = 4;
const MAX_DIRECTORIES = 64;

/**
 * Whether `text` may put a `node_modules/.bin` directory on PATH (an assignment, exported or not, or husky's `export
 * PATH=...`): one that spells it, or one whose entries zotbox cannot spell out (`$(npm root)/.bin`, `$TOOLS/bin`: any
 * expansion but PATH's own and HOME's), which is taken as holding it (every name then looked up there too).
 */
export function putsNodeBinOnPath(text: string): boolean {
  const assignment = /(?:^|[\s;&|(])(?:export\s+|declare\s+-x\s+|local\s+)?PATH=("[^"]*"|'[^']*'|[^\s;&|]*)/gmu;
  for (const [, value] of text.matchAll(assignment)) {
    if (/node_modules\/\.bin/u.test(value!)) return true;
    const unknown = value!.startsWith("'") ? '' : value!.replace(/\$(?:\{(?:PATH|HOME)\}|(?:PATH|HOME)\b)/gu, '');
    if (/[$`]/u.test(unknown)) return true;
  }
  return false;
}

const short = (text: string) => JSON.stringify(unmark(text.length > 60 ? `${text.slice(0, 57)}...` : text).replace(/[\uE000-\uEFFF]/gu, '$…'));

/**
 * A directory word as a path (absolute, or relative to the directory the command starts in), its known expansions
 * spelled out; undefined for one zotbox cannot work out (another expansion, a pattern, `~`, empty).
 */
function directoryOf(word: string, expansions: readonly string[], context: NodeBinContext, text: string): string | undefined {
  const unknown: string[] = [];
  const spelled = word.replace(/[\uE000-\uEFFF]/gu, (mark, offset: number) => {
    const expansion = expansions[mark.charCodeAt(0) - EXPANSION_BASE] ?? '';
    if (CURRENT.test(expansion)) return '.';
    const value = offset === 0 ? knownValue(expansion, context, text) : undefined;
    if (value !== undefined) return value;
    unknown.push(expansion);
    return '';
  });
  const home = /^~(?=\/|$)/u.test(spelled) && context.homeDirectory !== undefined ? `${context.homeDirectory}${spelled.slice(1)}` : spelled;
  return unknown.length === 0 && home !== '' && !/[\uF001-\uF004]/u.test(home) && !home.startsWith('~') ? home : undefined;
}

/**
 * What an expansion at the start of a directory word holds, where zotbox knows it: the repository's top, the script's
 * own directory, and a variable variableValue spells out.
 */
function knownValue(expansion: string, context: NodeBinContext, text: string): string | undefined {
  if (TOPLEVEL.test(expansion)) return context.workingDirectory;
  if (SCRIPT_DIRECTORY.test(expansion)) return expansion.includes('BASH_SOURCE') ? context.sourceDirectory : context.scriptDirectory;
  return variableValue(expansion, context, text);
}

/**
 * What `$NAME` holds where zotbox knows it, as the script's reading spells it: the value every assignment of the text
 * gives it, when each is the same literal (`CMD="npx acme-lint"`); else, when the text never sets it (nor reads it, nor
 * loops over it), the user's environment's (HOME the home directory). $PWD and $OLDPWD move with each cd: never here.
 */
function variableValue(expansion: string, context: NodeBinContext, text: string): string | undefined {
  const name = /^\$(?:([A-Za-z_]\w*)|\{([A-Za-z_]\w*)\})$/u.exec(expansion);
  const variable = name?.[1] ?? name?.[2];
  if (variable === undefined || variable === 'PWD' || variable === 'OLDPWD') return undefined;
  if (readsVariable(text, variable)) return undefined;
  const assignments = [...text.matchAll(new RegExp(String.raw`\b${variable}\+?=`, 'gu'))].length;
  const literal = new RegExp(String.raw`(?:^|[\s;&|(])(?:(?:export|local|readonly)\s+)?${variable}=("[^"$\x60\\]*"|'[^']*'|[^\s;&|()$\x60"'\\]*)(?=$|[\s;&|)])`, 'gmu');
  const values = [...text.matchAll(literal)].map((match) => match[1]!.replace(/^(["'])(.*)\1$/su, '$2'));
  if (assignments > 0) return values.length === assignments && values.every((value) => value === values[0]) ? values[0] : undefined;
  const value = variable === 'HOME' ? context.homeDirectory : context.environment?.[variable];
  return value === undefined || value === '' ? undefined : value;
}

/** Whether `text` reads a value into `variable` (read, a loop). */
const readsVariable = (text: string, variable: string) => new RegExp(String.raw`\b(?:read|for|select)\b[^\n;]*\b${variable}\b`, 'u').test(text);
/** Whether `text` sets `variable` (an assignment, read, a loop). */
const setsVariable = (text: string, variable: string) => readsVariable(text, variable) || new RegExp(String.raw`\b${variable}\+?=`, 'u').test(text);

/** Where the commands of one text may run. `unknown`: a move zotbox cannot work out (then no name is placed). */
interface Place {
  readonly directories: readonly string[];
  readonly unknown?: string;
}

/** Each directory of `place` moved to `target` (relative to each, or absolute). */
function moved(place: Place, target: string): string[] {
  return path.isAbsolute(target) ? [path.normalize(target)] : place.directories.map((directory) => path.resolve(directory, target));
}

/** A command's program index, past keywords, assignments and wrappers, and the directory `env -C` moves it to. */
function programAt(words: readonly string[]): { at: number; chdir: string | undefined } {
  let { at, chdir } = programOf(words);
  while (at < words.length && (/^[A-Za-z_]\w*=/u.test(words[at]!) || PREFIXES.has(words[at]!) || (at > 0 && words[at]!.startsWith('-')))) {
    if (words[at] === '-C' || words[at] === '--chdir') chdir = words[at + 1];
    at += at > 0 && PREFIX_VALUED.has(words[at]!) ? 2 : 1;
  }
  return { at, chdir };
}

/**
 * The place of a text's commands: `from`, and every directory a cd or pushd of it (or of an eval's text) may move to,
 * chained (`cd a; cd b` may be in a/b, in a or in b). popd and `cd -` after a cd go back to one of them.
 */
function placeOf(commands: readonly string[][], expansions: string[], from: Place, context: NodeBinContext, whole: string): Place {
  const directories = [...from.directories];
  let unknown = from.unknown;
  let movedYet = false;
  const visit = (list: readonly string[][], depth: number) => {
    for (const words of list) {
      const { at } = programAt(words);
      const program = words[at];
      if (program === 'eval' && depth < MAX_DEPTH) visit(lexShell(words.slice(at + 1).join(' '), expansions), depth + 1);
      if (program !== 'cd' && program !== 'pushd') continue;
      const target = words.slice(at + 1).find((word) => word === '-' || !word.startsWith('-'));
      if (target === '-' && movedYet) continue;
      const spelled = target === '-' ? undefined : target === undefined ? context.homeDirectory : directoryOf(target, expansions, context, whole);
      movedYet = true;
      if (spelled === undefined) {
        unknown ??= `${program} ${target === undefined ? '(alone: the home directory)' : short(target)}`;
        continue;
      }
      for (const directory of moved({ directories }, spelled)) if (!directories.includes(directory)) directories.push(directory);
      if (directories.length > MAX_DIRECTORIES) unknown ??= `more than ${MAX_DIRECTORIES} directories its cds may move to`;
    }
  };
  visit(commands, 0);
  return { directories, ...(unknown === undefined ? {} : { unknown }) };
}

/** The names `text` runs through node_modules/.bin and every directory each may be run from, or why one cannot be placed. */
export function nodeBinReading(whole: string, context: NodeBinContext): NodeBinReading {
  const runs = new Map<string, Set<string>>();
  const packages = new Map<string, Set<string>>();
  const unresolved: string[] = [];
  const files: string[] = [];
  const record = (name: string, place: Place, own: string | undefined, expansions: readonly string[], into = runs) => {
    // A name run from .bin, a package spec npm finds by name; a workspace's start places (recordWorkspaces) take either.
    if ((into === runs && !NAME.test(name)) || (into === packages && !PACKAGE_SPEC.test(name))) return;
    // A spec that is also a plain name is reported once, as the name (its reading below is the same).
    if (into === packages && NAME.test(name) && (place.unknown !== undefined || (own !== undefined && directoryOf(own, expansions, context, whole) === undefined))) return;
    if (place.unknown !== undefined) {
      unresolved.push(`it runs ${JSON.stringify(name)} from node_modules/.bin as found from the directory it runs in, after ${place.unknown}, which zotbox cannot work out`);
      return;
    }
    const spelled = own === undefined ? undefined : directoryOf(own, expansions, context, whole);
    if (own !== undefined && spelled === undefined) {
      unresolved.push(`it runs ${JSON.stringify(name)} from node_modules/.bin as found from ${short(own)}, a directory zotbox cannot work out`);
      return;
    }
    const directories = into.get(name) ?? new Set<string>();
    for (const directory of spelled === undefined ? place.directories : moved(place, spelled)) directories.add(directory);
    into.set(name, directories);
  };
  const recordWorkspaces = (name: string, selectors: readonly string[], place: Place, own: string | undefined, expansions: readonly string[], into = runs) => {
    const starts = new Map<string, Set<string>>();
    record(name, place, own, expansions, starts);
    for (const start of starts.get(name) ?? []) {
      const listed = workspacePackages(start);
      files.push(...listed.files);
      if ('reason' in listed) unresolved.push(`it runs ${JSON.stringify(name)} in the packages of a workspace, and ${listed.reason}`);
      else {
        // Every package of a glob with a pattern (`pnpm -r`, a name filter): one the agent makes later runs its own
        // node_modules/.bin too, which cannot be protected before it exists. Packages picked by path are known.
        const picked = pathSelectedPackages(listed.directories, selectors, start);
        if (picked === undefined && listed.open)
          unresolved.push(`it runs ${JSON.stringify(name)} in every package of a workspace whose globs match directories made later too, and a package made later runs its own node_modules/.bin`);
        else for (const directory of picked ?? listed.directories) record(name, { directories: [directory] }, undefined, expansions, into);
      }
    }
  };
  // Where yarn runs (what it runs as code there is named), and the names it runs (looked up under Plug'n'Play too).
  const yarnPlaces = new Map<string, Set<string>>();
  const yarnNames = new Map<string, Set<string>>();
  const recordYarn = (found: RunnerRun | undefined, place: Place, chdir: string | undefined, expansions: readonly string[]) => {
    const name = found?.name;
    // A place zotbox cannot work out is reported once: as the name's, where yarn runs one (recorded below).
    const reported = unresolved.length;
    record('yarn', place, found?.directory ?? chdir, expansions, yarnPlaces);
    if (name !== undefined && NAME.test(name)) unresolved.length = reported;
    if (name === undefined || !NAME.test(name) || (found?.bare === true && YARN_COMMANDS.has(name))) return;
    if (found?.workspaces === undefined) record(name, place, found?.directory ?? chdir, expansions, yarnNames);
    else recordWorkspaces(name, found.workspaces, place, found.directory ?? chdir, expansions, yarnNames);
  };
  const read = (text: string, from: Place, pathHasBin: boolean, depth: number) => {
    if (depth > MAX_DEPTH) {
      unresolved.push(`it runs shell text nested deeper than zotbox reads (${short(text)})`);
      return;
    }
    const expansions: string[] = [];
    const notes: LexNotes = { hereDocuments: [], pipes: new Map(), processSubstitutions: [], unclosed: false };
    const commands = lexShell(text, expansions, (expansion) => variableValue(expansion, context, whole), notes);
    const onPath = pathHasBin || putsNodeBinOnPath(text);
    if (notes.unclosed && (onPath || RUNNERS.test(text))) unresolved.push(`a quote in ${short(text)} is never closed, so zotbox cannot tell which names it runs`);
    const place = placeOf(commands, expansions, from, context, whole);
    // Shell text inside: a shell's -c, eval, npx -c; expanded first by this shell, so one holding an expansion here is
    // split by what the expansion holds (unresolved where it may run a name).
    const nested = (inner: string, innerOnPath: boolean, expanded = /[\uE000-\uEFFF]/u.test(inner), own?: string) => {
      const spelled = own === undefined ? undefined : directoryOf(own, expansions, context, whole);
      if (expanded && (innerOnPath || RUNNERS.test(whole))) unresolved.push(`it runs shell text that holds an expansion (${short(inner)}), so zotbox cannot tell which names it runs`);
      else if (own !== undefined && spelled === undefined) unresolved.push(`it runs shell text in ${short(own)}, a directory zotbox cannot work out`);
      else read(inner, spelled === undefined ? place : { ...place, directories: moved(place, spelled) }, innerOnPath, depth + 1);
    };
    for (const words of commands) {
      if (words[0] === CASE_PATTERN) continue;
      for (const inner of commandStrings(words.map(unmark)).values()) nested(inner, onPath);
      const { at, chdir } = programAt(words);
      const program = words[at];
      if (program === undefined) continue;
      // The first runner at or after the program: behind any wrapper, known or not (`timeout 60 npx`, `xargs npx`).
      const runner = words.findIndex((word, index) => index >= at && RUNNER_PROGRAMS.has(path.basename(unmark(word))));
      const found = runner === -1 ? undefined : runnerName(words, runner);
      const runs = found?.name ?? found?.call;
      if (runner !== -1 && path.basename(unmark(words[runner]!)) === 'yarn') recordYarn(found, place, chdir, expansions);
      // In workspace packages: looked up from each package the selectors may pick (node-workspace-packages.ts).
      if (found?.workspaces !== undefined && (found.call !== undefined || /[\uE000-\uEFFF\uF001-\uF004]/u.test(runs ?? '')))
        unresolved.push(`it runs ${short(runs ?? '')} in the packages of a workspace, as shell text or a name zotbox cannot spell out`);
      else if (found?.workspaces !== undefined && found.name !== undefined) recordWorkspaces(found.name, found.workspaces, place, found.directory ?? chdir, expansions);
      else if (found?.call !== undefined) nested(found.call, true, undefined, found.directory ?? chdir);
      if (found?.workspaces === undefined && found?.name !== undefined) {
        if (/[\uE000-\uEFFF\uF001-\uF004]/u.test(found.name)) unresolved.push(`it runs ${short(found.name)} from node_modules/.bin, a name zotbox cannot spell out`);
        else record(found.name, place, found.directory ?? chdir, expansions);
      }
      // A package spec (npx, npm exec), in the workspace packages too (`npm exec -w a -- @acme/lint`): found from each.
      for (const spec of found?.specs ?? []) {
        // A spec zotbox cannot spell out that is the name run too is refused once, as that name (above).
        if (/[\uE000-\uEFFF\uF001-\uF004]/u.test(spec)) {
          if (spec !== found?.name) unresolved.push(`it runs the package ${short(spec)} names, a package zotbox cannot spell out`);
        } else if (found?.workspaces !== undefined) recordWorkspaces(spec, found.workspaces, place, found.directory ?? chdir, expansions, packages);
        else record(spec, place, found?.directory ?? chdir, expansions, packages);
      }
      // With node_modules/.bin on PATH every command name is looked up there first, npm and npx too; and, as zotbox
      // does not know which programs run a word of theirs (`timeout 60 NAME`, `chronic NAME`, `cross-env X=1 NAME`),
      // every plain word of a command whose program is not the shell's own (a word no .bin holds adds nothing); the
      // wrappers before the program too (`env`, `nice`, `xargs` are found on PATH as well).
      // (Where the place is unknown, the program alone says so: one reason per command.)
      const plain = place.unknown === undefined ? words.map(unmark) : [unmark(program)];
      if (onPath && !SHELL_OWN.has(unmark(program))) for (const word of plain) if (!SHELL_OWN.has(word) && !BUILTIN_PREFIXES.has(word)) record(word, place, chdir, expansions);
      // In a script yarn runs under Plug'n'Play, every plain word likewise names what yarn finds as `yarn NAME` does (a
      // script, a workspace's or a dependency's bin); yarn's own `node` and the runners are read as themselves.
      if (context.yarnScripts !== undefined && !SHELL_OWN.has(unmark(program)))
        for (const word of plain)
          if (NAME.test(word) && !SHELL_OWN.has(word) && !BUILTIN_PREFIXES.has(word) && !YARN_OWN.has(word)) {
            record('yarn', place, chdir, expansions, yarnPlaces);
            record(word, place, chdir, expansions, yarnNames);
          }
      // A command a variable of the text names that zotbox cannot spell out (`$CMD`, set two ways) may be any runner
      // or name (one the text never sets is the user's environment's, as the script's reading takes it).
      const variable = /^[\uE000-\uEFFF]$/u.test(program) ? /^\$\{?([A-Za-z_]\w*)\}?$/u.exec(expansions[program.charCodeAt(0) - EXPANSION_BASE] ?? '')?.[1] : undefined;
      if (variable !== undefined && setsVariable(whole, variable) && (onPath || RUNNERS.test(whole))) unresolved.push(`it runs the command $${variable} names, which zotbox cannot spell out`);
      // So may a wrapper's command zotbox cannot spell out (`timeout 5 $CMD`, `caffeinate "$TOOL"`, `xargs $X`), the
      // program or a word after it (the program itself where the wrappers before it were skipped; reported above).
      const wrapped = wrappedCommand(words, at);
      const hidden = wrapped === undefined || (wrapped === at && variable !== undefined) ? undefined : unspelledExpansion(words[wrapped]!, expansions, whole);
      if (hidden !== undefined && (onPath || RUNNERS.test(whole))) unresolved.push(`it runs the command ${short(words[wrapped!]!)}, which zotbox cannot spell out`);
    }
    // $(...) and `...`, <(...): commands of their own, run in a subshell of this place.
    for (const expansion of expansions) for (const inner of commandSubstitutions(expansion)) read(inner, place, onPath, depth + 1);
    for (const inner of notes.processSubstitutions ?? []) read(inner, place, onPath, depth + 1);
    for (const document of notes.hereDocuments) if (stdinReader(document.command) === 'shell') nested(document.body, onPath, document.expanded && /[$`]/u.test(document.body));
  };
  read(whole, { directories: [path.resolve(context.workingDirectory)] }, context.pathHasBin === true, 0);
  const listed = (map: Map<string, Set<string>>) => [...map].map(([name, directories]) => ({ name, directories: [...directories] }));
  const yarn = yarnReading([...(yarnPlaces.get('yarn') ?? [])], listed(yarnNames), context);
  unresolved.push(...yarn.unresolved);
  files.push(...yarn.files);
  // A spec that is also the name run (`npm exec -w a -- acme-lint`) meets the same workspace reason once.
  for (const [into, found] of [
    [runs, yarn.runs],
    [packages, yarn.packages],
  ] as const)
    for (const { name, directories } of found) into.set(name, new Set([...(into.get(name) ?? []), ...directories]));
  return {
    runs: listed(runs),
    packages: listed(packages),
    unresolved: [...new Set(unresolved)],
    ...(files.length === 0 ? {} : { files: [...new Set(files)] }),
    ...(yarn.runtime.length === 0 ? {} : { yarnFiles: [...new Set(yarn.runtime)] }),
    ...(yarn.bins.length === 0 ? {} : { bins: [...new Set(yarn.bins)] }),
    ...(yarn.installed.length === 0 ? {} : { installed: [...new Set(yarn.installed)] }),
  };
}

/**
 * What yarn runs where it runs (each directory's yarnProjectFiles), and what each name it runs there is under
 * Plug'n'Play where no node_modules/.bin holds it (yarnPnpName: a workspace bin, or unresolved).
 */
function yarnReading(
  directories: readonly string[],
  names: readonly NodeBinRun[],
  context: NodeBinContext,
): { runtime: string[]; bins: string[]; files: string[]; installed: string[]; unresolved: string[]; runs: NodeBinRun[]; packages: NodeBinRun[] } {
  const reading = {
    ...{ runtime: [] as string[], bins: [] as string[], files: [] as string[], installed: [] as string[], unresolved: [] as string[] },
    ...{ runs: [] as NodeBinRun[], packages: [] as NodeBinRun[] },
  };
  const user = { ...(context.environment === undefined ? {} : { environment: context.environment }), ...(context.homeDirectory === undefined ? {} : { homeDirectory: context.homeDirectory }) };
  const projects = new Map<string, YarnProjectFiles>();
  const project = (directory: string) => {
    const known = projects.get(directory) ?? yarnProjectFiles(directory);
    if (!projects.has(directory)) {
      projects.set(directory, known);
      reading.runtime.push(...known.files);
      reading.unresolved.push(...known.unresolved.map((why) => `it runs yarn, which runs what its configuration names, and ${why}`));
    }
    return known;
  };
  for (const directory of directories) project(directory);
  for (const { name, directories: from } of names)
    for (const directory of from) {
      if (!project(directory).pnp || nodeBinPlaces(name, directory).length > 0) continue;
      const found = yarnPnpName(name, directory, user);
      reading.bins.push(...found.bins);
      reading.files.push(...found.files);
      reading.installed.push(...(found.installed ?? []));
      if (found.unresolved !== undefined) reading.unresolved.push(found.unresolved);
      if (found.script !== undefined) yarnScriptReading(name, found.script, context, reading);
    }
  return reading;
}

/**
 * The names a package.json script yarn runs under Plug'n'Play runs, read as yarn runs it (from its package's directory,
 * each name looked up as `yarn NAME`), into `reading`. A script already being read (`"lint": "yarn lint"`) adds nothing;
 * a chain deeper than zotbox reads is unresolved.
 */
function yarnScriptReading(name: string, script: { file: string; text: string }, context: NodeBinContext, reading: ReturnType<typeof yarnReading>): void {
  const key = `${script.file}\u0000${name}`;
  const chain = context.yarnScripts ?? [];
  if (chain.includes(key)) return;
  if (chain.length >= MAX_DEPTH) {
    reading.unresolved.push(`it runs the script ${JSON.stringify(name)} of ${script.file} through yarn, in a chain of scripts deeper than zotbox reads`);
    return;
  }
  // Yarn runs it from its package's directory with its own PATH: not the hook's script directory nor the hook's PATH.
  const { scriptDirectory: _hookDirectory, sourceDirectory: _hookSource, pathHasBin: _hookPath, ...user } = context;
  const found = nodeBinReading(script.text, { ...user, workingDirectory: path.dirname(script.file), yarnScripts: [...chain, key] });
  reading.runs.push(...found.runs);
  reading.packages.push(...found.packages);
  reading.unresolved.push(...found.unresolved.map((why) => `${script.file} ("scripts" ${JSON.stringify(name)}, run by yarn): ${why}`));
  reading.files.push(...(found.files ?? []));
  reading.runtime.push(...(found.yarnFiles ?? []));
  reading.bins.push(...(found.bins ?? []));
  reading.installed.push(...(found.installed ?? []));
}

/**
 * An expansion of `word` zotbox cannot spell out that may name a command on PATH: any but a variable the text never
 * sets (which the lexer spelled out from the user's environment, or which is empty there and runs nothing).
 */
function unspelledExpansion(word: string, expansions: readonly string[], whole: string): string | undefined {
  // A path (`"$basedir/node"`) is not looked up on PATH: shell-command-words.ts reads it.
  if (word.replace(/[\uE000-\uEFFF]/gu, '').includes('/')) return undefined;
  for (const mark of word.match(/[\uE000-\uEFFF]/gu) ?? []) {
    const expansion = expansions[mark.charCodeAt(0) - EXPANSION_BASE] ?? '';
    const variable = /^\$\{?([A-Za-z_]\w*)\}?$/u.exec(expansion)?.[1];
    if (variable === undefined || setsVariable(whole, variable)) return expansion;
  }
  return undefined;
}

/** The command names `text` runs through node_modules/.bin, each as written (no "/"), in order (nodeBinReading's names). */
export function nodeBinRuns(text: string, pathHasBin = false): string[] {
  return nodeBinReading(text, { workingDirectory: path.sep, pathHasBin }).runs.map((run) => run.name);
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
