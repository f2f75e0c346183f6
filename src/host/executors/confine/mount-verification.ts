// Verifies, before a confined command starts, that every mount of its sandbox
// landed where zotbox meant it and holds what zotbox opened (issue 21 §1).
// bubblewrap mounts each bind at a destination path that it resolves later, in
// the new namespace, so a concurrent rename (another run's command) can move a
// bind or the state mask onto a decoy. The host looks into the namespace it
// built, through /proc/PID of the sandbox's init, and checks each mount by the
// kernel's own ids, never by a path alone: it walks the target inside the
// sandbox without following links, and then requires
//   - the object reached is the one zotbox opened (device and inode), or, for a
//     mask or special, the root of a mount of the expected file system type;
//   - the mount holding it (fdinfo mnt_id) is mounted exactly at the target
//     (mountinfo), directly on the directory the walk looked the name up in
//     (its parent mount id), read-only when it must be;
//   - below a bound host directory, the entry that mount covers is the object
//     zotbox meant (a bind over itself covers itself, the mask covers the state
//     directory): the same directory seen from the host, where nothing is
//     mounted, names that object under the target's name, and its change time
//     did not move while it was looked at. Identity at a path alone is not
//     enough: a mount that landed on a sibling decoy, with the two names then
//     swapped back, shows the right object at the right path while the real
//     one sits uncovered under the decoy's name.
// Everything here only reads; it never mounts, unmounts or writes.
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ZotboxError } from '../../../errors.js';

const O_PATH = 0o10000000;

/** One mount zotbox put into the sandbox, as it must be found there. */
export type MountExpectation =
  | {
      readonly kind: 'bind';
      /** Where it is mounted: the canonical path, the same inside the sandbox as on the host. */
      readonly target: string;
      readonly readOnly: boolean;
      /** The object zotbox opened and handed to bubblewrap (binds are over themselves: it is also what the mount covers). */
      readonly dev: number;
      readonly ino: number;
    }
  | {
      /** A file system bubblewrap makes (the state mask, /tmp, /dev, /proc). */
      readonly kind: 'fresh';
      readonly target: string;
      readonly fsType: 'tmpfs' | 'proc';
      readonly readOnly: boolean;
      /** For the state mask: the directory it must cover (the real state directory). */
      readonly covers?: { readonly dev: number; readonly ino: number };
    };

interface MountEntry {
  readonly id: number;
  readonly parent: number;
  readonly mountPoint: string;
  readonly readOnly: boolean;
  readonly fsType: string;
}

/** Test seam: production never passes one. */
export interface MountCheckProbe {
  /** After the host looked at the covered entry, before it walks the target in the sandbox. */
  readonly betweenLooks?: (target: string) => void;
}

export function mountMoved(target: string, what: string): ZotboxError {
  return new ZotboxError(
    'ZB_CONFINEMENT_MOUNT_MOVED',
    `command refused before it started: in its sandbox, ${target} ${what}. Something renamed or replaced a directory on that path while the sandbox was built (another command running in the same workspace can), so the protection zotbox checked did not land on it; the run was stopped. Stop the other runs or commands in this workspace, check ${target} and its parent directories (git status, ls -la), then start the run again.`,
    { details: { path: target } },
  );
}

/** mountinfo escapes space, tab, newline and backslash as \ooo. */
function unescape(field: string): string {
  return field.replace(/\\([0-7]{3})/gu, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
}

export function parseMountInfo(text: string): Map<number, MountEntry> {
  const entries = new Map<number, MountEntry>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const fields = line.split(' ');
    const separator = fields.indexOf('-');
    const [id, parent, , , mountPoint, options] = fields;
    const fsType = fields[separator + 1];
    if (separator < 6 || id === undefined || parent === undefined || mountPoint === undefined || options === undefined || fsType === undefined) continue;
    entries.set(Number(id), { id: Number(id), parent: Number(parent), mountPoint: unescape(mountPoint), readOnly: options.split(',').includes('ro'), fsType });
  }
  return entries;
}

/** The id of the mount an open descriptor lies in (as /proc/PID/mountinfo numbers mounts). */
function mountIdOf(fd: number): number {
  const found = /^mnt_id:\s*([0-9]+)$/mu.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'))?.[1];
  if (found === undefined) throw new Error(`no mnt_id in /proc/self/fdinfo/${fd}`);
  return Number(found);
}

