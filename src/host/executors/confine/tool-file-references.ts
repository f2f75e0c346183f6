// What a protected tool file names is as dangerous as the tool file (issue 21
// review: other tools' files). direnv approves the bytes of .envrc alone, and
// then runs what it sources (`source_env_if_exists .envrc.local`), loads what it
// names (`dotenv` → .env, `use nix` → shell.nix, `use flake` → flake.nix) and puts
// the directories it adds to PATH ahead of the user's programs; VS Code runs the
// script a folderOpen task names. Each file such a tool file names, inside the
// write scopes, is protected as the tool file is: bound read-only, put back
// after a command, refused to the write and edit tools (the reason names the file
// and line that names it). A write scope that names the path, or lies inside it,
// grants it.
// Read in a closed world:
//   - .envrc, and every file it sources, by direnv's grammar: a closed list of
//     stdlib directives (DIRENV_DIRECTIVES; `layout` as the stdlib defines each
//     layout, layoutNames) and plain assignments (every entry of a *PATH value is
//     a directory on a search path, with or without a "/"); any other line (a
//     command, a function, a condition, $(...), `...`, an unknown layout) is not
//     understood, and every writer is refused until it is changed (unresolved);
//   - a dotenv file: KEY=VALUE lines; a value naming a path protects that path;
//   - a .nix file: its path literals (./x, ../x), followed into the .nix files
//     they name; the directory itself (./.) is copied into the store, not run;
//     the words of its shellHook strings, run in the .envrc's directory, as a
//     script's words (${./dir}/x is dir/x);
//   - any other file of a protected tool (.vscode/, .devcontainer/, .mcp.json,
//     .husky/, .claude/, a *.code-workspace ...): every word, with or without a
//     "/" (`sh check.sh`; JSON keys, XML names and URLs excepted), after
//     ${workspaceFolder} and its kin, relative to the directory that holds the
//     tool file's top entry and to every directory a `cwd` or a `cd` names (one
//     zotbox cannot work out is unresolved), when it names a file (a directory a
//     setting names, a working directory, is not protected); a "PATH" it sets
//     puts its workspace entries on PATH (protected whole). A file so named is
//     read the same way, and so is every script named by a script, to the end of
//     the chain (within MAX_FILES).
//   - a Python virtual environment (pyvenv.cfg, or bin/activate): its whole bin/
//     (and Scripts/), which activation puts first on PATH.
// A file zotbox cannot read whole (too large, unreadable) is unresolved too.
import { lstatSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveCanonicalPath } from '../../../policy/path-resolve.js';
import type { ControlLocation } from '../../../policy/protected-files.js';
import { isInsideRoot } from '../../../policy/scopes.js';
import { OVERSIZED, readSmallFile } from './git-inventory.js';

export interface ToolFileReferences {
  /** Paths tool files name, inside the write scopes and granted by none: protected as tool files are. */
  readonly locations: readonly ControlLocation[];
  /** Lines and files zotbox cannot read: each refuses every writer, named in the error. */
  readonly unresolved: readonly string[];
}

/**
 * Tool entries whose files are read for the paths they name: settings of editors, dev containers, coding agents,
 * hook managers, mise (what they run is spelled in them). Not the startup files of shells and REPLs, nor a Python
 * environment's files (code, protected whole where it runs on its own).
 */
const WORDS_ENTRIES =
  /^(\.vscode|\.idea|\.devcontainer(\.json)?|\.zed|\.helix|\.claude(\.json)?|\.cursor|\.mcp\.json|\.gemini|\.amazonq|\.kiro|\.roo|\.continue|\.codex|\.opencode|opencode\.jsonc?|\.aider\.conf\.yml|\.husky|\.pre-commit-config\.yaml|.+\.code-workspace|\.?lefthook.*|\.lintstagedrc.*|lint-staged\.config\..*|\.huskyrc.*|\.mise|\.?mise.*\.toml|\.lazygit\.yml|\.ripgreprc)$/iu;

/** IDE state, not settings: JetBrains keeps the files open in editor tabs, recent ones and shelved changes there. */
const IDE_STATE = /\/\.idea\/(workspace\.xml|shelf\/|dataSources\/)/iu;

/** Files read per call at most (sourced files, nix imports): past it, the rest is unresolved. */
const MAX_FILES = 200;
const DIRENV = 'direnv runs it when a shell enters the directory';

type Reading = 'direnv' | 'dotenv' | 'nix' | 'words';

