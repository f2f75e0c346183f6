// The system part of every sandbox (issue 9 §2): programs and libraries
// read-only, and from /etc only a closed list of entries programs need, each
// world-readable. /etc holds secrets (shadow, private TLS keys, tokens in npmrc
// or pip.conf) that a sandboxed process could otherwise read whenever zotbox
// runs as root, because the kernel then still sees it as the files' owner.
// /etc's allowed files are copied into a tmpfs of the sandbox's own, remounted
// read-only once everything is in it, not bound one by one (issue 21 §9): after
// every bind bubblewrap reads the whole mount table again, and thirty binds of
// small files cost a call about as much as a bare sandbox. Directories, mount
// points and files over 1 MiB are bound as before. Which entries there are is
// computed once per process; each copied file is opened afresh for each sandbox
// and checked again there (a regular file, world-readable, its name no link).
// A directory that is bound (vim, perl, python3, fonts, ssl/certs, ...) is walked
// once to its full depth (third review, finding 5): every file in it that is not
// world-readable is masked with the host's /dev/null (bound nodev: it cannot be
// read, as for an ordinary user), every such directory (and
// every one zotbox cannot list) with an empty read-only tmpfs, so that a root
// host's 0600 file is not readable through the sandbox's uid mapping. A link is
// left as it is: inside the sandbox it reaches only what the sandbox shows, and
// every /etc file shown is checked; what /usr and /opt hold is docs/security.md's.
// None of these directories is agent-writable.
import type { CopiedSourceStat } from './plan-identity.js';
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readFileSync, readlinkSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { forgetCloseOnExec, vouchCloseOnExec } from './inherited-descriptors.js';

/** Mounted read-only when they exist (as symlinks when they are symlinks on the host). */
const SYSTEM_DIRECTORIES = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/opt'];

/** /etc entries programs read, by exact name or pattern. Everything else in /etc is absent. */
const ETC_ALLOWED: readonly (string | RegExp)[] = [
  'alternatives',
  'bash.bashrc',
  'ca-certificates',
  'ca-certificates.conf',
  'debian_version',
  'environment',
  'fonts',
  'gai.conf',
  'group',
  'host.conf',
  'hostname',
  'hosts',
  'inputrc',
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'locale.alias',
  'locale.conf',
  'locale.gen',
  'localtime',
  'lsb-release',
  'magic',
  'magic.mime',
  'manpath.config',
  'mime.types',
  'nsswitch.conf',
  'os-release',
  'passwd',
  'perl',
  'profile',
  'protocols',
  'services',
  'shells',
  'terminfo',
  'timezone',
  'vim',
  'xml',
  'sgml',
  'mtab',
  'gprofng.rc',
  'mke2fs.conf',
  'maven',
  'gdb',
  /^java-[0-9.]+-openjdk$/u,
  /^python3(\.[0-9]+)?$/u,
  /^ruby[0-9.]*$/u,
  /^(alpine|redhat|fedora|system)-release$/u,
];
/** Below /etc/ssl only the certificates and the OpenSSL configuration: never private/. */
const ETC_SSL_ALLOWED = ['certs', 'openssl.cnf'];

/** A file larger than this is bound, not copied (copying it would cost more than its bind). */
const COPY_LIMIT_BYTES = 1024 * 1024;

function worldReadable(mode: number, directory: boolean): boolean {
  return directory ? (mode & 0o005) === 0o005 : (mode & 0o004) === 0o004;
}

/** What inside a bound directory is not world-readable, by its path in the sandbox: each is masked. */
interface PrivateEntry {
  readonly kind: 'file' | 'directory';
  readonly path: string;
}

/**
 * One allowed entry, at `path` in the sandbox and `source` on the host: bound from the host (directories, mount
 * points, large files) with what it holds that is not world-readable masked, made as the same symlink, or copied.
 */
type SystemEntry =
  | { readonly kind: 'bind'; readonly path: string; readonly source: string; readonly masks: readonly PrivateEntry[] }
  | { readonly kind: 'copy'; readonly path: string; readonly source: string }
  | { readonly kind: 'link'; readonly path: string; readonly target: string };

/** Where the system's /etc is read from: the host's /etc, or a test's stand-in directory mounted as /etc. */
export interface EtcSource {
  readonly source: string;
}

const HOST_ETC: EtcSource = { source: '/etc' };

/**
 * Every entry below the host directory `source` that is not world-readable (a file without o+r, a directory
 * without o+rx, one that cannot be listed or looked at), as its path below `target`; a masked directory is not
 * walked further. Links are not followed. Runs once a process for each bound directory.
 */
