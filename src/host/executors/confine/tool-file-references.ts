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
//     stdlib directives (DIRENV_DIRECTIVES) and plain assignments; any other line
//     (a command, a function, a condition, $(...), `...`) is not understood, and
//     every writer is refused until it is changed (tool files are unresolved);
//   - a dotenv file: KEY=VALUE lines; a value naming a path protects that path;
//   - a .nix file: its path literals (./x, ../x), followed into the .nix files
//     they name; the directory itself (./.) is copied into the store, not run;
//   - any other file of a protected tool (.vscode/, .devcontainer/, .mcp.json,
//     .claude/, a *.code-workspace ...): every word that spells a path (holds a
//     "/", or starts with "./" or "../", after ${workspaceFolder} and its kin),
//     relative to the directory that holds the tool file's top entry, when it
//     names a file (a directory a setting names, a working directory, is not
//     protected); a file so named is read the same way once (a script a task
//     runs names the scripts it calls), no further.
// A file zotbox cannot read whole (too large, unreadable) is unresolved too.
import { lstatSync, readdirSync } from 'node:fs';
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
 * direnv's stdlib directives zotbox reads, and what each names (relative to the directory of the file that says
 * it): `file` is read as direnv code, `dotenv` as a dotenv file, `nix` as nix, `tree` a directory whose programs
 * the user's shell then runs (PATH), `none` nothing to protect (the argument is no file, or only watched).
 */
const DIRENV_DIRECTIVES: ReadonlyMap<string, (args: readonly string[]) => readonly { readonly name: string; readonly as: Reading | 'tree' }[]> = new Map([
  ['source_env', (args) => args.slice(0, 1).map((name) => ({ name, as: 'direnv' as const }))],
  ['source_env_if_exists', (args) => args.slice(0, 1).map((name) => ({ name, as: 'direnv' as const }))],
  ['source_up', (args) => args.slice(0, 1).map((name) => ({ name: path.join('..', name), as: 'direnv' as const }))],
  ['source_up_if_exists', (args) => args.slice(0, 1).map((name) => ({ name: path.join('..', name), as: 'direnv' as const }))],
  ['dotenv', (args) => [{ name: args[0] ?? '.env', as: 'dotenv' as const }]],
  ['dotenv_if_exists', (args) => [{ name: args[0] ?? '.env', as: 'dotenv' as const }]],
  ['PATH_add', (args) => args.map((name) => ({ name, as: 'tree' as const }))],
  ['path_add', (args) => args.slice(1).map((name) => ({ name, as: 'tree' as const }))],
  ['MANPATH_add', () => []],
  ['load_prefix', (args) => args.slice(0, 1).map((name) => ({ name, as: 'tree' as const }))],
  ['watch_file', () => []],
  ['watch_dir', () => []],
  ['strict_env', () => []],
  ['unstrict_env', () => []],
  ['log_status', () => []],
  ['log_error', () => []],
  ['direnv_version', () => []],
  ['unset', () => []],
  // layout python* keeps a virtual environment in .direnv/ and puts its bin/ on PATH; layout node puts node_modules/.bin there.
  ['layout', (args) => (args[0] === 'node' ? [{ name: 'node_modules/.bin', as: 'tree' as const }] : [{ name: '.direnv', as: 'tree' as const }])],
  ['use', (args) => useNames(args)],
]);

/** `use nix [FILE]`, `use flake [DIR]`: what nix evaluates (its shellHook runs); other `use` (a version manager) puts .direnv on PATH. */
function useNames(args: readonly string[]): { name: string; as: Reading | 'tree' }[] {
  const [what, ...rest] = args;
  const files = rest.filter((arg) => !arg.startsWith('-'));
  if (what === 'nix') {
    const named = files.filter((arg) => arg.endsWith('.nix'));
    return (named.length > 0 ? named : ['shell.nix', 'default.nix']).map((name) => ({ name, as: 'nix' }));
  }
  if (what === 'flake') {
    const ref = files[0] ?? '.';
    const directory = ref.startsWith('path:') ? ref.slice('path:'.length) : ref;
    if (!directory.startsWith('.') && !directory.startsWith('/')) return []; // a registry or URL flake: not in the workspace
    return ['flake.nix', 'flake.lock'].map((name) => ({ name: path.join(directory.split('#')[0]!, name), as: 'nix' }));
  }
  return [{ name: '.direnv', as: 'tree' }];
}