/** Opens `name` in the directory `dirFd` without following a link (O_PATH); undefined when absent or unopenable. */
function openChild(dirFd: number, name: string): number | undefined {
  try {
    return openSync(`/proc/self/fd/${dirFd}/${name}`, O_PATH | constants.O_NOFOLLOW);
  } catch {
    return undefined; // gone, or not a directory on the way: the caller reports the path as moved
  }
}

function ctimeOf(fd: number): bigint {
  return fstatSync(fd, { bigint: true }).ctimeNs;
}

/**
 * Walks `target` from `rootFd` one name at a time, no link followed. Returns the
 * descriptors of the target and of the directory it was looked up in, or a
 * description of what is wrong; the caller closes what it gets.
 */
function walk(rootFd: number, target: string): { fd: number; parentFd: number } | { problem: string } {
  const names = target.split('/').filter((name) => name !== '');
  let parentFd = -1;
  let fd = openSync(`/proc/self/fd/${rootFd}`, O_PATH | constants.O_DIRECTORY);
  for (const name of names) {
    const next = openChild(fd, name);
    if (parentFd !== -1) closeSync(parentFd);
    parentFd = fd;
    if (next === undefined) {
      closeSync(parentFd);
      return { problem: `cannot be reached (${name} is missing or not a directory)` };
    }
    fd = next;
    if (fstatSync(fd).isSymbolicLink()) {
      closeSync(fd);
      closeSync(parentFd);
      return { problem: `is reached through a symlink (${name})` };
    }
  }
  return { fd, parentFd };
}

class SandboxView {
  readonly mounts: Map<number, MountEntry>;
  readonly rootFd: number;
  /** Mounts bubblewrap made from nothing (the sandbox's root, tmpfs and proc): nothing under them is on the host. */
  readonly fresh = new Set<number>();
  constructor(pid: number, rootIsBound: boolean) {
    this.mounts = parseMountInfo(readFileSync(`/proc/${pid}/mountinfo`, 'utf8'));
    this.rootFd = openSync(`/proc/${pid}/root`, O_PATH | constants.O_DIRECTORY);
    // The sandbox's root is bubblewrap's own tmpfs, unless a scope of "/" was bound over it.
    if (!rootIsBound) this.fresh.add(mountIdOf(this.rootFd));
  }
}

interface CoveredLook {
  readonly parentFd: number;
  readonly ctime: bigint;
  readonly entry: { readonly dev: number; readonly ino: number } | undefined;
}

/**
 * Below a bound host directory: the host's own view of the target's parent, where nothing of the sandbox is mounted,
 * and the entry it names there. Looked at before the sandbox walk; compared after it (coveredProblem).
 */
function lookFromHost(target: string): CoveredLook | undefined {
  let fd = openSync('/', O_PATH | constants.O_DIRECTORY);
  for (const name of path
    .dirname(target)
    .split('/')
    .filter((part) => part !== '')) {
    const next = openChild(fd, name);
    closeSync(fd);
    if (next === undefined) return undefined;
    fd = next;
  }
  const ctime = ctimeOf(fd);
  const entryFd = openChild(fd, path.basename(target));
  const entry = entryFd === undefined ? undefined : fstatSync(entryFd);
  if (entryFd !== undefined) closeSync(entryFd);
  return { parentFd: fd, ctime, entry };
}

/**
 * The sandbox walk looked the target's name up in `sandboxParentFd`: that must be the directory the host looked
 * into, the entry the host found under the name must be `covered`, and the directory's change time must not have
 * moved from the host's look to now (a rename in between is the one way to show the decoy to one look and the
 * real entry to the other).
 */
