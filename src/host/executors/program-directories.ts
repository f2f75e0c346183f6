// Program directories the user names (issue 24 §4: --program-path, the library's
// programPath; never the manifest, so an agent never chooses where its programs
// come from). Each is canonical, exists, and is writable by no one the sandbox
// can reach nor by the agent: every component from / down is owned by root or
// the user running zotbox, none but a sticky ancestor is group- or world-writable,
// and none lies in or holds a write scope of the run. Commands find programs in
// them first, and the sandbox binds each (with its toolchain home) read-only.
import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { ZotboxError } from '../../errors.js';
import { resolveCanonicalPath } from '../../policy/path-resolve.js';
import { isInsideRoot } from '../../policy/scopes.js';
import { COMMAND_SEARCH_PATH, TRUSTED_PROGRAM_DIRECTORIES } from './command-environment.js';

/** One program directory in force: canonical, and what the sandbox binds read-only for it. */
export interface ProgramDirectory {
  /** Canonical; on PATH before the fixed search path. */
  readonly directory: string;
  /** The toolchain home bound with it (the parent of a `bin` or `.bin` directory), when there is one. */
  readonly home?: string;
}

/** The sandbox's uid and gid (sandbox-plan.ts): what it owns, it could have written from another sandbox. */
const SANDBOX_ID = 65534;

/** Top-level directories the sandbox already mounts read-only (system-mounts.ts); a home is never one of them or `/`. */
const SYSTEM_TOPS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/opt'];

function unsafe(directory: string, why: string): ZotboxError {
  return new ZotboxError(
    'ZB_PROGRAM_PATH_UNSAFE',
    `program directory ${directory} refused: ${why}. A program directory must be a real directory that neither the agent nor anyone else the sandbox can reach may change. Fix: name another directory with --program-path (or programPath), or fix its owner and mode (chmod go-w).`,
    { details: { path: directory, why } },
  );
}

/** Why `component` (on the way down to `directory`) lets someone other than root or this user change what is below it, or undefined. */
function writableBy(component: string, last: boolean): string | undefined {
  const stats = lstatSync(component);
  const me = process.getuid?.() ?? 0;
  if (stats.uid === SANDBOX_ID) return `${component} is owned by uid ${SANDBOX_ID}, the user commands run as in the sandbox`;
  if (stats.uid !== 0 && stats.uid !== me) return `${component} is owned by uid ${stats.uid}, another user`;
  // A sticky ancestor (/tmp) lets others add names but not replace ours: the next component's owner is checked in turn.
  const sticky = (stats.mode & 0o1000) !== 0 && !last;
  if ((stats.mode & 0o002) !== 0 && !sticky) return `${component} is world-writable`;
  if ((stats.mode & 0o020) !== 0 && !sticky) return `${component} is writable by group ${stats.gid}`;
  return undefined;
}

/**
 * Canonicalizes and checks the directories the user named, in the user's order (duplicates once). `homeDirectory` and
 * `stateDirectory` are never bound as a toolchain home (a `bin` directory right in them is bound alone). Throws
 * ZB_PROGRAM_PATH_UNSAFE naming the directory and why.
 */
export function resolveProgramDirectories(written: readonly string[], context: { readonly homeDirectory: string; readonly stateDirectory?: string }): ProgramDirectory[] {
  const resolved: ProgramDirectory[] = [];
  for (const entry of written) {
    if (!path.isAbsolute(entry)) throw unsafe(entry, 'it is not an absolute path');
    let directory: string;
    try {
      directory = realpathSync.native(entry);
    } catch (cause) {
      throw unsafe(entry, `it cannot be resolved (${(cause as NodeJS.ErrnoException).code ?? String(cause)})`);
    }
    if (!statSync(directory).isDirectory()) throw unsafe(entry, `${directory} is not a directory`);
    if (directory === '/') throw unsafe(entry, 'it is the root directory');
    const parts = directory.split('/').filter((part) => part !== '');
    for (let index = 0; index <= parts.length; index += 1) {
      const component = `/${parts.slice(0, index).join('/')}`;
      const why = writableBy(component, index === parts.length);
      if (why !== undefined) throw unsafe(entry, why);
    }
    if (resolved.some((known) => known.directory === directory)) continue;
    resolved.push({ directory, ...homeOf(directory, context) });
  }
  return resolved;
}

