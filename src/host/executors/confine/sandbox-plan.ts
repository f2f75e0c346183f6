// Builds one command's bubblewrap sandbox from the filesystem as it is now
// (issue 9 §2, gate-rules §7): no capabilities, an unprivileged uid in a user
// namespace, no_new_privs (bwrap always sets it), no network, a PID namespace
// that dies with the command, the system read-only, /proc read-only, a private
// /tmp and HOME, bubblewrap's own root and /dev read-only once everything is
// mounted (only /tmp and /dev/shm, each its own tmpfs, are writable places the
// sandbox makes, so a reused sandbox has only those to empty), and the scopes bound by descriptor after a walk that follows no
// link. The zotbox state directory is masked wherever a scope contains it, and
// every git control entry in the write scopes is bound read-only over itself.
// Each mount is also recorded as a MountExpectation (what it must hold, where,
// read-only or not), which command-isolation.ts has verified inside the built
// namespace before the command starts (mount-verification.ts).
import { closeSync, fstatSync, statSync } from 'node:fs';
import { ZotboxError } from '../../../errors.js';
import { isInsideRoot } from '../../../policy/scopes.js';
import type { GitDriverNames } from '../command-environment.js';
import { gitDriversOf, scanGitMetadata, type GitInventory } from './git-inventory.js';
import { mountMoved, type MountExpectation } from './mount-verification.js';
import type { UserGitEnvironment } from './control-locations.js';
import { openPathWithoutLinks } from './no-follow-open.js';
import { programDirectoryBinds, type ProgramDirectory } from '../program-directories.js';
import { protectedSetOf, readOnlyBinds, type ProtectedSet } from './protected-locations.js';
import { stateDirectoryAliases, type StateAlias } from './state-aliases.js';
import type { CopiedSourceStat } from './plan-identity.js';
import { closeSystemMounts, copiedSourceStats, reopenCopies, systemMounts, systemMountTargets, type SystemMounts } from './system-mounts.js';
import path from 'node:path';
import { DROPPED_PRIVILEGES } from './dropped-privileges.js';
import { undecodableRefusal } from './undecodable-names.js';

export interface SandboxLayout {
  readonly readRoots: readonly string[];
  readonly writeRoots: readonly string[];
  /** Canonical; masked inside every bound root that contains it. */
  readonly stateDirectory?: string;
  /** Canonical; the only part of the state directory a scope may bind. */
  readonly agentData?: string;
  /** Where the user's own git reads its global and system config (what it names is protected); none read when absent. */
  readonly userGit?: UserGitEnvironment;
  /** The agent's package, mounted read-only at /zotbox/<tree> from a private extraction (image-files.ts); none when absent. */
  readonly image?: { mounts(): readonly { readonly source: string; readonly target: string }[] };
  /** The user's program directories (program-directories.ts): each bound read-only with its toolchain home and its links' targets. */
  readonly programDirectories?: readonly ProgramDirectory[];
}

/**
 * The sandbox's own writable places. A read scope of exactly one of them is not bound there: a read-only bind over
 * the place would leave commands no writable /tmp (nor HOME) or /dev/shm. Commands see the sandbox's own place; the
 * read tool still reads the user's. A scope below one (`/tmp/project`) is bound as any other.
 */
const OWN_PLACES: readonly string[] = ['/tmp', '/dev/shm'];

/** Inside the sandbox: the command's private, empty home (on its private /tmp). */
export const SANDBOX_HOME = '/tmp/home';
/** The child's fd 3 is the start channel (command-isolation.ts); bind sources follow from fd 4. */
export const START_CHANNEL_FD = 3;
const FIRST_BIND_FD = 4;

export interface PreparedSandbox {
  /** bwrap's arguments up to, not including, "--chdir DIR -- PROGRAM ARGS". */
  readonly args: readonly string[];
  /** Descriptors the child gets as fd 4, 5, …, in this order (the args name them so); fd 3 is the start channel. */
  readonly fds: readonly number[];
  /** `fds` for one spawn: the first gets them, each later one the same with new descriptors of the files copied into /etc. */
  descriptors(): readonly number[];
  /** Every mount of the scopes, the git protections, the state mask and the specials, outer ones first. */
  readonly expectations: readonly MountExpectation[];
  /** The stat of each host file copied into /etc (plan-identity.ts: a change there must not leave a reused copy stale). */
  copiedSources(): readonly CopiedSourceStat[];
  readonly inventory: GitInventory;
  /** What the user's tools run (protected-locations.ts): bound read-only here, put back after the call. */
  readonly protectedSet: ProtectedSet;
  readonly drivers: GitDriverNames;
  /** Before each spawn: every mount point below an agent-writable bind is still the same kind of thing, reached without links. */
  verifyMountPoints(): void;
  close(): void;
}

