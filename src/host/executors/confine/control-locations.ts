// What the user's own git runs or reads as configuration, in the write scopes
// (issue 21 §3): every path that a repository's effective configuration names
// (its config, its includes and conditional includes, all taken as active, and
// the user's global and system config, read as the user's git reads them), the
// control entries of every git directory and what their links point to. Computed
// in the host from the inventory walk; the gate gets the result as data. Never
// reads process.env: the user's environment is passed in (UserGitEnvironment).
import path from 'node:path';
import { GIT_CONTROL_ENTRIES } from '../../../policy/git-control.js';
import { resolveCanonicalPath } from '../../../policy/path-resolve.js';
import type { ControlLocation } from '../../../policy/protected-files.js';
import { isInsideRoot } from '../../../policy/scopes.js';
import { entryName, parseConfigEntries, pathWords } from './git-config-lines.js';
import { readSmallFile, type GitInventory } from './git-inventory.js';

/** Where the user's own git finds its global and system configuration (from the host's environment, given explicitly). */
export interface UserGitEnvironment {
  /** The user's home ($HOME): ~/.gitconfig, and "~/" in config values. */
  readonly home: string;
  readonly xdgConfigHome?: string;
  /** GIT_CONFIG_GLOBAL / GIT_CONFIG_SYSTEM when set; GIT_CONFIG_NOSYSTEM. */
  readonly globalConfig?: string;
  readonly systemConfig?: string;
  readonly noSystem?: boolean;
}

/** The user's git environment from the host's environment variables (never process.env: the caller passes them). */
export function userGitEnvironment(env: Readonly<Record<string, string | undefined>>, homeDirectory: string): UserGitEnvironment {
  const set = (name: string) => (env[name] === undefined || env[name] === '' ? undefined : env[name]);
  const noSystem = set('GIT_CONFIG_NOSYSTEM');
  return {
    home: set('HOME') ?? homeDirectory,
    ...(set('XDG_CONFIG_HOME') === undefined ? {} : { xdgConfigHome: set('XDG_CONFIG_HOME')! }),
    ...(set('GIT_CONFIG_GLOBAL') === undefined ? {} : { globalConfig: set('GIT_CONFIG_GLOBAL')! }),
    ...(set('GIT_CONFIG_SYSTEM') === undefined ? {} : { systemConfig: set('GIT_CONFIG_SYSTEM')! }),
    ...(noSystem === undefined || /^(0|false|no|off)$/iu.test(noSystem) ? {} : { noSystem: true }),
  };
}

/** git's own limit on nested includes. */
const MAX_INCLUDE_DEPTH = 10;

/** Keys whose value is a directory git runs files from, or copies hooks from. */
const TREE_KEYS: ReadonlyMap<string, string> = new Map([
  ['core.hookspath', "the user's git runs the hooks there"],
  ['init.templatedir', 'git copies the hooks there into every repository it creates'],
]);

interface ConfigFile {
  readonly file: string;
  /** Who made git read it: "the user's global git config", or "included by /ws/.git/config line 3". */
  readonly origin: string;
}

function expandHome(value: string, user: UserGitEnvironment): string | undefined {
  if (value === '~' || value.startsWith('~/')) return path.join(user.home, value.slice(1));
  return value.startsWith('~') ? undefined : value; // ~other-user: not this user's files
}

/** The user-level config files the user's git reads, whether or not they exist (creating one is as good as changing it). */
function userConfigFiles(user: UserGitEnvironment): ConfigFile[] {
  const files: ConfigFile[] = [];
  if (user.noSystem !== true) files.push({ file: user.systemConfig ?? '/etc/gitconfig', origin: "the system's git config" });
  if (user.globalConfig !== undefined) files.push({ file: user.globalConfig, origin: "the user's global git config (GIT_CONFIG_GLOBAL)" });
  else {
    files.push({ file: path.join(user.xdgConfigHome ?? path.join(user.home, '.config'), 'git', 'config'), origin: "the user's global git config" });
    files.push({ file: path.join(user.home, '.gitconfig'), origin: "the user's global git config" });
  }
  return files;
}