/**
 * Splits a shell line into words: plain, '...' and "..." quoting; $NAME and ${NAME} expand to what `known` holds
 * ($PWD: the file's directory). Undefined when the line holds what zotbox does not read: a command substitution,
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

const ASSIGNMENT = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$/u;
const WORKSPACE_VARIABLES = /\$\{(workspaceFolder|workspaceRoot|fileWorkspaceFolder|localWorkspaceFolder|containerWorkspaceFolder)\}|\$PROJECT_DIR\$/gu;

interface Named {
  readonly name: string;
  readonly as: Reading | 'tree';
  /** What names it: "/ws/.envrc line 1 (source_env_if_exists .envrc.local)". */
  readonly by: string;
  /** Who runs what it names. */
  readonly runBy: string;
}

/** What one file names, and what in it zotbox cannot read. */
function readFile(file: string, as: Reading, runBy: string, unresolved: string[]): Named[] {
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
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    const where = (what: string) => `${file} line ${index + 1} (${line.length > 80 ? `${line.slice(0, 77)}...` : line})${what}`;
    if (as === 'words') {
      for (const word of line.replace(WORKSPACE_VARIABLES, '.').split(/[\s"'`,;=()[\]{}<>|&]+/u)) if (pathLike(word)) named.push({ name: word, as: 'words', by: where(''), runBy });
      continue;
    }
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
      // PATH's directories: every program in them runs in place of the user's own.
      for (const piece of valuePaths(value)) named.push({ name: piece, as: name === 'PATH' ? 'tree' : 'words', by: where(''), runBy });
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
    for (const item of directive(words.slice(1))) named.push({ ...item, by: where(''), runBy: DIRENV });
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
  for (const entry of toolEntries) {
    if (!inScopes(entry)) continue;
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
    for (const named of readFile(file, as, runBy, unresolved)) {
      const written = path.resolve(as === 'words' ? base : path.dirname(file), named.name);
      const writtenIsDirectory = lstatSync(written, { throwIfNoEntry: false })?.isDirectory() === true;
      // A directory nix imports is its default.nix; a directory direnv sources is its .envrc.
      const inside = named.as === 'nix' ? 'default.nix' : named.as === 'direnv' ? '.envrc' : undefined;
      const target = writtenIsDirectory && inside !== undefined ? path.join(written, inside) : written;
      if (!inScopes(target) || granted(target)) continue;
      const isDirectory = lstatSync(target, { throwIfNoEntry: false })?.isDirectory() === true;
      // A directory a setting names (a working directory, a folder to scan) is not protected: only files, and the
      // directories put on PATH (`tree`), are what a tool runs from.
      if (isDirectory && named.as !== 'tree') continue;
      // Under the name written and where it resolves (a linked directory on the way): the gate decides canonical paths.
      const real = resolveCanonicalPath(target);
      for (const at of real.ok && real.path !== target && inScopes(real.path) && !granted(real.path) ? [target, real.path] : [target])
        if (!locations.has(at)) locations.set(at, { path: at, tree: named.as === 'tree', reason: `named by ${named.by}; ${named.runBy}` });
      // Read on: what direnv sources and loads, the .nix files nix evaluates, and the files the tool file itself names.
      const readOn = named.as === 'direnv' || named.as === 'dotenv' || (named.as === 'nix' && target.endsWith('.nix')) || (named.as === 'words' && depth === 0);
      if (readOn && !isDirectory) pending.push({ file: target, as: named.as, base, runBy: named.runBy, depth: named.as === 'words' ? depth + 1 : depth });
    }
  }
  return { locations: [...locations.values()], unresolved };
}
