// What the user's own git runs or reads as configuration, in the write scopes
// (issue 21 §3): every path that a repository's effective configuration names
// (its config, its includes and conditional includes, all taken as active, and
// the user's global and system config, read as the user's git reads them), the
// control entries of every git directory and what their links point to. The
// repositories are those the inventory walk finds in the write scopes and those
// git uses for them from outside (found upward from each root, or through a
// gitfile). Every file a command value may name counts (git-config-lines.ts);
// what cannot be worked out is returned as unresolved, and refuses every writer.
// Computed in the host; the gate gets the result as data. Never reads
// process.env: the user's environment is passed in (UserGitEnvironment).
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { GIT_CONTROL_ENTRIES } from '../../../policy/git-control.js';
import { resolveCanonicalPath } from '../../../policy/path-resolve.js';
import type { ControlLocation } from '../../../policy/protected-files.js';
import { isInsideRoot } from '../../../policy/scopes.js';
import { moduleEntriesLocation } from './python-installed-names.js';
import { commandWords, derivedPrograms, isDataEntry, pathWords } from './git-config-lines.js';
import { type ConfigEntry, entryName, readConfigEntries, spelledEntry } from './git-config-text.js';
import { environmentConfigEntries } from './git-environment-config.js';
import { commondirDirectory, gitfileDirectory, isUnspellable, linkTextOf } from './git-pointer-text.js';
import { OVERSIZED, readSmallFile, type GitEntryState, type GitInventory } from './git-inventory.js';
import { pendingGitDirectories, pendingRuns, type Anchors } from './git-pending-runs.js';
import { CLIMB_REASON, climbsOutOfName } from './lexical-climb.js';
import { isNodePreloadName, unreadPreload } from './node-preload-packages.js';
import { type AccountHomes, type ExpandedPath, expandUserPath } from './user-path-expansion.js';

/** Where the user's own git finds its global and system configuration (from the host's environment, given explicitly). */
export interface UserGitEnvironment {
  /** The user's home ($HOME): ~/.gitconfig, and "~/" in config values. */
  readonly home: string;
  readonly xdgConfigHome?: string;
  /** GIT_CONFIG_GLOBAL / GIT_CONFIG_SYSTEM when set; GIT_CONFIG_NOSYSTEM. */
  readonly globalConfig?: string;
  readonly systemConfig?: string;
  readonly noSystem?: boolean;
  /** The user's PATH: a bare program name in a config value is looked up there (a relative entry is relative to where git runs). */
  readonly searchPath?: string;
  /** The user's environment: what a variable a hook or a tool's script does not set itself expands to. */
  readonly environment?: Readonly<Record<string, string | undefined>>;
  /** Where `~NAME/` in a config value leads (the account database by default). */
  readonly accounts?: AccountHomes;
}

/** The user's git environment from the host's environment variables (never process.env: the caller passes them). */
export function userGitEnvironment(env: Readonly<Record<string, string | undefined>>, homeDirectory: string): UserGitEnvironment {
  const set = (name: string) => (env[name] === undefined || env[name] === '' ? undefined : env[name]);
  const noSystem = set('GIT_CONFIG_NOSYSTEM');
  return {
    // An empty HOME is git's "" + "/.gitconfig": the root directory.
    home: env.HOME === '' ? '/' : (set('HOME') ?? homeDirectory),
    ...(set('XDG_CONFIG_HOME') === undefined ? {} : { xdgConfigHome: set('XDG_CONFIG_HOME')! }),
    ...(set('GIT_CONFIG_GLOBAL') === undefined ? {} : { globalConfig: set('GIT_CONFIG_GLOBAL')! }),
    ...(set('GIT_CONFIG_SYSTEM') === undefined ? {} : { systemConfig: set('GIT_CONFIG_SYSTEM')! }),
    ...(noSystem === undefined || !gitReadsAsTrue(noSystem) ? {} : { noSystem: true }),
    ...(set('PATH') === undefined ? {} : { searchPath: set('PATH')! }),
    environment: { ...env },
  };
}