/**
 * direnv's stdlib directives zotbox reads, and what each names (relative to `directory`, the directory of the file
 * that says it, where direnv runs it): `direnv` is read as direnv code, `dotenv` as a dotenv file, `nix` as nix,
 * `words` as a script's words, `tree` a directory whose programs the user's shell then runs (PATH). A string is why
 * the line is unresolved. The list is closed: every function `direnv stdlib` defines (direnv 2.32) is here, and
 * one that runs a command or code zotbox does not read is unresolved; any other word (a function from the user's
 * direnvrc, a `use` or `layout` the stdlib does not define) is unresolved where it is met.
 */
type DirectiveNames = readonly { readonly name: string; readonly as: Reading | 'tree' }[];
type Directive = (args: readonly string[], known: ReadonlyMap<string, string>, directory: string) => DirectiveNames | string;

const nothing: Directive = () => [];
const runs =
  (what: string): Directive =>
  () =>
    `${what}, which zotbox does not read`;

const DIRENV_DIRECTIVES: ReadonlyMap<string, Directive> = new Map<string, Directive>([
  // source_env expands a leading ~ itself (${1/#\~/$HOME}); a directory is its .envrc (read below).
  ['source_env', (args) => args.slice(0, 1).map((name) => ({ name: withHome(name), as: 'direnv' as const }))],
  ['source_env_if_exists', (args) => args.slice(0, 1).map((name) => ({ name: withHome(name), as: 'direnv' as const }))],
  // _source_up: `cd .. && find_up NAME` (NAME defaults to .envrc): the first NAME in the parent or any ancestor up to /.
  ['source_up', (args, _, directory) => ancestorsNamed(directory, args[0] || '.envrc')],
  ['source_up_if_exists', (args, _, directory) => ancestorsNamed(directory, args[0] || '.envrc')],
  // Its path, $PWD/.env by default, a directory's .env (read below).
  ['dotenv', (args) => [{ name: args[0] || '.env', as: 'dotenv' as const }]],
  ['dotenv_if_exists', (args) => [{ name: args[0] || '.env', as: 'dotenv' as const }]],
  ['PATH_add', (args) => args.map((name) => ({ name, as: 'tree' as const }))],
  ['path_add', (args) => args.slice(1).map((name) => ({ name, as: 'tree' as const }))],
  // Its bin/ goes on PATH, its lib/ on LD_LIBRARY_PATH: the whole prefix.
  ['load_prefix', (args) => args.slice(0, 1).map((name) => ({ name, as: 'tree' as const }))],
  ['layout', (args, known) => layoutNames(args, known)],
  ['use', (args, known) => useNames(args, known)],
  // With a command after it, the command runs (strictness applies for its duration): read as a line of its own.
  ['strict_env', (args, known, directory) => commandAfter(args, known, directory)],
  ['unstrict_env', (args, known, directory) => commandAfter(args, known, directory)],
  // Read or record only: watched files' times, the environment, a message, a path printed, PATH entries removed.
  ...['watch_file', 'watch_dir', 'MANPATH_add', 'PATH_rm', 'path_rm', 'env_vars_required', 'log_status', 'log_error'].map((name) => [name, nothing] as const),
  ...['direnv_version', 'has', 'expand_path', 'user_rel_path', 'join_args', 'find_up', 'semver_search', 'direnv_layout_dir', 'fetchurl'].map((name) => [name, nothing] as const),
  // Runs the user's git in the directory, whose configuration is protected as control locations.
  ['on_git_branch', nothing],
  ['unset', nothing],
  ['direnv_load', runs('it runs the command after it and loads the environment that command dumps')],
  ['direnv_apply_dump', runs('it loads an environment (PATH among it) from the dump file it names')],
  ['source_url', runs('it runs a downloaded script, and the files that script loads')],
  ['rvm', runs("it runs rvm, which reads the project's Ruby files")],
]);

/** The stdlib functions decided here (read, nothing to protect, or unresolved): the test compares them with `direnv stdlib`. */
export const DIRENV_FUNCTIONS: readonly string[] = [...DIRENV_DIRECTIVES.keys()];

/** `~` and `~/x` as the shell reads them, in the user's home directory; `~user/x` is left as it is (no such file here). */
function withHome(name: string): string {
  return name === '~' || name.startsWith('~/') ? os.homedir() + name.slice(1) : name;
}

/** NAME in the parent of `directory` and in every directory above it, to /: what direnv's find_up may find. */
function ancestorsNamed(directory: string, name: string): DirectiveNames {
  const found: { name: string; as: 'direnv' }[] = [];
  for (let at = path.dirname(directory); ; at = path.dirname(at)) {
    found.push({ name: path.join(at, name), as: 'direnv' });
    if (at === path.dirname(at)) return found;
  }
}