function coveredProblem(target: string, look: CoveredLook | undefined, sandboxParentFd: number, covered: { dev: number; ino: number }): string | undefined {
  if (look === undefined) return `cannot be looked at from the host (${path.dirname(target)} is missing or not a directory)`;
  const host = fstatSync(look.parentFd);
  const inSandbox = fstatSync(sandboxParentFd);
  if (host.dev !== inSandbox.dev || host.ino !== inSandbox.ino) return `does not lie in the directory ${path.dirname(target)} that zotbox checked`;
  if (look.entry === undefined || look.entry.dev !== covered.dev || look.entry.ino !== covered.ino)
    return 'is mounted over another directory or file than the one zotbox checked (a decoy had taken its name)';
  if (ctimeOf(look.parentFd) !== look.ctime) return `changed while it was verified (${path.dirname(target)} was modified)`;
  return undefined;
}

/** What is wrong with the mount at the walked target, by the kernel's ids; undefined when it is as expected. */
function mountProblem(view: SandboxView, expected: MountExpectation, fd: number, parentFd: number): string | undefined {
  const mountId = mountIdOf(fd);
  const mount = view.mounts.get(mountId);
  if (mount === undefined || mount.mountPoint !== expected.target) {
    return `is not the root of a mount there (what that path reaches belongs to the mount at ${mount?.mountPoint ?? 'an unknown place'})`;
  }
  if (parentFd !== -1) {
    // Under it may lie other mounts at the same place (a bound scope brings the host's own mounts with it, /proc under a scope of /).
    let under = view.mounts.get(mount.parent);
    while (under !== undefined && under.mountPoint === expected.target && under.id !== under.parent) under = view.mounts.get(under.parent);
    if (under?.id !== mountIdOf(parentFd)) return 'is mounted on another directory than the one its path leads through';
  }
  if (mount.readOnly !== expected.readOnly) return expected.readOnly ? 'is writable, but zotbox mounted it read-only' : 'is read-only, but zotbox mounted it writable';
  if (expected.kind === 'bind') {
    const stats = fstatSync(fd);
    if (stats.dev !== expected.dev || stats.ino !== expected.ino) return 'holds another directory or file than the one zotbox opened';
  } else {
    if (mount.fsType !== expected.fsType) return `is a ${mount.fsType} mount, not the ${expected.fsType} zotbox made there`;
    view.fresh.add(mountId);
  }
  return undefined;
}

function verifyOne(view: SandboxView, expected: MountExpectation, probe: MountCheckProbe | undefined): string | undefined {
  const covered = expected.kind === 'bind' ? { dev: expected.dev, ino: expected.ino } : expected.covers;
  // Whether the parent is a host directory is known only after the sandbox walk; the host looks first, so that the
  // change time it records spans both looks.
  const look = covered === undefined || expected.target === '/' ? undefined : lookFromHost(expected.target);
  try {
    probe?.betweenLooks?.(expected.target);
    const reached = walk(view.rootFd, expected.target);
    if ('problem' in reached) return reached.problem;
    const { fd, parentFd } = reached;
    try {
      const problem = mountProblem(view, expected, fd, parentFd);
      if (problem !== undefined || covered === undefined || parentFd === -1) return problem;
      // Under a mount bubblewrap made from nothing, the parent is no host directory and covers nothing of the host.
      if (view.fresh.has(mountIdOf(parentFd))) return undefined;
      return coveredProblem(expected.target, look, parentFd, covered);
    } finally {
      closeSync(fd);
      if (parentFd !== -1) closeSync(parentFd);
    }
  } finally {
    if (look !== undefined) closeSync(look.parentFd);
  }
}

/**
 * Checks every expected mount in the sandbox whose init has host pid `pid`, in
 * the order given (outer mounts first). Throws ZB_CONFINEMENT_MOUNT_MOVED at the
 * first that is not as expected; a sandbox that cannot be looked into counts as
 * one that failed.
 */
export function verifySandboxMounts(pid: number, expectations: readonly MountExpectation[], probe?: MountCheckProbe): void {
  let view: SandboxView;
  try {
    view = new SandboxView(
      pid,
      expectations.some((expected) => expected.kind === 'bind' && expected.target === '/'),
    );
  } catch (cause) {
    throw mountMoved('/', `could not be inspected from the host (${(cause as NodeJS.ErrnoException).code ?? String(cause)})`);
  }
  try {
    for (const expected of expectations) {
      const problem = verifyOne(view, expected, probe);
      if (problem !== undefined) throw mountMoved(expected.target, problem);
    }
  } finally {
    closeSync(view.rootFd);
  }
}