/**
 * No --new-session: commands get no terminal (stdin is closed, output goes to pipes), so there is none to inject
 * into, and the sandbox stays in bubblewrap's process group, which a timeout kills whole, even mid-setup.
 */
const BASE_ARGUMENTS = [...DROPPED_PRIVILEGES, '--unshare-pid', '--unshare-net', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try', '--die-with-parent'];

function depth(p: string): number {
  return p === '/' ? 0 : p.split('/').length;
}

function unsafe(where: string, why: string): ZotboxError {
  return new ZotboxError(
    'ZB_CONFINEMENT_BIND_UNSAFE',
    `command refused: ${where} ${why}, so zotbox cannot protect it inside the sandbox. Replace it with a real directory or file (or remove it), then retry.`,
    { details: { path: where } },
  );
}

/** Collects bind sources and the mount points nested in other binds. */
class BindList {
  readonly args: string[] = [];
  readonly fds: number[] = [];
  readonly nested: { path: string; kind: 'directory' | 'file' }[] = [];
  readonly expectations: MountExpectation[] = [];
  constructor(private readonly writable: readonly string[]) {}
  /** `scannedIno`: the inode the git scan found at `target`; what is opened must still be it (or the protection would go to a decoy). */
  bind(target: string, mode: 'ro' | 'rw', required: boolean, scannedIno?: number): void {
    const opened = openPathWithoutLinks(target);
    if ('missing' in opened) {
      if (scannedIno !== undefined) throw mountMoved(target, 'vanished between the scan for git metadata and the mount');
      if (required) throw unsafe(target, 'vanished while the sandbox was built');
      return; // a scope that does not exist yet is not mounted: commands cannot create it, the write tool can
    }
    if (scannedIno !== undefined && fstatSync(opened.fd).ino !== scannedIno) {
      closeSync(opened.fd);
      throw mountMoved(target, 'was replaced between the scan for git metadata and the mount');
    }
    this.args.push(mode === 'rw' ? '--bind-fd' : '--ro-bind-fd', String(FIRST_BIND_FD + this.fds.length), target);
    this.fds.push(opened.fd);
    const { dev, ino } = fstatSync(opened.fd);
    this.expectations.push({ kind: 'bind', target, readOnly: mode === 'ro', dev, ino });
    this.noteNested(target, opened.kind);
  }
  /** `source` mounted read-only at `target`, a place only the sandbox has (the agent's package at /zotbox). */
  bindAt(source: string, target: string): void {
    const opened = openPathWithoutLinks(source);
    if ('missing' in opened) throw unsafe(source, 'vanished while the sandbox was built');
    this.args.push('--ro-bind-fd', String(FIRST_BIND_FD + this.fds.length), target);
    this.fds.push(opened.fd);
    const { dev, ino } = fstatSync(opened.fd);
    this.expectations.push({ kind: 'bind', target, readOnly: true, dev, ino });
  }
  mask(target: string): void {
    const opened = openPathWithoutLinks(target);
    if ('missing' in opened) return;
    const { dev, ino } = fstatSync(opened.fd);
    closeSync(opened.fd);
    if (opened.kind !== 'directory') throw unsafe(target, 'is not a directory');
    this.args.push('--tmpfs', target);
    // The tmpfs must be what the path shows inside the sandbox, and cover the very directory opened here.
    this.expectations.push({ kind: 'fresh', target, fsType: 'tmpfs', readOnly: false, covers: { dev, ino } });
    this.noteNested(target, 'directory');
  }
  /** Another place the state directory shows (state-aliases.ts), inside a bind: masked while it still shows it there. */
  maskAlias(alias: StateAlias, state: { readonly dev: number; readonly ino: number }): void {
    const opened = openPathWithoutLinks(alias.path);
    if ('missing' in opened) throw unsafe(alias.path, 'is where the mount table shows the zotbox state directory, and it cannot be reached');
    const { dev, ino } = fstatSync(opened.fd);
    closeSync(opened.fd);
    if (dev !== state.dev || (!alias.part && ino !== state.ino)) return; // another mount lies over it: the state directory does not show there
    if (opened.kind !== 'directory') throw unsafe(alias.path, 'shows a file of the zotbox state directory (a bind mount of it) and is not a directory');
    this.args.push('--tmpfs', alias.path);
    this.expectations.push({ kind: 'fresh', target: alias.path, fsType: 'tmpfs', readOnly: false, covers: { dev, ino } });
    this.noteNested(alias.path, 'directory');
  }
  special(target: string, args: readonly string[], fsType: 'tmpfs' | 'proc', readOnly: boolean): void {
    this.args.push(...args);
    this.expectations.push({ kind: 'fresh', target, fsType, readOnly });
  }
  private noteNested(target: string, kind: 'directory' | 'file'): void {
    if (this.writable.some((root) => root !== target && isInsideRoot(target, root))) this.nested.push({ path: target, kind });
  }
}

/**
 * Binds each git directory in the write scopes over itself (so it cannot be renamed or removed and made anew),
 * then its control entries read-only; a link or odd kind there cannot be protected, so the command is refused.
 */
function protectGitMetadata(inventory: GitInventory, binds: BindList): void {
  const hidden = inventory.unreadable[0];
  if (hidden !== undefined) throw unsafe(hidden, 'cannot be listed (no read or search permission)');
  const refused = undecodableRefusal(inventory);
  if (refused !== undefined) throw refused;
  for (const [entry, state] of inventory.gitEntries) {
    if (state.kind === 'other') throw unsafe(entry, 'is neither a file nor a directory');
    if (state.kind === 'file') binds.bind(entry, 'ro', false, state.ino);
    // A .git link cannot be mounted over (the mount would land on its target); the directory it points to, if in
    // the scopes, is protected as a git directory below, and a replaced link is put back after the command.
  }
  for (const [directory, { ino, control }] of inventory.gitDirectories) {
    binds.bind(directory, 'rw', false, ino);
    for (const [name, state] of control) if (state.kind !== 'link') binds.bind(path.join(directory, name), 'ro', false, state.ino);
  }
  for (const target of inventory.linkTargets) binds.bind(target, 'ro', false);
}

/** bubblewrap's own root tmpfs, where it made every mount point: read-only once they are made. */
const FRESH_ROOT: MountExpectation = { kind: 'fresh', target: '/', fsType: 'tmpfs', readOnly: true };
const COPIED_ETC: MountExpectation = { kind: 'fresh', target: '/etc', fsType: 'tmpfs', readOnly: true };

/**
 * After every mount: /dev and (unless a scope of "/" replaced it) bubblewrap's root become read-only, so that a
 * command can leave files only in /tmp, /dev/shm and the scopes. Device nodes stay writable (a read-only mount
 * does not stop writes to a device), and each is its own bind below /dev anyway.
 */
function finalRemounts(rootIsBound: boolean): string[] {
  return ['--remount-ro', '/dev', ...(rootIsBound ? [] : ['--remount-ro', '/'])];
}

/** With `seccomp`, the arguments name one more descriptor after `fds` (fd 4 + fds.length): the caller passes the filter there, a fresh one per spawn. */
export function prepareSandbox(layout: SandboxLayout, extra: { readonly seccomp?: boolean; readonly afterScan?: () => void } = {}): PreparedSandbox {
  const state = layout.stateDirectory;
  // Every other place the state directory shows (a bind mount of it): masked like it, never bound.
  const aliases = state === undefined ? [] : stateDirectoryAliases(state);
  const insideState = (root: string) => state !== undefined && isInsideRoot(root, state);
  const insideAlias = (root: string) => aliases.some((alias) => isInsideRoot(root, alias.path));
  const allowedInState = (root: string) => layout.agentData !== undefined && isInsideRoot(root, layout.agentData);
  const readRoots = layout.readRoots.filter((root) => !OWN_PLACES.includes(root));
  const roots = [
    ...layout.writeRoots.map((root) => ({ root, mode: 'rw' as const })),
    ...readRoots.filter((root) => !layout.writeRoots.some((w) => isInsideRoot(root, w))).map((root) => ({ root, mode: 'ro' as const })),
    // The program directories: read-only, where no scope shows them already (none overlaps a write scope: run-plan.ts).
    ...programDirectoryBinds(layout.programDirectories ?? [], layout.writeRoots)
      .filter((root) => !readRoots.some((r) => isInsideRoot(root, r)))
      .map((root) => ({ root, mode: 'ro' as const })),
  ].filter(({ root }) => (!insideState(root) || allowedInState(root)) && !insideAlias(root));
  roots.sort((a, b) => depth(a.root) - depth(b.root) || a.root.localeCompare(b.root));
  const binds = new BindList(layout.writeRoots);
  let system: SystemMounts | undefined;
  // The sandbox's own /proc, /dev and /tmp go in at their depth: above a scope of "/" (which would otherwise bring the
  // host's), below a scope inside /tmp.
  // /dev is made read-only only by finalRemounts: a scope below it needs its mount point made there first.
  const specials = [
    { root: '/proc', args: ['--proc', '/proc', '--remount-ro', '/proc'], fsType: 'proc' as const, readOnly: true },
    { root: '/dev', args: ['--dev', '/dev'], fsType: 'tmpfs' as const, readOnly: true },
    { root: '/dev/shm', args: ['--tmpfs', '/dev/shm'], fsType: 'tmpfs' as const, readOnly: false },
    { root: '/tmp', args: ['--tmpfs', '/tmp', '--dir', SANDBOX_HOME], fsType: 'tmpfs' as const, readOnly: false },
  ];
  const outsideState = roots.filter(({ root }) => !insideState(root));
  const ordered = [...specials.map((special) => ({ ...special, special: true })), ...outsideState.map((root) => ({ ...root, special: false }))];
  ordered.sort((a, b) => depth(a.root) - depth(b.root) || Number(b.special) - Number(a.special));
  try {
    for (const item of ordered) {
      if ('args' in item) binds.special(item.root, item.args, item.fsType, item.readOnly);
      else binds.bind(item.root, item.mode, false);
    }
    if (state !== undefined && roots.some(({ root }) => isInsideRoot(state, root) && root !== state)) binds.mask(state);
    if (state !== undefined) {
      const bound = [...roots.map(({ root }) => root), ...systemMountTargets()];
      const { dev, ino } = statSync(state);
      for (const alias of aliases.filter((a) => bound.some((root) => isInsideRoot(a.path, root)))) binds.maskAlias(alias, { dev, ino });
    }
    for (const { root, mode } of roots.filter(({ root }) => insideState(root))) binds.bind(root, mode, false);
    for (const mount of layout.image?.mounts() ?? []) binds.bindAt(mount.source, mount.target);
    const inventory = scanGitMetadata(layout.writeRoots, state === undefined ? [] : [state, ...aliases.map((alias) => alias.path)], true, layout.userGit?.home);
    extra.afterScan?.(); // a test seam (SandboxProbe): production passes none
    protectGitMetadata(inventory, binds);
    const protectedSet = protectedSetOf(inventory, layout.writeRoots, layout.userGit);
    for (const target of readOnlyBinds(protectedSet, layout.writeRoots)) binds.bind(target, 'ro', false);
    // /etc is copied into a tmpfs of its own (system-mounts.ts) unless a scope lies in it or holds it: their mount points are made there.
    system = systemMounts(FIRST_BIND_FD + binds.fds.length, !roots.some(({ root }) => isInsideRoot(root, '/etc') || isInsideRoot('/etc', root)));
    const fds = [...binds.fds, ...system.fds];
    const seccomp = extra.seccomp === true ? ['--seccomp', String(FIRST_BIND_FD + fds.length)] : [];
    const rootIsBound = roots.some(({ root }) => root === '/');
    const args = [...BASE_ARGUMENTS, ...seccomp, ...system.args, ...binds.args, ...system.finalArgs, ...finalRemounts(rootIsBound)];
    const copied = system;
    let spawns = 0;
    return {
      args,
      fds,
      descriptors: () => (spawns++ === 0 ? fds : [...binds.fds, ...reopenCopies(copied)]),
      // The copied /etc must be bubblewrap's tmpfs, read-only, before anything else is verified.
      expectations: [...(rootIsBound ? [] : [FRESH_ROOT]), ...(system.etcIsCopied ? [COPIED_ETC] : []), ...binds.expectations],
      copiedSources: () => copiedSourceStats(copied.fds),
      inventory,
      protectedSet,
      drivers: gitDriversOf(inventory),
      verifyMountPoints: () => {
        for (const point of binds.nested) {
          const opened = openPathWithoutLinks(point.path);
          if ('missing' in opened) throw unsafe(point.path, 'was removed by an earlier command of this call');
          closeSync(opened.fd);
          if (opened.kind !== point.kind) throw unsafe(point.path, `is no longer a ${point.kind}`);
        }
      },
      close: () => {
        for (const fd of binds.fds) closeSync(fd);
        closeSystemMounts(copied);
      },
    };
  } catch (error) {
    for (const fd of binds.fds) closeSync(fd);
    if (system !== undefined) closeSystemMounts(system);
    throw error;
  }
}