/** The command after strict_env or unstrict_env: a directive of its own, or unresolved. */
function commandAfter(args: readonly string[], known: ReadonlyMap<string, string>, directory: string): DirectiveNames | string {
  if (args.length === 0) return [];
  const directive = DIRENV_DIRECTIVES.get(args[0]!);
  if (directive === undefined) return `it runs ${JSON.stringify(args[0])}, a command zotbox does not read`;
  return directive(args.slice(1), known, directory);
}

/**
 * What each of direnv's stdlib layouts puts on PATH or runs (as `direnv stdlib` prints them, direnv 2.32), relative
 * to the .envrc's directory; `$(direnv_layout_dir)` is `$direnv_layout_dir` when the file sets it, else .direnv.
 * A layout not modelled here is a string: why it is unresolved (closed world).
 */
function layoutNames(args: readonly string[], known: ReadonlyMap<string, string>): { name: string; as: Reading | 'tree' }[] | string {
  const [what, ...rest] = args;
  const layoutDirectory = known.get('direnv_layout_dir') ?? '.direnv';
  const tree = (name: string) => ({ name, as: 'tree' as const });
  switch (what) {
    case 'node':
      return [tree('node_modules/.bin')]; // PATH_add node_modules/.bin
    case 'php':
      return [tree('vendor/bin')]; // PATH_add vendor/bin
    case 'go': // PATH_add $(direnv_layout_dir)/go/bin
    case 'perl': // PATH_add $(direnv_layout_dir)/perl5/bin
    case 'ruby': // PATH_add $GEM_HOME/bin and $BUNDLE_BIN, both in $(direnv_layout_dir)
    case 'pyenv': // layout_python with pyenv's interpreter: $VIRTUAL_ENV or $(direnv_layout_dir)/python-X.Y
    case 'python':
    case 'python2':
    case 'python3': {
      // layout_python: the interpreter ($1 of `layout python`, a file when it names one) runs on every load; its
      // virtual environment is $VIRTUAL_ENV when the file sets it, else $(direnv_layout_dir)/python-X.Y (or /virtualenv),
      // and its bin/ goes first on PATH.
      const named: { name: string; as: Reading | 'tree' }[] = [tree(layoutDirectory)];
      const venv = known.get('VIRTUAL_ENV');
      if (venv !== undefined && /^(python[23]?|pyenv)$/u.test(what)) named.push(tree(path.join(venv, 'bin')));
      if (what === 'python' && rest[0] !== undefined) named.push({ name: rest[0], as: 'words' });
      return named;
    }
    case 'pipenv':
      // $(pipenv --venv): .venv in the project when it exists or PIPENV_VENV_IN_PROJECT is set (else outside the workspace);
      // `pipenv install --dev` runs on the Pipfile when there is none.
      return [tree('.venv'), { name: known.get('PIPENV_PIPFILE') ?? 'Pipfile', as: 'words' }, { name: 'Pipfile.lock', as: 'words' }];
    case 'anaconda': {
      // A "./prefix" environment is activated (its activate.d scripts run); the directory of a conda named by path goes on PATH.
      const [prefix, conda] = rest;
      const named: { name: string; as: Reading | 'tree' }[] = [{ name: 'environment.yml', as: 'words' }];
      if (prefix?.startsWith('./') === true || prefix?.startsWith('../') === true) named.push(tree(prefix));
      if (conda?.includes('/') === true) named.push(tree(path.dirname(conda)));
      return named;
    }
    case 'julia':
      return []; // export JULIA_PROJECT=$PWD: nothing runs
    default:
      return `direnv's layout ${what ?? '(none)'} is not one zotbox models (node, php, go, perl, ruby, python, python2, python3, pyenv, pipenv, anaconda, julia)`;
  }
}

/**
 * `use NAME` as direnv's stdlib defines each use_NAME: what nix evaluates (`use nix [FILE]`, `use flake [DIR]`; its
 * shellHook runs), the file direnv.vim sources, the version files and version directories of node, nodenv, julia
 * and rbenv. Any other (guix, which loads the manifests its options name; a use_NAME from the user's direnvrc) is unresolved.
 */