/**
 * Whether git's git_env_bool surely reads `value` as true: yes, on, true (any case), or a decimal number that is not
 * zero. git reads more spellings (a unit, hex, blanks), true or false: anything else counts as false here, so the
 * system config is read (more protection, never less).
 */
function gitReadsAsTrue(value: string): boolean {
  return /^(true|yes|on)$/iu.test(value) || /^\+?0*[1-9][0-9]*$/u.test(value);
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

function expandHome(value: string, user: UserGitEnvironment): ExpandedPath {
  return expandUserPath(value, user.home, user.accounts);
}

/** The user-level config files the user's git reads, whether or not they exist (creating one is as good as changing it). */
function userConfigFiles(user: UserGitEnvironment): ConfigFile[] {
  const files: ConfigFile[] = [];
  if (user.noSystem !== true) files.push({ file: user.systemConfig ?? '/etc/gitconfig', origin: "the system's git config" });
  if (user.globalConfig !== undefined) files.push({ file: user.globalConfig, origin: "the user's global git config (GIT_CONFIG_GLOBAL)" });
  else {
    // Joined as git joins them, by text: path.join would tidy a `..` in HOME (`/ws/x/..`) that the kernel walks through x.
    files.push({ file: joinAsGit(user.xdgConfigHome ?? joinAsGit(user.home, '.config'), 'git/config'), origin: "the user's global git config" });
    files.push({ file: joinAsGit(user.home, '.gitconfig'), origin: "the user's global git config" });
  }
  return files;
}

/** `directory/name` without tidying: git appends to $HOME and $XDG_CONFIG_HOME as text. */
function joinAsGit(directory: string, name: string): string {
  return directory.endsWith('/') ? `${directory}${name}` : `${directory}/${name}`;
}

/** A repository git would use: its git directory, the common one (a linked worktree's is its main repository's), and where git runs its programs. */
interface Repository {
  readonly gitDirectory: string;
  readonly commonDirectory: string;
  /** The top of its worktree (a bare repository: the git directory): where git runs hooks, aliases, drivers. */
  readonly top: string;
  /** The gitfile git reads through a `.git` link (`via`), when it reads one that way. */
  readonly gitfile?: { readonly file: string; readonly via: string; readonly written?: string };
}

/** What could not be read or worked out: each one refuses writes and commands (fail closed), named in the error. */
type Problems = string[];

/**
 * lstat that tells "absent" from "cannot tell": undefined when absent, and a problem noted when it cannot be read.
 * Absence is the common case (configs and repositories that are not there) and costs no exception (issue 21 §9).
 */
function entryAt(file: string, problems: Problems): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(file, { throwIfNoEntry: false });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') problems.push(`${file} cannot be read (${code ?? 'error'})`);
    return undefined;
  }
}

/** A control file's text; undefined when absent; a problem when it exists but cannot be read whole. */
function textAt(file: string, problems: Problems, encoding: 'utf8' | 'latin1' = 'utf8'): string | undefined {
  // withStats: an lstat first tells absence without the exception a failed realpath costs.
  const real = resolveCanonicalPath(file, { withStats: true });
  if (!real.ok || !real.exists) return undefined; // absent (or a link to nothing): git reads nothing there either
  const text = readSmallFile(real.path, encoding);
  if (text === undefined && entryAt(real.path, problems) !== undefined) problems.push(`${file} exists but cannot be read`);
  if (text === OVERSIZED) {
    problems.push(`${file} is larger than zotbox reads`);
    return undefined;
  }
  return text;
}

/**
 * A pointer file's text (a gitfile, a commondir) when it is UTF-8; one that is not was decoded with U+FFFD where its
 * bytes are not, so it names another path than git follows: a problem (zotbox cannot tell the repository), never a guess.
 */
function spelledText(file: string, text: string | undefined, problems: Problems): string | undefined {
  if (text === undefined || !text.includes('\uFFFD')) return text;
  problems.push(`${file} names a directory by a path that is not UTF-8 (or holds U+FFFD), so zotbox cannot follow it`);
  return undefined;
}

