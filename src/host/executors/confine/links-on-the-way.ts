// A protected path reached through a linked directory (an npm workspace bin `node_modules/@acme/lint/bin/lint.js`
// where `node_modules/@acme/lint -> ../../packages/lint`, a store-linked package) is recorded where it lies: each link
// on the way as the link it is, and the path the links lead to. Recorded through the link, the after-call comparison
// (protected-locations.ts), which acts through no link, reported every such path as changed after any call. Closed
// world: a way zotbox cannot follow (a loop, a link it cannot read) leaves the path as written, which that comparison
// reports as changed (never "nothing to protect").
import { lstatSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { MAX_SYMLINK_HOPS } from '../../../policy/path-resolve.js';
import type { ControlLocation } from '../../../policy/protected-files.js';
import { isInsideRoot } from '../../../policy/scopes.js';

export interface PlacedPath {
  /** The path with every link in its parent directories followed; its last component as written (a link stays one). */
  readonly path: string;
  /** The links on the way, each at the path it was met (its parent directories followed too), in the order met. */
  readonly links: readonly string[];
}

/**
 * Where the directory `directory` (absolute, normalized) lies, and the links met on the way, as the kernel walks it:
 * component by component, a link's target spliced in where the link was, ".." applied to the directory reached so
 * far. Below a missing name or a file only plain names follow. Undefined when a link cannot be read or the way holds
 * more than MAX_SYMLINK_HOPS links.
 */
export function placeDirectory(directory: string): PlacedPath | undefined {
  const pending = directory.split('/').filter((name) => name !== '');
  const links: string[] = [];
  let at = '/';
  while (pending.length > 0) {
    const name = pending.shift()!;
    if (name === '.') continue;
    if (name === '..') {
      at = path.dirname(at);
      continue;
    }
    const next = path.join(at, name);
    let stats;
    try {
      stats = lstatSync(next, { throwIfNoEntry: false });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOTDIR') return undefined;
      stats = undefined; // a file on the way: nothing lies below it, so the rest is plain names
    }
    if (stats?.isSymbolicLink() !== true) {
      at = next;
      if (stats?.isDirectory() === true) continue;
      // Below a missing name or a file: plain names only (".." there is what a directory made later decides).
      const rest = pending.filter((part) => part !== '.');
      return rest.includes('..') ? undefined : { path: path.join(at, ...rest), links };
    }
    if (links.length >= MAX_SYMLINK_HOPS) return undefined;
    links.push(next);
    let target: string;
    try {
      target = readlinkSync(next);
    } catch {
      return undefined; // a link zotbox cannot read: where the path lies is not known
    }
    if (target.startsWith('/')) at = '/';
    pending.unshift(...target.split('/').filter((part) => part !== ''));
  }
  return { path: at, links };
}

/** Memoized placement of protected paths, and the locations they stand for, inside `writeRoots`. */
export class LinkPlacement {
  private readonly directories = new Map<string, PlacedPath | undefined>();

  constructor(private readonly writeRoots: readonly string[]) {}

  /** `p` placed: undefined when no link on the way lies in the write scopes, or the way cannot be followed (kept as written). */
  place(p: string): PlacedPath | undefined {
    const directory = path.dirname(p);
    if (!this.directories.has(directory)) this.directories.set(directory, placeDirectory(directory));
    const placed = this.directories.get(directory);
    if (placed === undefined) return undefined;
    const links = placed.links.filter((link) => this.inScopes(link));
    return links.length === 0 ? undefined : { path: path.join(placed.path, path.basename(p)), links };
  }

  /**
   * What `location` stands for where it lies: the links on the way (each a link location) and the location at the
   * path they lead to, when that is in the write scopes (outside them no command can change it); else itself.
   */
  locations(location: ControlLocation): ControlLocation[] {
    const placed = this.place(location.path);
    if (placed === undefined) return [location];
    const why = `a link on the way to ${location.path}, which is ${location.reason}`;
    const links: ControlLocation[] = placed.links.map((link) => ({ path: link, tree: false, reason: why, asLink: true }));
    return this.inScopes(placed.path) ? [...links, { ...location, path: placed.path }] : links;
  }

  /** In a write scope, and neither a scope itself nor holding one (those are the agent's). */
  private inScopes(p: string): boolean {
    return this.writeRoots.some((root) => isInsideRoot(p, root)) && !this.writeRoots.some((root) => isInsideRoot(root, p));
  }
}