function useNames(args: readonly string[], known: ReadonlyMap<string, string>): DirectiveNames | string {
  const [what, ...rest] = args;
  const files = rest.filter((arg) => !arg.startsWith('-'));
  switch (what) {
    case 'nix': {
      const named = files.filter((arg) => arg.endsWith('.nix'));
      return (named.length > 0 ? named : ['shell.nix', 'default.nix']).map((name) => ({ name, as: 'nix' }));
    }
    case 'flake': {
      const ref = files[0] ?? '.';
      const directory = ref.startsWith('path:') ? ref.slice('path:'.length) : ref;
      if (!directory.startsWith('.') && !directory.startsWith('/')) return []; // a registry or URL flake: not in the workspace
      return ['flake.nix', 'flake.lock'].map((name) => ({ name: path.join(directory.split('#')[0]!, name), as: 'nix' }));
    }
    case 'vim':
      // The direnv.vim extension sources the file (.vimrc.local by default) in every vim opened below.
      return [{ name: files[0] ?? '.vimrc.local', as: 'words' }];
    case 'node':
    case 'nodenv':
    case 'julia': {
      // load_prefix of $NODE_VERSIONS/node-vX (or $JULIA_VERSIONS/julia-X), the version read from .nvmrc or
      // .node-version when none is given; nodenv's versions are under `nodenv root`, and it adds layout node.
      const versions = known.get(what === 'julia' ? 'JULIA_VERSIONS' : 'NODE_VERSIONS');
      const named: { name: string; as: Reading | 'tree' }[] = versions === undefined ? [] : [{ name: versions, as: 'tree' }];
      if (what === 'node') named.push({ name: '.nvmrc', as: 'words' }, { name: '.node-version', as: 'words' });
      if (what === 'nodenv') named.push({ name: 'node_modules/.bin', as: 'tree' });
      return named;
    }
    case 'rbenv':
      // rbenv's shims run the Ruby that .ruby-version names.
      return [{ name: '.ruby-version', as: 'words' }];
    default:
      return `direnv's stdlib has no use ${what ?? '(none)'} zotbox models (nix, flake, vim, node, nodenv, julia, rbenv): it runs a function zotbox does not read`;
  }
}

/**
 * Splits a shell line into words: plain, '...' and "..." quoting; $NAME and ${NAME} expand to what `known` holds
 * ($PWD: the file's directory), a leading ~ to the user's home. Undefined when the line holds what zotbox does not read: a command substitution,
 * a backquote, an escape, a redirection, a separator, a group, or a variable it does not know.
 */
function shellWords(line: string, known: ReadonlyMap<string, string>): string[] | undefined {
  const words: string[] = [];
  let word: string | undefined;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word = (word ?? '') + c;
      continue;
    }
    if (c === '$') {
      const variable = /^\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})/u.exec(line.slice(i));
      const value = variable === null ? undefined : known.get(variable[1] ?? variable[2]!);
      if (variable === null || value === undefined) return undefined;
      word = (word ?? '') + value;
      i += variable[0].length - 1;
      continue;
    }
    if ('`\\'.includes(c)) return undefined;
    if (quote === '"') {
      if (c === '"') quote = undefined;
      else word = (word ?? '') + c;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      word ??= '';
      continue;
    }
    if (c === '~' && word === undefined) {
      // Tilde expansion, at the start of an unquoted word: ~ and ~/x are in the user's home; ~user is not read.
      if (!/^~(?=$|[\s/])/u.test(line.slice(i))) return undefined;
      word = os.homedir();
      continue;
    }
    if (';&|<>(){}'.includes(c)) return undefined;
    if (c === '#' && word === undefined) break; // a comment
    if (/\s/u.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
      continue;
    }
    word = (word ?? '') + c;
  }
  if (quote !== undefined) return undefined;
  if (word !== undefined) words.push(word);
  return words;
}

/** Words of an assignment's value that spell a path ($PWD and ${PWD} are the file's directory). */
function valuePaths(value: string): string[] {
  return value.split(/[:\s=,]/u).filter((piece) => pathLike(piece));
}

function pathLike(word: string): boolean {
  // A word holding control characters names no file a tool opens.
  if (word.includes('://') || /[\u0000-\u001f]/u.test(word)) return false;
  // Plain path characters only: a pattern (**/x), a variable or a shebang (#!/bin/sh) spells no file here.
  return word.includes('/') && /^[\w.@+~-]*(\/[\w.@+~-]*)+$/u.test(word) && !word.startsWith('-');
}

/** A word that may name a file, with or without a "/" (`sh check.sh`): plain path characters, not an option. */
function plainWord(word: string): boolean {
  return word !== '' && !word.startsWith('-') && /^[\w.@+~-]*(\/[\w.@+~-]*)*$/u.test(word);
}

const ASSIGNMENT = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$/u;
const WORKSPACE_VARIABLES = /\$\{(workspaceFolder|workspaceRoot|fileWorkspaceFolder|localWorkspaceFolder|containerWorkspaceFolder)\}|\$PROJECT_DIR\$/gu;