function privateEntries(source: string, target: string): PrivateEntry[] {
  const found: PrivateEntry[] = [];
  const pending = [''];
  while (pending.length > 0) {
    const relative = pending.pop()!;
    let names: Dirent[];
    try {
      names = readdirSync(path.join(source, relative), { withFileTypes: true });
    } catch {
      // Cannot be listed: what it holds cannot be checked, so none of it is shown (fail closed).
      if (relative === '') return [{ kind: 'directory', path: target }];
      found.push({ kind: 'directory', path: path.join(target, relative) });
      continue;
    }
    for (const dirent of names) {
      const child = path.join(relative, dirent.name);
      if (dirent.isSymbolicLink()) continue;
      const stats = lstatSync(path.join(source, child), { throwIfNoEntry: false });
      // Gone between the listing and the look (or replaced): its directory is masked whole.
      if (stats === undefined || stats.isSymbolicLink() !== dirent.isSymbolicLink() || stats.isDirectory() !== dirent.isDirectory()) {
        found.push({ kind: 'directory', path: path.join(target, relative) });
        break;
      }
      if (stats.isDirectory()) {
        if (worldReadable(stats.mode, true)) pending.push(child);
        else found.push({ kind: 'directory', path: path.join(target, child) });
      } else if (!worldReadable(stats.mode, false)) found.push({ kind: 'file', path: path.join(target, child) });
    }
  }
  return found;
}

/** bubblewrap's arguments that mask `entry` in the sandbox: /dev/null (nodev there, so unreadable), or an empty read-only directory. */
function maskArgs(entry: PrivateEntry): string[] {
  return entry.kind === 'file' ? ['--ro-bind', '/dev/null', entry.path] : ['--tmpfs', entry.path, '--remount-ro', entry.path];
}

/** The mount points of this process's mount table (mountinfo escapes space, tab, newline and backslash as \ooo). */
function mountPoints(): Set<string> {
  let table: string;
  try {
    table = readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    return new Set(); // no /proc: no mount point is known, and there is no sandbox to build either
  }
  const points = table.split('\n').map((line) => line.split(' ')[4]);
  return new Set(points.filter((point): point is string => point !== undefined).map((point) => point.replace(/\\([0-7]{3})/gu, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)))));
}

/** The entry for the host's `source`, shown at `target` in the sandbox; undefined when it is left out. */
function entryOf(source: string, target: string, points: ReadonlySet<string>): SystemEntry | undefined {
  const stats = lstatSync(source, { throwIfNoEntry: false });
  if (stats === undefined) return undefined;
  if (stats.isSymbolicLink()) return { kind: 'link', path: target, target: readlinkSync(source) };
  if (!(stats.isFile() || stats.isDirectory()) || !worldReadable(stats.mode, stats.isDirectory())) return undefined;
  // A mount point (a container's /etc/hosts) is bound, so that a state-directory mask can land on it (sandbox-plan.ts).
  const copy = stats.isFile() && stats.size <= COPY_LIMIT_BYTES && !points.has(source) && target.startsWith('/etc/');
  if (copy) return { kind: 'copy', path: target, source };
  // /usr, /opt and the others are bound whole (docs/security.md says what that leaves); /etc's directories are checked.
  const masks = stats.isDirectory() && target.startsWith('/etc/') ? privateEntries(source, target) : [];
  return { kind: 'bind', path: target, source, masks };
}

/** The system directories and the allowed /etc entries (read from `etc`), in mount order. */
function systemEntries(etc: EtcSource): SystemEntry[] {
  const points = mountPoints();
  const entries: SystemEntry[] = [];
  for (const directory of SYSTEM_DIRECTORIES) {
    const entry = entryOf(directory, directory, points);
    if (entry !== undefined) entries.push(entry);
  }
  let names: string[] = [];
  try {
    names = readdirSync(etc.source);
  } catch {
    names = []; // no /etc: programs get none
  }
  const candidates = names
    .sort()
    .filter((name) => ETC_ALLOWED.some((allowed) => (typeof allowed === 'string' ? allowed === name : allowed.test(name))))
    .map((name) => path.join('/etc', name));
  for (const target of [...candidates, ...ETC_SSL_ALLOWED.map((name) => path.join('/etc/ssl', name))]) {
    const entry = entryOf(path.join(etc.source, path.relative('/etc', target)), target, points);
    if (entry !== undefined) entries.push(entry);
  }
  return entries;
}

/** The entries, made once a process for the host's /etc (a stand-in's are made each time: tests only). */
let cached: SystemEntry[] | undefined;