/**
 * The repository a ".git" entry (a directory, a gitfile, a link to either) opens; undefined when it opens none. git
 * (setup.c read_gitfile_gently) stats `.git` through its links and reads a regular file it reaches as a gitfile,
 * taking a relative path in it from the folder of `.git`, not of the file: so does zotbox, and that file is a pointer
 * git follows, to be protected like the `.git` entry itself (`gitfile`).
 */
function repositoryOf(dotGit: string, top: string, problems: Problems): Repository | undefined {
  const real = resolveCanonicalPath(dotGit);
  if (!real.ok) return undefined;
  const stats = entryAt(real.path, problems);
  let gitDirectory: string | undefined;
  if (stats?.isDirectory() === true) gitDirectory = real.path;
  else if (stats?.isFile() === true) {
    const text = spelledText(real.path, textAt(real.path, problems), problems);
    const written = text === undefined ? undefined : gitfileDirectory(text);
    if (written !== undefined) {
      const target = resolveCanonicalPath(path.resolve(path.dirname(dotGit), written));
      if (target.ok) gitDirectory = target.path;
    }
  }
  if (gitDirectory === undefined) return undefined;
  const throughLink = stats?.isFile() === true && entryAt(dotGit, problems)?.isSymbolicLink() === true;
  // Also as the link spells it: a link on the way (`.git -> link/main.gitfile`, `link -> store`) is then recorded as
  // the link it is, and put back if re-pointed (protected-locations.ts).
  const linkText = throughLink ? linkTextOf(dotGit) : undefined;
  const spelledPath = linkText === undefined || isUnspellable(linkText) ? undefined : path.resolve(path.dirname(dotGit), linkText);
  const gitfile = throughLink ? { file: real.path, via: dotGit, ...(spelledPath === undefined ? {} : { written: spelledPath }) } : undefined;
  return { gitDirectory, commonDirectory: commonDirectoryOf(gitDirectory, problems), top, ...(gitfile === undefined ? {} : { gitfile }) };
}

function commonDirectoryOf(gitDirectory: string, problems: Problems): string {
  const text = spelledText(path.join(gitDirectory, 'commondir'), textAt(path.join(gitDirectory, 'commondir'), problems), problems);
  const written = text === undefined ? undefined : commondirDirectory(text);
  if (written === undefined) return gitDirectory;
  const common = resolveCanonicalPath(path.resolve(gitDirectory, written));
  return common.ok ? common.path : gitDirectory;
}

/**
 * The repositories git uses for the write scopes though their git directories lie outside them (issue 21 §3): the
 * one git finds upward from each scope root, as git discovers it (".git" at each level, then the level itself as a
 * bare repository; the nearest wins), and the ones that gitfiles or ".git" links inside the scopes point out to (a
 * linked worktree, a submodule whose git directory is elsewhere). A few lstats per level: no walk.
 */
function repositoriesAround(inventory: GitInventory, writeRoots: readonly string[], problems: Problems): Repository[] {
  const found: Repository[] = [];
  for (const root of writeRoots) {
    for (let directory = root; ; directory = path.dirname(directory)) {
      const dotGit = path.join(directory, '.git');
      const repository =
        entryAt(dotGit, problems) !== undefined
          ? repositoryOf(dotGit, directory, problems)
          : entryAt(path.join(directory, 'HEAD'), problems) !== undefined &&
              (entryAt(path.join(directory, 'objects'), problems) !== undefined || entryAt(path.join(directory, 'commondir'), problems) !== undefined)
            ? { gitDirectory: directory, commonDirectory: commonDirectoryOf(directory, problems), top: directory }
            : undefined;
      if (repository !== undefined) {
        found.push(repository);
        break;
      }
      if (directory === path.dirname(directory)) break;
    }
  }
  for (const [entry, state] of inventory.gitEntries) {
    if (state.kind === 'file' || state.kind === 'link') {
      const repository = repositoryOf(entry, path.dirname(entry), problems);
      if (repository !== undefined) found.push(repository);
    }
  }
  return found;
}