/**
 * The words of a line of a tool file that may name a file: every word, with or without a "/" (`sh check.sh`, a task's
 * `"args": ["on-open.sh"]`), as for git configuration values. JSON keys, XML element and attribute names, and URLs name none.
 */
function lineWords(line: string): string[] {
  return line
    .replace(WORKSPACE_VARIABLES, '.')
    .replace(/"(?:[^"\\]|\\.)*"\s*:/gu, ' ')
    .replace(/<\/?[\w:.-]+|\b[\w:.-]+=(?=["'])/gu, ' ')
    .replace(/[a-z][\w+.-]*:\/\/\S*/giu, ' ')
    .split(/[\s"'`,;=()[\]{}<>|&:]+/u)
    .filter((word) => plainWord(word) && !/[\u0000-\u001f]/u.test(word));
}

/** Spellings of "the directory this script is in" and "the top of the repository" that a cd may name. */
const SCRIPT_DIRECTORY = /^(?:\$\(\s*dirname\s+(?:--\s+)?"?\$(?:0|\{0\}|\{BASH_SOURCE(?:\[0\])?\}|BASH_SOURCE)"?\s*\)|\$\{0%\/\*\})/u;
const TOP = /^\$\(\s*git\s+rev-parse\s+--show-toplevel\s*\)/u;

/**
 * Where the commands of a words file run besides its base (relative to it, or absolute): a task's `options.cwd`
 * (VS Code, dev containers), lefthook's `root`, mise's `dir`, and each `cd`/`pushd` of a script (every one, wherever
 * it stands: more files protected, never fewer). A target zotbox cannot work out is unresolved (closed world).
 */
function workingDirectories(text: string, file: string, where: (index: number, what: string) => string, unresolved: string[]): string[] {
  const found: { target: string | undefined; index: number }[] = [];
  const lines = text.split('\n');
  for (const [index, line] of lines.entries()) {
    for (const match of line.matchAll(/"(?:cwd|root|dir)"\s*:\s*"((?:[^"\\]|\\.)*)"|^\s*(?:cwd|root|dir)\s*[:=]\s*["']?([^"'\s#]*)/gu)) found.push({ target: match[1] ?? match[2], index });
    for (const match of line.matchAll(/(?:^|[;&|({]|\b(?:then|do|else|exec|builtin))\s*(?:cd|pushd)(?=$|[\s;&|)])((?:\s+-[A-Za-z@]+)*)(?:\s+("[^"]*"|'[^']*'|[^\s;&|)]+))?/gu))
      found.push({ target: match[2], index });
  }
  const directories: string[] = [];
  for (const { target, index } of found) {
    const unquoted = (target ?? '').replace(/^(["'])(.*)\1$/u, '$2').replace(WORKSPACE_VARIABLES, '.');
    const spelled = unquoted
      .replace(SCRIPT_DIRECTORY, path.dirname(file))
      .replace(TOP, '.')
      .replace(/^\$\{?PWD\}?(?=\/|$)/u, '.');
    if (target === undefined || spelled === '' || spelled === '-' || /[$`~*?[\\]/u.test(spelled)) {
      unresolved.push(where(index, `: a command there runs in a directory zotbox cannot work out (${target ?? 'cd alone: the home directory'}), so any file could be what it runs`));
      continue;
    }
    // A cd relative to the directory an earlier one moved to is relative to that one too.
    const next = [spelled, ...(path.isAbsolute(spelled) ? [] : directories.map((d) => path.join(d, spelled)))];
    for (const directory of next) if (!directories.includes(directory) && directories.length < 64) directories.push(directory);
  }
  return directories;
}

/** The directories a words file puts on PATH (`"PATH": "${workspaceFolder}/tools:${env:PATH}"` in a terminal's or task's env). */
function pathEntries(text: string, where: (index: number, what: string) => string, unresolved: string[]): { readonly entry: string; readonly index: number }[] {
  const entries: { entry: string; index: number }[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    for (const match of line.matchAll(/"PATH"\s*:\s*"((?:[^"\\]|\\.)*)"|^\s*PATH\s*[:=]\s*["']?([^"'#]*)/giu)) {
      for (const piece of (match[1] ?? match[2] ?? '').replace(WORKSPACE_VARIABLES, '.').split(/[:;](?![^{]*\})/u)) {
        // The user's own PATH, from the environment of the editor, the host or the container: theirs.
        if (piece.trim() === '' || /^\$\{(env|localEnv|containerEnv):[^}]*\}$/u.test(piece) || /^\$\{?PATH\}?$/u.test(piece)) continue;
        if (!plainWord(piece)) unresolved.push(where(index, `: it puts ${JSON.stringify(piece)} on PATH, and zotbox cannot work out which directory that is`));
        else entries.push({ entry: piece, index });
      }
    }
  }
  return entries;
}

/** The shell text of a nix file's shellHook strings, with `${./dir}` path literals as the absolute paths they copy. */
function shellHooks(text: string, file: string): string[] {
  const hooks: string[] = [];
  for (const match of text.matchAll(/shellHook\s*=\s*(?:''([\s\S]*?)''(?!')|"((?:[^"\\]|\\.)*)")/gu)) {
    hooks.push(
      (match[1] ?? match[2] ?? '')
        .replace(/\$\{\s*(\.\.?\/[\w.+/-]*)\s*\}/gu, (_, literal: string) => path.resolve(path.dirname(file), literal))
        // Other interpolations are store paths (${pkgs.hello}/bin/hello): outside the workspace.
        .replace(/\$\{[^}]*\}/gu, '/nix/store/interpolated'),
    );
  }
  return hooks;
}

interface Named {
  readonly name: string;
  readonly as: Reading | 'tree';
  /** What names it: "/ws/.envrc line 1 (source_env_if_exists .envrc.local)". */
  readonly by: string;
  /** Who runs what it names. */
  readonly runBy: string;
}

/** What one file names, and what in it zotbox cannot read. */
function readFile(file: string, as: Reading, base: string, runBy: string, unresolved: string[]): Named[] {
  const text = readSmallFile(file);
  if (text === undefined) {
    if (lstatSync(file, { throwIfNoEntry: false }) !== undefined) unresolved.push(`${file} exists but cannot be read`);
    return [];
  }
  if (text === OVERSIZED) {
    unresolved.push(`${file} is larger than zotbox reads`);
    return [];
  }
  const named: Named[] = [];
  // What $NAME expands to: $PWD is the file's directory; a variable the file sets is what it set (outside values are unknown).
  const known = new Map<string, string>([['PWD', '.']]);
  const lines = text.split('\n');
  const whereAt = (index: number, what: string) => {
    const line = (lines[index] ?? '').trim();
    return `${file} line ${index + 1} (${line.length > 80 ? `${line.slice(0, 77)}...` : line})${what}`;
  };
  if (as === 'words') {
    // Each word, where the commands run: the base, and every directory a cwd or cd names.
    const directories = ['', ...workingDirectories(text, file, whereAt, unresolved)];
    for (const [index, line] of lines.entries())
      for (const word of lineWords(line))
        for (const directory of path.isAbsolute(word) ? [''] : directories) named.push({ name: path.join(directory, word), as: 'words', by: whereAt(index, ''), runBy });
    for (const { entry, index } of pathEntries(text, whereAt, unresolved))
      named.push({ name: entry, as: 'tree', by: whereAt(index, ''), runBy: "the tool puts it on PATH: every program in it runs in place of the user's own" });
    return named;
  }
  if (as === 'nix') {
    // What a shellHook runs, run in the directory of the .envrc (`source env.sh`, `sh ${./scripts}/init.sh`): as a script's words.
    for (const hook of shellHooks(text, file)) {
      const directories = ['', ...workingDirectories(hook, file, (_, what) => `${file} (shellHook)${what}`, unresolved)];
      for (const word of hook.split('\n').flatMap((line) => lineWords(line)))
        for (const directory of path.isAbsolute(word) ? [''] : directories) named.push({ name: path.resolve(base, directory, word), as: 'words', by: `${file} (shellHook)`, runBy: DIRENV });
    }
  }
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    const where = (what: string) => whereAt(index, what);
    if (as === 'nix') {
      for (const literal of line.replace(/#.*$/u, '').match(/(?<![\w./-])\.\.?\/[\w.+/-]*/gu) ?? []) {
        const name = literal.replace(/\/+$/u, '');
        if (name !== '.' && name !== './.' && name !== './') named.push({ name, as: 'nix', by: where(''), runBy });
      }
      continue;
    }
    if (line === '' || line.startsWith('#')) continue;
    const assignment = ASSIGNMENT.exec(line);
    if (assignment !== null) {
      const [, name, raw] = assignment;
      // A value is read as the shell reads it; one zotbox cannot read refuses (direnv runs it).
      // The variable's own earlier value ($PATH in PATH=...:$PATH) is the user's, from outside: it names nothing here.
      const words = as === 'dotenv' ? [raw!.replace(/^(["'])(.*)\1$/u, '$2')] : shellWords(raw!, new Map([...known, [name!, known.get(name!) ?? '']]));
      if (words === undefined || words.length > 1) {
        unresolved.push(where(`: ${DIRENV}, and zotbox cannot read this value (a command substitution, or a variable set outside the file)`));
        continue;
      }
      const value = words[0] ?? '';
      known.set(name!, value);
      // A search path's directories (PATH, LD_LIBRARY_PATH, PYTHONPATH...): what is in them runs in place of the user's
      // own, and a relative entry (`bin` in PATH=bin:$PATH) is one too, with or without a "/".
      const searchPath = /PATH$/u.test(name!);
      if (searchPath) {
        // Every directory of a search path, or the file refuses (s33d): a piece zotbox cannot read (a variable dotenv
        // expands, `${TOOLS}/bin`) is not known to name nothing, and one with spaces or other letters is a directory all the same.
        // The variable's own earlier value, as dotenv-expand writes it ($PATH, ${PATH}), is the user's: it names nothing here.
        const own = new Set([`$${name!}`, `\${${name!}}`]);
        const pieces = value.split(':').filter((piece) => piece !== '' && !own.has(piece));
        const unreadable = pieces.find((piece) => /[$`\\\u0000-\u001f]/u.test(piece) || piece.startsWith('-'));
        if (unreadable !== undefined) {
          unresolved.push(where(`: it puts ${JSON.stringify(unreadable)} on ${name!}, and zotbox cannot work out which directory that is`));
          continue;
        }
        for (const piece of pieces) named.push({ name: piece, as: 'tree', by: where(''), runBy });
        continue;
      }
      for (const piece of valuePaths(value)) named.push({ name: piece, as: 'words', by: where(''), runBy });
      continue;
    }
    if (as === 'dotenv') {
      unresolved.push(where(': not a KEY=VALUE line'));
      continue;
    }
    const words = shellWords(line, known);
    const directive = words === undefined ? undefined : DIRENV_DIRECTIVES.get(words[0]!);
    if (words === undefined || directive === undefined) {
      unresolved.push(where(`: ${DIRENV}, and zotbox reads only direnv's directives ${[...DIRENV_DIRECTIVES.keys()].join(', ')} and NAME=VALUE lines`));
      continue;
    }
    const items = directive(words.slice(1), known, path.dirname(file));
    if (typeof items === 'string') {
      unresolved.push(where(`: ${DIRENV}, and ${items}`));
      continue;
    }
    for (const item of items) named.push({ ...item, by: where(''), runBy: DIRENV });
  }
  return named;
}

/** The regular files of a tool entry (the entry itself, or what a tool directory holds), at most `budget`. */
function filesOf(entry: string, budget: { left: number }, unresolved: string[]): string[] {
  const stats = lstatSync(entry, { throwIfNoEntry: false });
  if (stats === undefined || stats.isSymbolicLink()) return [];
  if (stats.isFile()) return [entry];
  if (!stats.isDirectory()) return [];
  const files: string[] = [];
  const visit = (directory: string) => {
    let names: string[];
    try {
      names = readdirSync(directory);
    } catch {
      unresolved.push(`${directory} cannot be listed`);
      return;
    }
    for (const name of names) {
      if (budget.left-- <= 0) {
        unresolved.push(`${entry} holds more files than zotbox reads for the paths they name`);
        return;
      }
      const full = path.join(directory, name);
      const child = lstatSync(full, { throwIfNoEntry: false });
      if (child?.isFile() === true) files.push(full);
      else if (child?.isDirectory() === true) visit(full);
    }
  };
  visit(entry);
  return files;
}

/** A file that runs as a program or a shell script: executable, or named like a script. */
function isScript(file: string): boolean {
  const stats = lstatSync(file, { throwIfNoEntry: false });
  return stats?.isFile() === true && ((stats.mode & 0o111) !== 0 || /\.(sh|bash|zsh|ksh|fish|ps1|py|rb|pl|[cm]?js|ts)$/iu.test(file));
}

/** What the protected tool files among `toolEntries` name inside the write scopes. */
export function toolFileReferences(toolEntries: readonly string[], writeRoots: readonly string[]): ToolFileReferences {
  const unresolved: string[] = [];
  const locations = new Map<string, ControlLocation>();
  const read = new Set<string>();
  const budget = { left: MAX_FILES };
  const inScopes = (p: string) => writeRoots.some((root) => isInsideRoot(p, root));
  // Granted when a write scope names the path or lies inside it (as for tool files).
  const granted = (p: string) => writeRoots.some((root) => isInsideRoot(root, p));
  // `depth`: how many words files lie between the tool file and this one (a script a task names is read, what that names is not).
  const pending: { file: string; as: Reading; base: string; runBy: string; depth: number }[] = [];
  const setLocation = (location: ControlLocation) => {
    // A directory on PATH covers what it holds: it wins over the same path named as a file.
    const known = locations.get(location.path);
    if (known === undefined || (location.tree && !known.tree)) locations.set(location.path, location);
  };
  for (const entry of toolEntries) {
    if (!inScopes(entry)) continue;
    // A Python virtual environment (pyvenv.cfg; an activation script in bin/ for older ones): activation, which editors
    // do in every terminal they open, puts all of its bin/ first on PATH, so every program there runs as the user's own.
    const name = path.basename(entry).toLowerCase();
    const venvBins =
      name === 'pyvenv.cfg'
        ? ['bin', 'Scripts'].map((bin) => path.join(path.dirname(entry), bin))
        : name === 'activate' && /^(bin|scripts)$/iu.test(path.basename(path.dirname(entry)))
          ? [path.dirname(entry)]
          : [];
    for (const bin of venvBins)
      if (!granted(bin))
        setLocation({
          path: bin,
          tree: true,
          reason: `the bin/ of the virtual environment at ${path.dirname(bin)}; activating it (editors do in every terminal they open) puts every program in it first on PATH`,
        });
    const isEnvrc = path.basename(entry).toLowerCase() === '.envrc';
    if (!isEnvrc && !WORDS_ENTRIES.test(path.basename(entry))) continue;
    // A tool file that is a link is read where it leads (the tool reads that), if that lies in the scopes.
    const real = resolveCanonicalPath(entry);
    for (const file of filesOf(real.ok && inScopes(real.path) ? real.path : entry, budget, unresolved).filter((f) => !IDE_STATE.test(f)))
      pending.push({ file, as: isEnvrc ? 'direnv' : 'words', base: isEnvrc ? path.dirname(file) : path.dirname(entry), runBy: 'the tool that runs it on its own runs what it names', depth: 0 });
  }
  while (pending.length > 0) {
    const { file, as, base, runBy, depth } = pending.shift()!;
    if (read.has(`${as}:${file}`)) continue;
    read.add(`${as}:${file}`);
    if (read.size > MAX_FILES) {
      unresolved.push(`${file}: the tool files name more files than zotbox reads`);
      break;
    }
    for (const named of readFile(file, as, base, runBy, unresolved)) {
      const written = path.resolve(as === 'words' ? base : path.dirname(file), named.name);
      const writtenIsDirectory = lstatSync(written, { throwIfNoEntry: false })?.isDirectory() === true;
      // A directory nix imports is its default.nix; a directory direnv sources is its .envrc, one dotenv loads its .env.
      const inside = named.as === 'nix' ? 'default.nix' : named.as === 'direnv' ? '.envrc' : named.as === 'dotenv' ? '.env' : undefined;
      const target = writtenIsDirectory && inside !== undefined ? path.join(written, inside) : written;
      if (!inScopes(target) || granted(target)) continue;
      const isDirectory = lstatSync(target, { throwIfNoEntry: false })?.isDirectory() === true;
      // A directory a setting names (a working directory, a folder to scan) is not protected: only files, and the
      // directories put on PATH (`tree`), are what a tool runs from.
      if (isDirectory && named.as !== 'tree') continue;
      // Under the name written and where it resolves (a linked directory on the way): the gate decides canonical paths.
      const real = resolveCanonicalPath(target);
      for (const at of real.ok && real.path !== target && inScopes(real.path) && !granted(real.path) ? [target, real.path] : [target])
        setLocation({ path: at, tree: named.as === 'tree', reason: `named by ${named.by}; ${named.runBy}` });
      if (isDirectory || named.as === 'tree') continue;
      // Read on: what direnv sources and loads, the .nix files nix evaluates (a file nix names otherwise is a hook's
      // script, read for its words), the files the tool file itself names, and any script a script names (a chain of
      // scripts is followed to its end, within MAX_FILES).
      if (named.as === 'nix' && !target.endsWith('.nix')) pending.push({ file: target, as: 'words', base, runBy: named.runBy, depth: 0 });
      else if (named.as === 'direnv' || named.as === 'dotenv' || named.as === 'nix') pending.push({ file: target, as: named.as, base, runBy: named.runBy, depth });
      else if (depth === 0 || isScript(target)) pending.push({ file: target, as: 'words', base, runBy: named.runBy, depth: depth + 1 });
    }
  }
  return { locations: [...locations.values()], unresolved };
}
