// Whether the agent could change the file a program name runs (adv27b, adv27c). Not
// only where the file finally is: every path the lookup passes through on the way
// (a link to a link in the workspace that now points elsewhere is the agent's to
// repoint), a link that dangles into a write scope (the agent makes its target),
// and a file that has other names (a hard link: pnpm's store links one file into a
// global install and into every project's node_modules), whose bytes the agent can
// rewrite through a name inside a write scope.
import { accessSync, constants, lstatSync, readlinkSync, statSync } from 'node:fs';
import path from 'node:path';
import { isInsideRoot, type ScopeRoot } from './scopes.js';

/** Why a program file could be changed by the agent, and through which write scope. */
export interface ChangeablePath {
  /** The write scope it reaches; absent when it cannot be told (the file cannot be read, too many links). */
  readonly scope?: ScopeRoot;
  /** What the looked-up path is, as the end of a sentence that starts with it ("is a link leading to ..."). */
  readonly why: string;
}

/**
 * Directories whose files the distribution's package manager installs (and may hard-link among themselves, as
 * this machine's image does for node, dash and true): their other names are not taken to be in a write scope.
 */
export const DISTRIBUTION_DIRECTORIES: readonly string[] = ['/usr/bin', '/usr/sbin', '/usr/lib', '/usr/libexec'];

/** The kernel's limit on links followed in one lookup. */
const MAX_HOPS = 40;

/**
 * Walks `file` component by component as the kernel does, following links, and returns the first path it
 * visits inside a write scope (or why it cannot be walked: that fails closed). Undefined when the walk ends
 * on the canonical file with no visited path in a write scope.
 */
function scopeOnTheWay(file: string, writeRoots: readonly ScopeRoot[]): ChangeablePath | { readonly canonical: string } {
  // The walk is the kernel's lookup written out, so that each path on the way can be compared with the scopes.
  let pending = file.split('/').filter((part) => part !== '');
  let current = '/';
  let hops = 0;
  const what = (next: string, scope: ScopeRoot) =>
    hops === 0 ? `is inside the write scope ${scope.declared} of this run` : `is a link leading to ${next}, inside the write scope ${scope.declared} of this run`;
  while (pending.length > 0) {
    const [name, ...rest] = pending;
    pending = rest;
    if (name === '.') continue;
    const next = name === '..' ? path.dirname(current) : path.join(current, name as string);
    const scope = writeRoots.find(({ root }) => isInsideRoot(next, root));
    if (scope !== undefined) return { scope, why: what(path.join(next, ...pending), scope) };
    const stats = lstatSync(next, { throwIfNoEntry: false });
    // Missing: the scopes were compared on the way, so nothing here is in one, and the agent cannot make it.
    if (stats === undefined) return { canonical: path.join(next, ...pending) };
    if (!stats.isSymbolicLink()) {
      current = next;
      continue;
    }
    hops += 1;
    if (hops > MAX_HOPS) return { why: `is a chain of more than ${MAX_HOPS} links` };
    const target = readlinkSync(next);
    pending = [...target.split('/').filter((part) => part !== ''), ...pending];
    if (target.startsWith('/')) current = '/';
  }
  return { canonical: current };
}

/** The device of a write scope: its root's, or its nearest existing parent's. */
function deviceOf(root: string): number | undefined {
  for (let directory = root; ; directory = path.dirname(directory)) {
    const stats = statSync(directory, { throwIfNoEntry: false });
    if (stats !== undefined) return stats.dev;
    if (directory === '/') return undefined;
  }
}

function writableByUs(file: string): boolean {
  try {
    accessSync(file, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** A file with other names on a write scope's device that this process may write: one of its names may be in the scope. */
function sharedInode(canonical: string, writeRoots: readonly ScopeRoot[]): ChangeablePath | undefined {
  if (DISTRIBUTION_DIRECTORIES.some((directory) => isInsideRoot(canonical, directory))) return undefined;
  const stats = statSync(canonical, { throwIfNoEntry: false });
  if (stats === undefined || !stats.isFile() || stats.nlink < 2 || !writableByUs(canonical)) return undefined;
  const scope = writeRoots.find(({ root }) => deviceOf(root) === stats.dev);
  if (scope === undefined) return undefined;
  return { scope, why: `is the file ${canonical}, which has ${stats.nlink} names (hard links) on the device of the write scope ${scope.declared} of this run, and one may be inside it` };
}

/** Why the agent could change what `file` (an absolute path as it is looked up) runs, or undefined. Never throws: what cannot be read is changeable. */
export function changeableProgram(file: string, writeRoots: readonly ScopeRoot[]): ChangeablePath | undefined {
  if (writeRoots.length === 0) return undefined;
  try {
    const walked = scopeOnTheWay(file, writeRoots);
    if ('why' in walked) return walked;
    return sharedInode(walked.canonical, writeRoots);
  } catch (cause) {
    return { why: `cannot be read (${(cause as NodeJS.ErrnoException).code ?? String(cause)}), so it is not known to be outside the write scopes` };
  }
}
