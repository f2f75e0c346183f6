// The packages of a JavaScript workspace, as npm, yarn and pnpm list them for `pnpm -r exec NAME`, `npm exec -w x -- NAME`,
// `yarn workspace x NAME`: the globs of the nearest root's package.json `workspaces` (an array, or `{packages: [...]}`)
// and pnpm-workspace.yaml `packages:`, matched against the directories there now. Closed world: every file examined on
// the way is named (it decides what runs: protected); a glob form outside the subset read here, a file zotbox cannot
// read, or no root at all is a reason, never an empty list. Matches are a superset (a directory without a package.json
// counts, the root too); exclusions are applied only where they match no more than the tools' do.

import { lstatSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import { OVERSIZED, readSmallFile } from './git-inventory.js';

// yaml is loaded when a pnpm-workspace.yaml is first read (its CommonJS build): a command that reads none, and the
// CLI's `check`, never load it.
const require = createRequire(import.meta.url);

export interface WorkspacePackages {
  /** Each package directory (absolute), the root first. */
  readonly directories: readonly string[];
  /** Every workspace file examined, there or not (absolute): what decides the packages. */
  readonly files: readonly string[];
  /** A glob with a pattern (`packages/*`): a directory made later is a package too, with a node_modules/.bin of its own. */
  readonly open: boolean;
}

/** Directories a workspace's globs may match at most: past it, the workspace is not read. */
const MAX_PACKAGES = 256;
/** One glob segment of the subset read: a name, with `*` for any characters of one name; or `**`, any depth. */
const SEGMENT = /^(?:\*\*|[\w@.+*-]+)$/u;

/** The globs a workspace file lists, or why they cannot be read; undefined where the file holds no workspace. */
function workspaceGlobs(file: string): string[] | string | undefined {
  const text = readSmallFile(file);
  if (text === undefined) return lstatSync(file, { throwIfNoEntry: false }) === undefined ? undefined : 'zotbox cannot read it (a link, or no file)';
  if (text === OVERSIZED) return 'it is larger than zotbox reads';
  let parsed: unknown;
  try {
    parsed = file.endsWith('.json') ? JSON.parse(text) : (require('yaml') as typeof Yaml).parse(text);
  } catch {
    return 'zotbox cannot parse it';
  }
  if (file.endsWith('.json')) {
    const json = parsed as Record<string, unknown> | null;
    if (typeof json !== 'object' || json === null || Array.isArray(json)) return 'it is no JSON object';
    if (!Object.hasOwn(json, 'workspaces')) return undefined;
    const field = json.workspaces;
    parsed = Array.isArray(field) ? { packages: field } : field;
  }
  // No `packages` list: pnpm then takes every directory of the tree (not read here).
  const packages = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>).packages : undefined;
  return Array.isArray(packages) && packages.every((glob) => typeof glob === 'string') ? packages : 'its packages are no list of strings';
}