/** Git directory → the directories relative paths in its config are taken from (its worktrees, itself). */
function repositoryBases(inventory: GitInventory): string[] {
  const bases = new Set<string>(inventory.gitDirectories.keys());
  for (const [entry, state] of inventory.gitEntries) if (state.kind !== 'other') bases.add(path.dirname(entry));
  return [...bases];
}

/**
 * The control locations in the write scopes, for the gate and the sandbox. Paths
 * are absolute; each is listed as written and, where a link lies on it, as it
 * resolves too (git follows links).
 */
export function collectControlLocations(inventory: GitInventory, writeRoots: readonly string[], user: UserGitEnvironment): ControlLocation[] {
  const found: ControlLocation[] = [];
  const add = (absolute: string, tree: boolean, reason: string) => {
    const resolved = resolveCanonicalPath(absolute);
    for (const candidate of new Set([path.resolve(absolute), ...(resolved.ok ? [resolved.path] : [])])) {
      if (writeRoots.some((root) => isInsideRoot(candidate, root))) found.push({ path: candidate, tree, reason });
    }
  };
  // Every git directory's control entries: a bare repository has no ".git" in its path for the name rule to see.
  for (const [directory, { control }] of inventory.gitDirectories) {
    const linked = new Set([...control].filter(([, state]) => state.kind === 'link').map(([name]) => name.toLowerCase()));
    for (const name of GIT_CONTROL_ENTRIES) {
      // A linked entry is named below by its link; the entry itself is git metadata, which the gate refuses anyway.
      if (!linked.has(name)) add(path.join(directory, name), true, `the git control entry ${name} of the git directory ${directory}; git runs or reads what it holds`);
    }
    for (const [name, state] of control) {
      if (state.kind === 'link' && state.link !== undefined && state.link !== '') {
        add(path.resolve(directory, state.link), true, `where the link ${path.join(directory, name)} points; git follows it to its ${name}`);
      }
    }
  }
  const bases = repositoryBases(inventory);
  const read = new Set<string>();
  const readConfig = ({ file, origin }: ConfigFile, depth: number) => {
    add(file, false, `${origin}; the user's git reads it as configuration`);
    if (read.has(file) || depth > MAX_INCLUDE_DEPTH) return;
    read.add(file);
    // git follows links to its config files: read what the link names (the link itself is protected as written).
    const real = resolveCanonicalPath(file);
    const text = real.ok ? readSmallFile(real.path) : undefined;
    if (text === undefined) return;
    for (const entry of parseConfigEntries(text)) {
      const name = entry.written;
      const where = `set in ${file} line ${entry.line}`;
      if (entry.value === undefined) continue;
      if ((entry.section === 'include' || entry.section === 'includeif') && entry.key === 'path') {
        // Every conditional include counts as active (gitdir:, onbranch:, hasconfig: may all come true later).
        const target = expandHome(entry.value, user);
        if (target !== undefined) readConfig({ file: path.resolve(path.dirname(file), target), origin: `a git config file included by ${file} line ${entry.line}` }, depth + 1);
        continue;
      }
      const tree = TREE_KEYS.get(entryName(entry).toLowerCase());
      // Every other value is read for the files it names, whatever its key: the closed world of "keys that run
      // nothing" is not git's to promise (aliases, drivers, helpers, hook.*.command, tools of later versions).
      const words = tree === undefined ? pathWords(entry.value).filter((word) => !/^[A-Za-z][A-Za-z0-9+.-]*:\/\//u.test(word)) : entry.value === '' ? [] : [entry.value];
      for (const word of words) {
        const expanded = expandHome(word, user);
        if (expanded === undefined) continue;
        const reason = tree === undefined ? `named by ${name} (${where}); the user's git may run or read it` : `in ${name} (${where}); ${tree}`;
        if (path.isAbsolute(expanded)) add(expanded, tree !== undefined, reason);
        else for (const base of [path.dirname(file), ...bases]) add(path.resolve(base, expanded), tree !== undefined, reason);
      }
    }
  };
  for (const config of userConfigFiles(user)) readConfig(config, 0);
  for (const directory of inventory.gitDirectories.keys()) {
    for (const name of ['config', 'config.worktree']) readConfig({ file: path.join(directory, name), origin: `the config of the git directory ${directory}` }, 0);
  }
  return found;
}
