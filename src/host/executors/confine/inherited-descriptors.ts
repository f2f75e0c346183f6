// Descriptors zotbox itself inherited without close-on-exec (from the shell, CI
// runner or process manager that started it) would pass into every sandbox: a
// directory descriptor there is a way around every mount, and a pipe a way to
// talk to whoever holds the other end. Node opens its own with O_CLOEXEC and
// cannot change another's flags, so each spawn lays /dev/null over them instead.
import { closeSync, constants, openSync, readdirSync, readSync } from 'node:fs';

const O_CLOEXEC = 0o2000000;

/**
 * Descriptors zotbox opened itself with close-on-exec whose fdinfo is costly to read: an inotify descriptor's
 * lists every watch (directory-watch.ts holds one per watched directory), so reading it would cost a confined
 * call time in proportion to the workspace. inotify.ts adds its descriptor when it opens it and removes it
 * before closing it.
 */
const ownCloseOnExec = new Set<number>();

export function vouchCloseOnExec(fd: number): void {
  ownCloseOnExec.add(fd);
}

export function forgetCloseOnExec(fd: number): void {
  ownCloseOnExec.delete(fd);
}

/**
 * The head of a descriptor's fdinfo, where "flags:" is (its second line; an epoll descriptor's lists every watched
 * one after it): one read into a buffer kept for it, rather than the whole text decoded (issue 21 §9: every spawn
 * reads one per open descriptor).
 */
const head = Buffer.alloc(512);

function flagsOf(fd: number): number | undefined {
  const info = openSync(`/proc/self/fdinfo/${fd}`, constants.O_RDONLY);
  try {
    const length = readSync(info, head, 0, head.length, null);
    const flags = /^flags:\s*([0-7]+)\n/mu.exec(head.toString('latin1', 0, length))?.[1];
    return flags === undefined ? undefined : Number.parseInt(flags, 8);
  } finally {
    closeSync(info);
  }
}

/** Descriptor numbers above 2 open in this process without close-on-exec: what a child would inherit. */
export function inheritableDescriptors(): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc/self/fdinfo');
  } catch {
    return []; // no /proc (not Linux): there is no sandbox to protect either
  }
  const found: number[] = [];
  for (const entry of entries) {
    const fd = Number(entry);
    if (!Number.isInteger(fd) || fd <= 2 || ownCloseOnExec.has(fd)) continue;
    try {
      const flags = flagsOf(fd);
      if (flags !== undefined && (flags & O_CLOEXEC) === 0) found.push(fd);
    } catch {
      // closed while listing (the readdir's own descriptor among them)
    }
  }
  return found;
}

let devNull: number | undefined;

/** A descriptor of /dev/null (close-on-exec, as Node opens everything) to lay over inherited ones. */
export function nullDescriptor(): number {
  devNull ??= openSync('/dev/null', constants.O_RDONLY);
  return devNull;
}