/** A glob's segments, or undefined outside the subset read (`?`, `[...]`, `{a,b}`, `..`, an absolute path). */
function segmentsOf(glob: string): string[] | undefined {
  const segments = glob
    .replace(/^\.\//u, '')
    .replace(/\/+$/u, '')
    .split('/')
    .filter((segment) => segment !== '.');
  return glob !== '' && !glob.startsWith('/') && segments.every((segment) => SEGMENT.test(segment) && segment !== '..') ? segments : undefined;
}

/** Whether `name` matches one segment; `dot`: whether `*` matches a leading dot (yes for the superset, no for exclusions). */
function segmentMatches(segment: string, name: string, dot: boolean): boolean {
  if (!segment.includes('*')) return segment === name;
  if (!dot && name.startsWith('.')) return false;
  return new RegExp(`^${segment.replace(/[.+]/gu, '\\$&').replaceAll('*', '.*')}$`, 'u').test(name);
}

/** Whether `relative` (segments) matches `glob` (segments). */
function globMatches(glob: readonly string[], relative: readonly string[], dot: boolean): boolean {
  if (glob.length === 0) return relative.length === 0;
  if (glob[0] === '**') return globMatches(glob.slice(1), relative, dot) || (relative.length > 0 && (dot || !relative[0]!.startsWith('.')) && globMatches(glob, relative.slice(1), dot));
  return relative.length > 0 && segmentMatches(glob[0]!, relative[0]!, dot) && globMatches(glob.slice(1), relative.slice(1), dot);
}

/** Every directory below `root` (relative segments) a glob may match, never node_modules (the tools skip it); undefined past MAX_PACKAGES. */
function candidateDirectories(root: string, globs: readonly (readonly string[])[]): string[][] | undefined {
  const found: string[][] = [];
  const walk = (relative: string[], seen: Set<string>): boolean => {
    let entries: string[];
    try {
      entries = readdirSync(path.join(root, ...relative));
    } catch {
      return true; // no directory there (a name below a file): nothing to match
    }
    for (const name of entries) {
      if (name === 'node_modules') continue;
      const next = [...relative, name];
      // Could some glob match this directory or one below it?
      if (!globs.some((glob) => couldReach(glob, next))) continue;
      const stats = statSync(path.join(root, ...next), { throwIfNoEntry: false });
      if (stats?.isDirectory() !== true) continue;
      const key = `${stats.dev}:${stats.ino}`;
      if (seen.has(key)) continue; // a linked directory loop: its directories are listed already
      found.push(next);
      if (found.length > MAX_PACKAGES || !walk(next, new Set([...seen, key]))) return false;
    }
    return true;
  };
  return walk([], new Set()) ? found : undefined;
}

/** Whether `glob` may match `relative` or a directory below it. */
function couldReach(glob: readonly string[], relative: readonly string[]): boolean {
  for (const [index, name] of relative.entries()) {
    const segment = glob[index];
    if (segment === undefined) return false;
    if (segment === '**') return true;
    if (!segmentMatches(segment, name, true)) return false;
  }
  return true;
}

/** The packages of the glob list of `root`, or why they cannot be listed. */
function packagesOf(root: string, globs: readonly string[]): string[] | string {
  const parsed = globs.map((glob) => ({ negated: glob.startsWith('!'), segments: segmentsOf(glob.replace(/^!/u, '')) }));
  const unread = globs.find((_, index) => parsed[index]!.segments === undefined);
  if (unread !== undefined) return `its glob ${JSON.stringify(unread)} is a form zotbox does not read`;
  const includes = parsed.filter((glob) => !glob.negated).map((glob) => glob.segments!);
  const excludes = parsed.filter((glob) => glob.negated).map((glob) => glob.segments!);
  const candidates = candidateDirectories(root, includes);
  if (candidates === undefined) return `its globs match more than ${MAX_PACKAGES} directories`;
  return candidates
    .filter((relative) => includes.some((glob) => globMatches(glob, relative, true)) && !excludes.some((glob) => globMatches(glob, relative, false)))
    .map((relative) => path.join(root, ...relative));
}

/**
 * The workspace packages a runner started in `directory` runs in: the nearest directory at or above it whose
 * package.json has `workspaces` or that holds pnpm-workspace.yaml is the root. `{reason}` where they cannot be listed.
 */
export function workspacePackages(directory: string): WorkspacePackages | { readonly reason: string; readonly files: readonly string[] } {
  const files: string[] = [];
  for (let at = path.resolve(directory); ; at = path.dirname(at)) {
    const globs: string[] = [];
    let isRoot = false;
    for (const file of [path.join(at, 'package.json'), path.join(at, 'pnpm-workspace.yaml')]) {
      files.push(file);
      const listed = workspaceGlobs(file);
      if (typeof listed === 'string') return { reason: `${file}: ${listed}`, files };
      if (listed !== undefined) {
        isRoot = true;
        globs.push(...listed);
      }
    }
    if (isRoot) {
      const packages = packagesOf(at, globs);
      if (typeof packages === 'string') return { reason: `${at}: ${packages}`, files };
      const open = globs.some((glob) => !glob.startsWith('!') && glob.includes('*'));
      return { directories: [at, ...packages], files, open };
    }
    if (path.dirname(at) === at) return { reason: `no workspace root (a package.json with "workspaces", a pnpm-workspace.yaml) at or above ${directory}`, files };
  }
}

/**
 * The packages a workspace selector value picks (`--filter ./packages/a`, `-w packages/a`): those at or below the path it
 * names, relative to `from`. A name, a pattern, or a path no package lies at picks them all (more places, never fewer).
 */
export function selectedPackages(packages: readonly string[], values: readonly string[], from: string): string[] {
  return pathSelectedPackages(packages, values, from) ?? [...packages];
}

/** The packages selector values pick by path alone (selectedPackages); undefined where they may pick every package. */
export function pathSelectedPackages(packages: readonly string[], values: readonly string[], from: string): string[] | undefined {
  if (values.length === 0) return undefined;
  const selected = new Set<string>();
  for (const value of values) {
    const isPath = /^\.{0,2}\//u.test(value) || (value.includes('/') && !value.startsWith('@'));
    const target = isPath && !/[*?[\]{}!^]|\.\.\./u.test(value) ? path.resolve(from, value) : undefined;
    const picked = target === undefined ? [] : packages.filter((each) => each === target || each.startsWith(`${target}${path.sep}`));
    if (picked.length === 0) return undefined;
    for (const each of picked) selected.add(each);
  }
  return [...selected];
}