/** The toolchain home: the parent of `bin` (nvm, rustup's cargo, a prefix) or `.bin` (node_modules), unless that would expose the user's home, the state directory or the system. */
function homeOf(directory: string, context: { readonly homeDirectory: string; readonly stateDirectory?: string }): { home?: string } {
  const name = path.basename(directory);
  if (name !== 'bin' && name !== '.bin') return {};
  const home = path.dirname(directory);
  if (home === '/' || SYSTEM_TOPS.some((top) => isInsideRoot(home, top))) return {};
  if (isInsideRoot(context.homeDirectory, home)) return {};
  if (context.stateDirectory !== undefined && isInsideRoot(context.stateDirectory, home)) return {};
  return { home };
}

/** Throws ZB_PROGRAM_PATH_UNSAFE when a program directory or its home lies in a write scope, or holds one, or a link in it points into one: the agent could put programs there. */
export function refuseProgramDirectoriesInWriteScopes(directories: readonly ProgramDirectory[], writeRoots: readonly string[]): void {
  for (const { directory, home } of directories) {
    for (const bound of home === undefined ? [directory] : [directory, home]) {
      const root = writeRoots.find((scope) => isInsideRoot(bound, scope) || isInsideRoot(scope, bound));
      if (root !== undefined) throw unsafe(directory, `${bound === directory ? 'it' : `its toolchain home ${bound}`} overlaps the write scope ${root} of this run, where the agent could put programs`);
    }
  }
  programDirectoryBinds(directories, writeRoots); // and no link in one points into a write scope (each sandbox checks again)
}

/** The search path in force: the program directories in the user's order, then the fixed one. */
export function searchPathWith(directories: readonly ProgramDirectory[]): readonly string[] {
  return directories.length === 0 ? COMMAND_SEARCH_PATH : [...directories.map(({ directory }) => directory), ...COMMAND_SEARCH_PATH];
}

/** Where a program may be written as an absolute path: the fixed directories and the program directories. */
export function trustedDirectoriesWith(directories: readonly ProgramDirectory[]): readonly string[] {
  return directories.length === 0 ? TRUSTED_PROGRAM_DIRECTORIES : [...directories.map(({ directory }) => directory), ...TRUSTED_PROGRAM_DIRECTORIES];
}

/**
 * What the sandbox binds read-only for the program directories, as the directory is now: each home (else the
 * directory), and the canonical target of each symlink in a directory unless already visible (in a bound home or
 * directory, or the system). A target in a write scope is refused (ZB_PROGRAM_PATH_UNSAFE): the agent could change
 * what the program is.
 */
export function programDirectoryBinds(directories: readonly ProgramDirectory[], writeRoots: readonly string[]): string[] {
  const binds = directories.map(({ directory, home }) => home ?? directory);
  const visible = (target: string) => binds.some((bound) => isInsideRoot(target, bound)) || SYSTEM_TOPS.some((top) => isInsideRoot(target, top));
  for (const { directory } of directories) {
    let names: string[];
    try {
      names = readdirSync(directory);
    } catch (cause) {
      throw unsafe(directory, `it cannot be listed (${(cause as NodeJS.ErrnoException).code ?? String(cause)})`);
    }
    for (const name of names.sort()) {
      const entry = path.join(directory, name);
      if (!lstatSync(entry, { throwIfNoEntry: false })?.isSymbolicLink()) continue;
      let target: string;
      try {
        target = realpathSync.native(entry);
      } catch {
        // Dangling: nothing to bind, but its target may be made later, and the name then runs it: where it would be
        // made must not be a write scope (adv27b). A link that cannot be resolved even so is refused.
        const landing = resolveCanonicalPath(entry, { withStats: true });
        if (!landing.ok) throw unsafe(directory, `${entry} is a link that cannot be resolved (${landing.reason})`);
        const root = writeRoots.find((scope) => isInsideRoot(landing.path, scope));
        if (root !== undefined) throw unsafe(directory, `${entry} points to ${landing.path}, not there yet but inside the write scope ${root} of this run, where the agent could make it`);
        continue;
      }
      const root = writeRoots.find((scope) => isInsideRoot(target, scope));
      if (root !== undefined) throw unsafe(directory, `${entry} points to ${target}, inside the write scope ${root} of this run`);
      if (!visible(target)) binds.push(target);
    }
  }
  return [...new Set(binds)];
}
