// The typed face of zotbox's native module (native/inotify.c, built by `npm ci`
// through binding.gyp): an inotify descriptor, watches added and removed, and
// events read with fs.readSync and parsed here. Nothing else loads the module;
// directory-watch.ts is its one user. When the module is missing or inotify
// cannot start, openInotify says why and callers fall back to walking (the
// checks are the same, only slower).
import { closeSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { forgetCloseOnExec, vouchCloseOnExec } from './inherited-descriptors.js';

/** Event bits of <sys/inotify.h> (the same on every Linux architecture). */
export const IN_ATTRIB = 0x4;
export const IN_MOVED_FROM = 0x40;
export const IN_MOVED_TO = 0x80;
export const IN_CREATE = 0x100;
export const IN_DELETE = 0x200;
export const IN_DELETE_SELF = 0x400;
export const IN_MOVE_SELF = 0x800;
export const IN_UNMOUNT = 0x2000;
export const IN_Q_OVERFLOW = 0x4000;
export const IN_IGNORED = 0x8000;
export const IN_ONLYDIR = 0x1000000;
export const IN_ISDIR = 0x40000000;

/** What changes a directory's listing (names and kinds), its permissions, or its place. */
export const LISTING_EVENTS = IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR;

export interface InotifyEvent {
  /** -1 for IN_Q_OVERFLOW (events were lost). */
  readonly wd: number;
  readonly mask: number;
  /** The entry's name inside the watched directory; '' for an event about the directory itself. */
  readonly name: string;
}

interface Binding {
  init(): number;
  addWatch(fd: number, path: string, mask: number): number;
  removeWatch(fd: number, wd: number): number;
}

/** The repository's (or installed package's) root, from dist/src/host/executors/confine/. */
const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', '..');
/** Where node-gyp puts the module. */
export const NATIVE_MODULE = path.join(PACKAGE_ROOT, 'build', 'Release', 'zotbox_inotify.node');

let loaded: Binding | { readonly error: string } | undefined;
function binding(): Binding | { readonly error: string } {
  if (loaded === undefined) {
    try {
      loaded = createRequire(import.meta.url)(NATIVE_MODULE) as Binding;
    } catch (error) {
      loaded = { error: `the native module ${NATIVE_MODULE} could not be loaded (${String((error as Error).message.split('\n')[0])}); run npm ci` };
    }
  }
  return loaded;
}

/** errno names the caller tells apart. */
const ERRNO: Readonly<Record<number, string>> = { 2: 'ENOENT', 13: 'EACCES', 20: 'ENOTDIR', 24: 'EMFILE', 28: 'ENOSPC', 40: 'ELOOP' };

export interface Inotify {
  readonly fd: number;
  /** A watch descriptor, or the error's code (ENOSPC: the user's watch limit is reached). */
  addWatch(target: string, mask: number): { readonly wd: number } | { readonly code: string };
  removeWatch(wd: number): void;
  /** Every event queued now (never waits: the descriptor is non-blocking). */
  read(): InotifyEvent[];
  close(): void;
}

/** Large enough for many events, and for one with the longest name (16 + NAME_MAX + 1). */
const READ_BYTES = 64 * 1024;

function parse(buffer: Buffer, length: number, into: InotifyEvent[]): void {
  for (let offset = 0; offset + 16 <= length; ) {
    const wd = buffer.readInt32LE(offset);
    const mask = buffer.readUInt32LE(offset + 4);
    const nameLength = buffer.readUInt32LE(offset + 12);
    const raw = buffer.subarray(offset + 16, offset + 16 + nameLength);
    const end = raw.indexOf(0);
    into.push({ wd, mask, name: (end === -1 ? raw : raw.subarray(0, end)).toString('utf8') });
    offset += 16 + nameLength;
  }
}

export function openInotify(): Inotify | { readonly unavailable: string } {
  const native = binding();
  if ('error' in native) return { unavailable: native.error };
  const fd = native.init();
  if (fd < 0) return { unavailable: `inotify_init1 failed (${ERRNO[-fd] ?? `errno ${-fd}`})` };
  const buffer = Buffer.alloc(READ_BYTES);
  // Opened with IN_CLOEXEC (native/inotify.c): no child inherits it, and its fdinfo (every watch) need not be read.
  vouchCloseOnExec(fd);
  return {
    fd,
    addWatch: (target, mask) => {
      const wd = native.addWatch(fd, target, mask);
      return wd >= 0 ? { wd } : { code: ERRNO[-wd] ?? `errno ${-wd}` };
    },
    removeWatch: (wd) => void native.removeWatch(fd, wd),
    read: () => {
      const events: InotifyEvent[] = [];
      for (;;) {
        let length: number;
        try {
          length = readSync(fd, buffer, 0, buffer.length, null);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return events;
          throw error;
        }
        if (length === 0) return events;
        parse(buffer, length, events);
      }
    },
    close: () => {
      forgetCloseOnExec(fd);
      closeSync(fd);
    },
  };
}