/** What collectControlLocations found: the locations, and what it could not work out (then nothing may be written). */
export interface ControlScan {
  readonly locations: ControlLocation[];
  /** Each names the config line or file; non-empty means zotbox cannot tell what the user's git runs. */
  readonly unresolved: string[];
  /** Where the user's git finds the hooks of each repository (core.hooksPath, else hooks/ of its git directory), and the top it runs them in. */
  readonly hookDirectories: readonly HookDirectory[];
}

/** A directory whose files git runs as hooks, in the worktree top `top` (tool-file-references.ts reads what they run). */
export interface HookDirectory {
  readonly directory: string;
  readonly top: string;
}

/**
 * The control locations in the write scopes, for the gate and the sandbox. Paths
 * are absolute; each is listed as written and, where a link lies on it, as it
 * resolves too (git follows links).
 */
export function collectControlLocations(inventory: GitInventory, writeRoots: readonly string[], user: UserGitEnvironment): ControlScan {
  const found: ControlLocation[] = [];
  const unresolved: Problems = [];
  // Canonical directories, resolved once per call: a config's words against every base would otherwise resolve the same few directories hundreds of times.
  const canonicalDirectories = new Map<string, string | undefined>();
  const canonical = (absolute: string): string | undefined => {
    const directory = path.dirname(absolute);
    if (!canonicalDirectories.has(directory)) {
      const resolved = resolveCanonicalPath(directory);
      canonicalDirectories.set(directory, resolved.ok ? resolved.path : undefined);
    }
    const parent = canonicalDirectories.get(directory);
    if (parent === undefined) return undefined;
    const joined = path.join(parent, path.basename(absolute));
    let link = true; // what cannot be told is resolved the full way
    try {
      link = lstatSync(joined, { throwIfNoEntry: false })?.isSymbolicLink() === true;
    } catch {
      // ENOTDIR, EACCES: resolved below as resolveCanonicalPath resolves it
    }
    if (!link) return joined;
    const resolved = resolveCanonicalPath(joined);
    return resolved.ok ? resolved.path : undefined;
  };
  const add = (absolute: string, tree: boolean, reason: string) => {
    const written = path.resolve(absolute);
    // A directory on Python's path (a value runs `python3 -m x` there): the module entries of the names imported there.
    const entries = moduleEntriesLocation(written, reason, { searchPath: user.searchPath, writeRoots, environment: user.environment ?? {} });
    if (entries !== undefined) {
      if ('unresolved' in entries) unresolved.push(entries.unresolved);
      else if (writeRoots.some((root) => isInsideRoot(entries.location.path, root))) found.push(entries.location);
      return;
    }
    const resolved = canonical(written);
    for (const candidate of new Set([written, ...(resolved === undefined ? [] : [resolved])])) {
      if (writeRoots.some((root) => isInsideRoot(candidate, root))) found.push({ path: candidate, tree, reason });
    }
  };
  const addControlEntries = (directory: string, control: ReadonlyMap<string, GitEntryState>) => {
    const linked = new Set([...control].filter(([, state]) => state.kind === 'link').map(([name]) => name.toLowerCase()));
    for (const name of GIT_CONTROL_ENTRIES) {
      // A linked entry is named below by its link; the entry itself is git metadata, which the gate refuses anyway.
      if (!linked.has(name)) add(path.join(directory, name), true, `the git control entry ${name} of the git directory ${directory}; git runs or reads what it holds`);
    }
    for (const [name, state] of control) {
      if (state.kind !== 'link' || state.link === undefined || state.link === '') continue;
      // A target that is not UTF-8 names no path zotbox can protect (git follows its bytes): the call is refused by name.
      if (isUnspellable(state.link)) unresolved.push(`${path.join(directory, name)} is a link whose target is not UTF-8, so zotbox cannot follow it`);
      else add(path.resolve(directory, state.link), true, `where the link ${path.join(directory, name)} points; git follows it to its ${name}`);
    }
  };
  // Every git directory's control entries: a bare repository has no ".git" in its path for the name rule to see.
  for (const [directory, { control }] of inventory.gitDirectories) addControlEntries(directory, control);
  // And each one whole, for the write and edit tools: its objects, refs, logs and caches are content the user's git
  // later writes into a worktree. Commands change it only with git, which the git aftercare checks (protected-locations.ts
  // binds nothing inside a git directory); a file tool's write there would be checked only by that aftercare.
  for (const directory of inventory.gitDirectories.keys())
    add(
      directory,
      true,
      `inside the git directory ${directory}; git reads what it holds (objects, refs, logs, state) and writes it into the worktree later, so agents change a repository only with git commands through bash, never with the write or edit tool`,
    );
  const around = repositoriesAround(inventory, writeRoots, unresolved);
  for (const { gitfile } of around) {
    if (gitfile === undefined) continue;
    const reason = `the gitfile git reads through the link ${gitfile.via}; what it names is the repository git opens`;
    for (const file of [gitfile.file, ...(gitfile.written === undefined ? [] : [gitfile.written])]) add(file, false, reason);
  }
  for (const directory of new Set(around.flatMap((r) => [r.gitDirectory, r.commonDirectory]))) {
    if (inventory.gitDirectories.has(directory)) continue;
    const control = new Map<string, GitEntryState>();
    for (const name of GIT_CONTROL_ENTRIES) {
      const stats = entryAt(path.join(directory, name), unresolved);
      if (stats?.isSymbolicLink() !== true) continue;
      control.set(name, { kind: 'link', link: linkTextOf(path.join(directory, name)) });
    }
    addControlEntries(directory, control);
  }
  // Where git runs what the configuration names: every worktree top and git directory (over-approximated: each config's words against all).
  const bases = [...new Set([...repositoryBases(inventory), ...around.flatMap((r) => [r.top, r.gitDirectory, r.commonDirectory])])];
  // PATH directories a bare program name may be found in: relative ones (from where git runs it) and those in a scope.
  const searchPath = (user.searchPath ?? '')
    .split(':')
    .flatMap((entry) => (entry === '' ? ['.'] : [entry]))
    .filter((entry) => {
      if (!path.isAbsolute(entry)) return true;
      const resolved = resolveCanonicalPath(entry);
      return writeRoots.some((root) => isInsideRoot(entry, root) || (resolved.ok && isInsideRoot(resolved.path, root)));
    });
  const searchDirectories = searchPath.flatMap((entry) => (path.isAbsolute(entry) ? [entry] : bases.map((base) => path.resolve(base, entry))));
  // Where a command word is found: as written (absolute), in the home, at the tops, else from `plain` and, a bare name, on PATH.
  const anchorsOf: Anchors = (word, plain) =>
    (path.isAbsolute(word.text) ? ['/'] : word.anchor === 'home' ? [user.home] : word.anchor === 'top' ? bases : [...plain, ...(word.text.includes('/') ? [] : searchDirectories)]).map((anchor) =>
      path.resolve(anchor, word.text),
    );
  // A program git derives a name for (git-<alias>, git-remote-<scheme>...) is looked up on PATH after git's exec-path:
  // in a PATH directory in the scopes (a relative entry among them) whoever makes that name runs as the user's git.
  const addDerived = (program: string, what: string) => {
    for (const directory of searchDirectories) add(path.resolve(directory, program), false, `the program ${program} in a PATH directory; the user's git runs it for ${what}`);
  };
  /** Each config file read, with the least include depth it was read at (reached nearer later, it is read again). */
  const readAt = new Map<string, number>();
  // core.hooksPath values as written: each is a hooks directory of every repository, relative to its top (over-approximated).
  const hooksPaths: string[] = [];
  const readConfig = ({ file, origin }: ConfigFile, depth: number) => {
    add(file, false, `${origin}; the user's git reads it as configuration`);
    if (depth > MAX_INCLUDE_DEPTH) {
      // git stops there ("exceeded maximum include depth") when that chain is taken; zotbox cannot tell whether it is.
      unresolved.push(`${file} is included more than ${MAX_INCLUDE_DEPTH} levels deep (${origin}), deeper than git reads`);
      return;
    }
    // A file first read at a depth where its own includes went past the limit is read again when reached nearer.
    if ((readAt.get(file) ?? Number.POSITIVE_INFINITY) <= depth) return;
    readAt.set(file, depth);
    // git follows links to its config files: read what the link names (the link itself is protected as written).
    // By bytes, as git reads it: a value that is not UTF-8 is UNSPELLABLE, never another path (spelledEntry).
    const text = textAt(file, unresolved, 'latin1');
    if (text === undefined) return;
    const reading = readConfigEntries(text);
    if (reading.badLine !== undefined) {
      // git stops there and runs nothing; once the line is mended, what follows it counts, and zotbox has not read it.
      unresolved.push(`git cannot read ${file} past line ${reading.badLine} ("bad config line"), so zotbox cannot tell what the lines after it name; mend that line`);
    }
    for (const entry of reading.entries.map(spelledEntry))
      readEntry(entry, { where: `set in ${file} line ${entry.line}`, directory: path.dirname(file), includedBy: `${file} line ${entry.line}` }, depth);
  };
  /** One entry, from a config file in `directory` or (no directory) from the user's environment. */
  const readEntry = (entry: ConfigEntry, from: { where: string; directory: string | undefined; includedBy: string }, depth: number) => {
    if (entry.value === undefined) return;
    if (isUnspellable(entry.value)) {
      // Git reads it by its bytes; zotbox cannot tell which path those name. A data value names nothing git runs.
      if (!isDataEntry(entry)) unresolved.push(`${entry.written} (${from.where}) has a value that is not UTF-8, so zotbox cannot tell which file it names`);
      return;
    }
    const relativeBases = from.directory === undefined ? bases : [from.directory, ...bases];
    if ((entry.section === 'include' || entry.section === 'includeif') && entry.key === 'path') {
      // Every conditional include counts as active (gitdir:, onbranch:, hasconfig: may all come true later).
      const target = expandHome(entry.value, user);
      if ('problem' in target) unresolved.push(`${entry.written} (${from.where}): ${target.problem}`);
      else if (climbsOutOfName(target.path)) unresolved.push(`${entry.written} (${from.where}) includes ${JSON.stringify(entry.value)}: ${CLIMB_REASON}`);
      // git refuses a relative include that does not come from a file; zotbox cannot tell where it would look.
      else if (from.directory === undefined && !path.isAbsolute(target.path))
        unresolved.push(`${entry.written} (${from.where}) includes ${JSON.stringify(target.path)}, a relative path git refuses there`);
      else readConfig({ file: path.resolve(from.directory ?? '/', target.path), origin: `a git config file included by ${from.includedBy}` }, depth + 1);
      return;
    }
    const tree = TREE_KEYS.get(entryName(entry).toLowerCase());
    if (tree !== undefined) readTreeEntry(entry, tree, from.where, relativeBases);
    else readValueEntry(entry, from.where, relativeBases);
  };
  /** core.hooksPath, init.templateDir: a directory git runs (or copies) the files of. */
  const readTreeEntry = (entry: ConfigEntry, tree: string, where: string, relativeBases: readonly string[]) => {
    const name = entry.written;
    const expanded = entry.value === undefined || entry.value === '' ? undefined : expandHome(entry.value, user);
    const reason = `in ${name} (${where}); ${tree}`;
    if (expanded !== undefined && 'problem' in expanded) unresolved.push(`${name} (${where}): ${expanded.problem}`);
    else if (expanded !== undefined && climbsOutOfName(expanded.path)) unresolved.push(`${name} (${where}) is ${JSON.stringify(entry.value)}: ${CLIMB_REASON}`);
    else if (expanded !== undefined) {
      if (entryName(entry).toLowerCase() === 'core.hookspath') hooksPaths.push(expanded.path);
      for (const base of path.isAbsolute(expanded.path) ? ['/'] : relativeBases) add(path.resolve(base, expanded.path), true, reason);
    }
  };
  /** Any other value: data (its path words only) or a command git may run. */
  const readValueEntry = (entry: ConfigEntry, where: string, relativeBases: readonly string[]) => {
    const name = entry.written;
    const value = entry.value ?? '';
    const reason = `named by ${name} (${where}); the user's git may run or read it`;
    if (isDataEntry(entry)) {
      // A value git never runs: only the words that are paths as written are protected (an account zotbox cannot find names nothing it can protect).
      for (const word of pathWords(value).filter((w) => !/^[A-Za-z][A-Za-z0-9+.-]*:\/\//u.test(w))) {
        const expanded = expandHome(word, user);
        if ('path' in expanded) for (const base of path.isAbsolute(expanded.path) ? ['/'] : relativeBases) add(path.resolve(base, expanded.path), false, reason);
      }
      return;
    }
    // Every other value may be a command git runs through a shell, from the top of the worktree: every word of it
    // names a file there, or in a PATH directory, and what the shell would expand must be known now.
    const alias = entry.section === 'alias';
    const command = alias || entryName(entry).toLowerCase() === 'credential.helper' ? value.replace(/^\s*!/u, '') : value;
    const shell = !alias || value.trimStart().startsWith('!');
    for (const word of commandWords(command, shell ? 'shell' : 'git')) {
      if (word.kind === 'unresolved') {
        unresolved.push(`${name} (${where}) names ${JSON.stringify(word.text)}, and ${word.why}`);
        continue;
      }
      if (isNodePreloadName(word.text)) {
        unresolved.push(`${name} (${where}): ${unreadPreload(word.text)}`);
        continue;
      }
      for (const target of anchorsOf(word, relativeBases)) add(target, word.tree, reason);
    }
    for (const program of derivedPrograms(entry)) addDerived(program, `${name} (${where})`);
  };
  for (const config of userConfigFiles(user)) {
    // A file the user's environment names through a folder it climbs out of (`tools/cache/../gitconfig`): git reads
    // whatever that folder leads to (lexical-climb.ts).
    if (climbsOutOfName(config.file)) unresolved.push(`${config.origin} is ${config.file}: ${CLIMB_REASON}`);
    else readConfig({ ...config, file: path.normalize(config.file) }, 0);
  }
  // What the user's own environment sets (GIT_CONFIG_COUNT and friends) counts in every repository, like their global config.
  const fromEnvironment = environmentConfigEntries(user.environment ?? {});
  unresolved.push(...fromEnvironment.problems);
  for (const { entry, variable } of fromEnvironment.entries)
    readEntry(entry, { where: `set by ${variable} in the user's environment`, directory: undefined, includedBy: `${variable} in the user's environment` }, 0);
  for (const directory of inventory.gitDirectories.keys()) {
    for (const name of ['config', 'config.worktree']) readConfig({ file: path.join(directory, name), origin: `the config of the git directory ${directory}` }, 0);
  }
  for (const { gitDirectory, commonDirectory, top } of around) {
    // A linked worktree reads its main repository's config, and its own config.worktree (read whether or not extensions.worktreeConfig is on).
    for (const file of new Set([path.join(commonDirectory, 'config'), path.join(gitDirectory, 'config'), path.join(gitDirectory, 'config.worktree'), path.join(commonDirectory, 'config.worktree')])) {
      readConfig({ file, origin: `the config of the repository at ${top} (git directory ${gitDirectory})` }, 0);
    }
  }
  addPendingRuns(inventory, around, bases, user, { anchorsOf, addDerived, add, unresolved, writeRoots });
  return { locations: found, unresolved: [...new Set(unresolved)], hookDirectories: hookDirectoriesOf(inventory, around, hooksPaths) };
}

interface PendingSinks {
  readonly anchorsOf: Anchors;
  readonly addDerived: (program: string, what: string) => void;
  readonly add: (absolute: string, tree: boolean, reason: string) => void;
  readonly unresolved: Problems;
  readonly writeRoots: readonly string[];
}

/**
 * What the pending operations of every repository run when the user continues (git-pending-runs.ts): the files the
 * todo lists' exec lines name, and the merge strategy programs (git-merge-<strategy>) their state names.
 */
function addPendingRuns(inventory: GitInventory, around: readonly Repository[], bases: readonly string[], user: UserGitEnvironment, sinks: PendingSinks): void {
  const repositories = [
    ...around.flatMap((r) => [{ gitDirectory: r.gitDirectory, tops: [r.top] }, ...(r.commonDirectory === r.gitDirectory ? [] : [{ gitDirectory: r.commonDirectory, tops: bases }])]),
    // A linked worktree's state (worktrees/NAME) runs in that worktree, which zotbox does not look up here: every base.
    ...[...inventory.gitDirectories.keys()].flatMap((directory) =>
      pendingGitDirectories(directory).map((gitDirectory) => ({ gitDirectory, tops: gitDirectory === directory && path.basename(directory) === '.git' ? [path.dirname(directory)] : bases })),
    ),
  ];
  const inScopes = (p: string) => sinks.writeRoots.some((root) => isInsideRoot(p, root));
  const seen = new Set<string>();
  for (const repository of repositories) {
    if (seen.has(repository.gitDirectory)) continue;
    seen.add(repository.gitDirectory);
    for (const run of pendingRuns(repository, user.environment ?? {}, sinks.anchorsOf, inScopes, sinks.unresolved)) sinks.add(run.path, run.tree, run.reason);
    // The strategy a stopped rebase (rebase-merge/strategy) or cherry-pick (sequencer/opts) merges with: git-merge-<it>.
    const strategy = readSmallFile(path.join(repository.gitDirectory, 'rebase-merge', 'strategy'));
    if (strategy !== undefined && strategy !== OVERSIZED && strategy.trim() !== '')
      sinks.addDerived(`git-merge-${strategy.trim()}`, `the strategy of the pending rebase in ${repository.gitDirectory}`);
    const options = readSmallFile(path.join(repository.gitDirectory, 'sequencer', 'opts'));
    const reading = options === undefined || options === OVERSIZED ? { entries: [] } : readConfigEntries(options);
    if (reading.badLine !== undefined)
      sinks.unresolved.push(
        `git cannot read ${path.join(repository.gitDirectory, 'sequencer', 'opts')} past line ${reading.badLine}, so zotbox cannot tell the strategy of the pending cherry-pick or revert`,
      );
    for (const entry of reading.entries) {
      if (entry.key === 'strategy' && entry.value !== undefined) sinks.addDerived(`git-merge-${entry.value}`, `the strategy of the pending cherry-pick or revert in ${repository.gitDirectory}`);
    }
  }
}

/** Every repository's hooks directories: its own hooks/ and each core.hooksPath read, from its top. */
function hookDirectoriesOf(inventory: GitInventory, around: readonly Repository[], hooksPaths: readonly string[]): HookDirectory[] {
  const repositories = [
    ...around,
    ...[...inventory.gitDirectories.keys()].map((gitDirectory) => ({
      gitDirectory,
      commonDirectory: gitDirectory,
      top: path.basename(gitDirectory) === '.git' ? path.dirname(gitDirectory) : gitDirectory,
    })),
  ];
  const found = new Map<string, HookDirectory>();
  for (const { commonDirectory, top } of repositories) {
    for (const directory of [path.join(commonDirectory, 'hooks'), ...hooksPaths.map((value) => path.resolve(top, value))]) found.set(`${directory}\u0000${top}`, { directory, top });
  }
  return [...found.values()];
}

/** Git directory → the directories relative paths in its config are taken from (its worktrees, itself). */
function repositoryBases(inventory: GitInventory): string[] {
  const bases = new Set<string>(inventory.gitDirectories.keys());
  for (const [entry, state] of inventory.gitEntries) if (state.kind !== 'other') bases.add(path.dirname(entry));
  return [...bases];
}