function entriesFor(etc: EtcSource): SystemEntry[] {
  if (etc !== HOST_ETC) return systemEntries(etc);
  cached ??= systemEntries(HOST_ETC);
  return cached;
}

/**
 * Opens a file to copy: still a regular, world-readable file, small enough, its name not a link; undefined otherwise.
 * Node opens it close-on-exec (vouched for, so the per-spawn check of inherited descriptors skips it).
 */
function openCopySource(file: string): number | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined; // gone or replaced by a link since the list was made: it is made again
  }
  const stats = fstatSync(fd);
  if (!stats.isFile() || !worldReadable(stats.mode, false) || stats.size > COPY_LIMIT_BYTES) {
    closeSync(fd);
    return undefined;
  }
  vouchCloseOnExec(fd);
  return fd;
}

/** Closes the descriptors systemMounts and reopenCopies opened. */
export function closeSystemMounts(mounts: SystemMounts): void {
  for (const fd of [...mounts.fds, ...mounts.reopened]) {
    forgetCloseOnExec(fd);
    closeSync(fd);
  }
  mounts.reopened.length = 0;
}

/**
 * bubblewrap reads a copied file's descriptor to its end, moving the offset it shares with zotbox's: each later
 * sandbox built from the same mounts (the next command of a pipeline) gets new descriptors of the same files.
 */
export function reopenCopies(mounts: SystemMounts): number[] {
  return mounts.fds.map((fd) => {
    const again = openSync(`/proc/self/fd/${fd}`, constants.O_RDONLY | constants.O_NONBLOCK);
    vouchCloseOnExec(again);
    mounts.reopened.push(again);
    return again;
  });
}

/** One sandbox's system mounts. */
export interface SystemMounts {
  /** bwrap's arguments for the system directories and /etc. */
  readonly args: readonly string[];
  /** With a copied /etc: arguments that must come after every other mount (its tmpfs remounted read-only). */
  readonly finalArgs: readonly string[];
  /** Descriptors of the files copied into /etc, which the child gets as fd `firstFd`, `firstFd + 1`, …; the caller closes them. */
  readonly fds: readonly number[];
  /** Whether /etc is the sandbox's own tmpfs (copied), which the caller verifies as a fresh, read-only mount. */
  readonly etcIsCopied: boolean;
  /** What reopenCopies opened, closed with the rest. */
  readonly reopened: number[];
}

/**
 * The system mounts for one sandbox. `copyEtc`: copy /etc's files into a tmpfs (false when a scope lies in /etc or
 * holds it: their mount points are made there, so each entry is bound, as before). Copied files' descriptors are
 * numbered from `firstFd`; closeSystemMounts closes them. `etc`: where /etc is read from (a test seam: production
 * passes none, and the host's /etc is read).
 */
export function systemMounts(firstFd: number, copyEtc: boolean, etc: EtcSource = HOST_ETC): SystemMounts {
  const entries = entriesFor(etc);
  const args: string[] = [];
  const fds: number[] = [];
  let copied = false;
  for (const entry of entries) {
    if (copyEtc && !copied && entry.path.startsWith('/etc/')) {
      args.push('--tmpfs', '/etc');
      copied = true;
    }
    if (entry.kind === 'link') args.push('--symlink', entry.target, entry.path);
    else if (entry.kind === 'bind') args.push('--ro-bind', entry.source, entry.path, ...entry.masks.flatMap(maskArgs));
    else if (!copyEtc) args.push('--ro-bind', entry.source, entry.path);
    else {
      const fd = openCopySource(entry.source);
      if (fd === undefined) {
        cached = undefined; // changed since the list was made: left out now, and the list made again for the next sandbox
        continue;
      }
      args.push('--perms', '0444', '--file', String(firstFd + fds.length), entry.path);
      fds.push(fd);
    }
  }
  return { args, finalArgs: copied ? ['--remount-ro', '/etc'] : [], fds, etcIsCopied: copied, reopened: [] };
}

/** Where the system mounts show the host's files and directories in the sandbox (bound or copied): a state-directory alias there must be masked. */
export function systemMountTargets(): string[] {
  return entriesFor(HOST_ETC)
    .filter((entry) => entry.kind !== 'link')
    .map((entry) => entry.path);
}

/** The stat of each copied file, by its open descriptor, in the order of the arguments that name them. */
export function copiedSourceStats(fds: readonly number[]): CopiedSourceStat[] {
  return fds.map((fd, index) => {
    const stat = fstatSync(fd, { bigint: true });
    return { path: String(index), dev: Number(stat.dev), ino: Number(stat.ino), size: Number(stat.size), mtimeNs: stat.mtimeNs, ctimeNs: stat.ctimeNs };
  });
}
