// What a link inside a protected place leads to is as protected as the link (s36j review): a versioned hook is
// installed as `.git/hooks/pre-commit -> ../../scripts/pre-commit.sh`, a direnv file as `.envrc -> scripts/env.sh`;
// git and direnv run the target, so protecting the link's own name leaves what runs writable. Every link in a
// protected tree or at a protected path is followed hop by hop, and each hop in the write scopes (the next link as
// written, and where it resolves) becomes a control location: a file as itself, a directory, or a target that does not
// exist yet, whole. A directory reached through a link is walked for its links too. Closed world: a link zotbox cannot
// read or resolve, or a tree too large to walk, is unresolved and refuses every writer (never "nothing to protect").
import { lstatSync, readdirSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { MAX_SYMLINK_HOPS, resolveCanonicalPath } from '../../../policy/path-resolve.js';
import type { ControlLocation } from '../../../policy/protected-files.js';
import { isInsideRoot } from '../../../policy/scopes.js';

/** Entries walked per call at most (the same bound as what protected-locations.ts records): past it, unresolved. */
const MAX_ENTRIES = 20_000;

/** A protected place to walk for links, and why it is protected (the reason of what a link there leads to names it). */
export interface LinkRoot {
  readonly path: string;
  readonly reason: string;
}

export interface LinkTargets {
  readonly locations: readonly ControlLocation[];
  /** Links zotbox cannot follow, or trees it cannot walk: non-empty refuses every writer. */
  readonly unresolved: readonly string[];
}

/**
 * The control locations the links in and at `roots` lead to, inside the write scopes and granted by none (a scope that
 * names the path or lies inside it grants it). `skip` names directories not walked (git's object store: its own rules).
 */
export function linkTargets(roots: readonly LinkRoot[], writeRoots: readonly string[], skip: (directory: string) => boolean): LinkTargets {
  const found = new Map<string, ControlLocation>();
  const unresolved: string[] = [];
  const walked = new Set<string>();
  const budget = { left: MAX_ENTRIES };
  const protect = (p: string, tree: boolean, reason: string) => {
    if (!writeRoots.some((root) => isInsideRoot(p, root)) || writeRoots.some((root) => isInsideRoot(root, p))) return;
    const known = found.get(p);
    if (known === undefined || (tree && !known.tree)) found.set(p, { path: p, tree, reason });
  };
  const walk = (p: string, reason: string) => {
    // A write scope is the agent's: what it holds is not walked (a link to the workspace's top, `.vscode/ws -> ..`).
    if (walked.has(p) || skip(p) || writeRoots.includes(p)) return;
    walked.add(p);
    if (budget.left-- <= 0) {
      unresolved.push(`${p}: the protected places hold more entries than zotbox walks for links (${MAX_ENTRIES})`);
      return;
    }
    let stats;
    try {
      stats = lstatSync(p, { throwIfNoEntry: false });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return; // a file on the way: nothing there
      unresolved.push(`${p} cannot be examined (${(error as NodeJS.ErrnoException).code ?? 'error'}), and a link there would run what it leads to`);
      return;
    }
    if (stats?.isSymbolicLink() === true) return follow(p, reason);
    if (stats?.isDirectory() !== true) return;
    let names: string[];
    try {
      names = readdirSync(p);
    } catch (error) {
      unresolved.push(`${p} cannot be listed (${(error as NodeJS.ErrnoException).code ?? 'error'}), and a link in it would run what it leads to`);
      return;
    }
    for (const name of names) walk(path.join(p, name), reason);
  };
  // Each hop of the chain: the next path as the link spells it, and where it resolves (a linked directory on the way).
  const follow = (link: string, reason: string) => {
    let at = link;
    for (let hop = 0; hop <= MAX_SYMLINK_HOPS; hop++) {
      let written: string;
      try {
        written = path.resolve(path.dirname(at), readlinkSync(at));
      } catch (error) {
        unresolved.push(`the link ${at} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}), and what it leads to runs as ${reason}`);
        return;
      }
      const why = `where the link ${link} leads, which is ${reason}; what is written there runs through the link`;
      const resolved = resolveCanonicalPath(written);
      if (!resolved.ok) {
        unresolved.push(`the link ${at} leads to ${written}, which zotbox cannot resolve (${resolved.reason}), and what is there runs as ${reason}`);
        return;
      }
      // A target that is not there yet is protected whole: whoever makes it, the tool runs it.
      const directory = !resolved.exists || lstatSync(resolved.path, { throwIfNoEntry: false })?.isDirectory() === true;
      for (const p of new Set([written, resolved.path])) protect(p, directory, why);
      let next;
      try {
        next = lstatSync(written, { throwIfNoEntry: false });
      } catch {
        next = undefined; // a parent that is no directory: the resolved path above is what exists
      }
      if (next?.isSymbolicLink() !== true) {
        // A directory that holds a write scope (the project's top) is not walked: its tool entries are read as those above the scopes.
        if (directory && resolved.exists && !writeRoots.some((root) => isInsideRoot(root, resolved.path))) walk(resolved.path, `inside ${resolved.path}, ${why}`);
        return;
      }
      at = written;
    }
    unresolved.push(`the link ${link} leads through more than ${MAX_SYMLINK_HOPS} links, and what it leads to runs as ${reason}`);
  };
  for (const root of roots) walk(root.path, root.reason);
  return { locations: [...found.values()], unresolved };
}
