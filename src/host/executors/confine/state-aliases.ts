// Where else the zotbox state directory shows (issue 21 review: the mask lands on
// identity, not on a path). A bind mount shows a directory of a file system at a
// second place: the state directory, or a directory above or inside it, can be
// mounted inside a scope (a home mounted into a project tree, a container's host
// mount), and a mask over the state directory's own path leaves that second place
// open. The kernel's mount table names, for each mount, its device and the
// directory of that file system it shows (the "root" field of mountinfo); every
// mount of the state directory's device whose root holds the state directory, or
// lies inside it, shows it (or a part of it) at a path of its own. The sandbox
// masks each such path that a bind brings in (sandbox-plan.ts); a path that cannot
// be masked refuses the command.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { isInsideRoot } from '../../../policy/scopes.js';

/** One more place the state directory shows. */
export interface StateAlias {
  /** The path at which it shows (a mount point, or a path below one). */
  readonly path: string;
  /** True when the mount shows only a part of the state directory (its root lies inside it): `path` is that mount's point. */
  readonly part: boolean;
}

interface MountRow {
  readonly device: string;
  readonly root: string;
  readonly mountPoint: string;
}

/** mountinfo escapes space, tab, newline and backslash as \ooo. */
function unescape(field: string): string {
  return field.replace(/\\([0-7]{3})/gu, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
}

function parseRows(text: string): MountRow[] {
  const rows: MountRow[] = [];
  for (const line of text.split('\n')) {
    const [, , device, root, mountPoint] = line.split(' ');
    if (device === undefined || root === undefined || mountPoint === undefined) continue;
    rows.push({ device, root: unescape(root), mountPoint: unescape(mountPoint) });
  }
  return rows;
}

/** "major:minor" as mountinfo writes it, from a stat's st_dev (glibc's encoding of dev_t). */
function deviceName(dev: bigint): string {
  const major = ((dev >> 8n) & 0xfffn) | ((dev >> 32n) & ~0xfffn);
  const minor = (dev & 0xffn) | ((dev >> 12n) & ~0xffn);
  return `${major}:${minor}`;
}

function below(root: string, relative: string): string {
  return relative === '' ? root : path.join(root, relative);
}

/**
 * Every other path at which the canonical `stateDirectory` shows in this process's mount namespace. Throws when the
 * mount table cannot be read or does not hold the state directory's own mount (fail closed: "cannot read" is not
 * "nowhere else"). `mountInfo` is a test seam (the text of /proc/self/mountinfo); production passes none.
 */
export function stateDirectoryAliases(stateDirectory: string, mountInfo?: string): StateAlias[] {
  const stats = statSync(stateDirectory, { bigint: true, throwIfNoEntry: false });
  if (stats === undefined) return []; // not made yet: it shows nowhere
  const device = deviceName(stats.dev);
  const rows = parseRows(mountInfo ?? readFileSync('/proc/self/mountinfo', 'utf8')).filter((row) => row.device === device);
  // The state directory's own mount: the deepest mount point above it on its device (the last of equals is on top).
  let own: MountRow | undefined;
  for (const row of rows) if (isInsideRoot(stateDirectory, row.mountPoint) && (own === undefined || row.mountPoint.length >= own.mountPoint.length)) own = row;
  if (own === undefined) throw new Error(`the mount table names no mount of device ${device} above ${stateDirectory}`);
  // Where the state directory lies in its file system.
  const inFileSystem = below(own.root, path.relative(own.mountPoint, stateDirectory));
  const aliases = new Map<string, StateAlias>();
  for (const row of rows) {
    let alias: StateAlias | undefined;
    if (isInsideRoot(inFileSystem, row.root)) alias = { path: below(row.mountPoint, path.relative(row.root, inFileSystem)), part: false };
    else if (isInsideRoot(row.root, inFileSystem)) alias = { path: row.mountPoint, part: true };
    if (alias !== undefined && alias.path !== stateDirectory && !aliases.has(alias.path)) aliases.set(alias.path, alias);
  }
  return [...aliases.values()];
}

/** What the walks of the write scopes skip: the state directory and every other place it shows (none without one). */
export function stateDirectoryPlaces(stateDirectory: string | undefined): string[] {
  return stateDirectory === undefined ? [] : [stateDirectory, ...stateDirectoryAliases(stateDirectory).map((alias) => alias.path)];
}
