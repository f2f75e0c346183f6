// What the kernel says changed in the watched directories (issue 21 §9), for
// scope-walk.ts: a directory whose listing was taken after its inotify watch was
// added, and on whose watch no event has arrived since, has the same listing now.
// "Since" is a count of events read (a generation), never a clock: sync() renames a
// sentinel file in a private watched directory and reads the queue until that
// rename's event comes, so every event of everything that finished before sync()
// (a command that exited) has been read; the kernel queues an event inside the
// system call that makes the change, before the call returns.
// Whatever would make the events incomplete resets the watch (a new epoch: every
// earlier watch counts as absent, and the walker falls back to its own stat-based
// check, today's): the queue overflowed (IN_Q_OVERFLOW), the sentinel's event did
// not come, a mount appeared or disappeared in this process's mount namespace (a
// mount changes what a path shows without an event). A watch that cannot be added (the user's watch limit, ENOSPC) leaves its
// directory unwatched: the walker checks it with a stat, as before.
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { IN_CREATE, IN_DELETE, IN_MOVED_FROM, IN_MOVED_TO, IN_Q_OVERFLOW, IN_ATTRIB, LISTING_EVENTS, openInotify, type Inotify, type InotifyEvent } from './inotify.js';

/** Test seams: production passes none. */
export interface DirectoryWatchSeams {
  /** Stands in for inotify_add_watch on walked directories (a test makes the watch limit be reached: { code: 'ENOSPC' }). */
  readonly addWatch?: (target: string, add: () => { readonly wd: number } | { readonly code: string }) => { readonly wd: number } | { readonly code: string };
  /** Sees each batch of events read, before they are applied (a test counts them). */
  readonly onEvents?: (events: readonly InotifyEvent[]) => void;
  /** Where the sentinel's directory is made instead of the temp directory (a test puts it inside a scope). */
  readonly sentinelParent?: string;
}

/** A watch as a listing remembers it: valid while its epoch is current and no event came on it after `since`. */
export interface WatchStamp {
  readonly wd: number;
  readonly since: number;
  readonly epoch: number;
}

export class DirectoryWatch {
  private inotify: Inotify | undefined;
  private unavailableReason: string | undefined;
  private sentinel: { readonly directory: string; wd: number; count: number } | undefined;
  /** Per watch descriptor, the generation of its last event. */
  private readonly lastEvent = new Map<number, number>();
  private mountTable: string | undefined;
  /** Events read so far (the sentinel's excepted). */
  private events = 0;
  private resets = 0;

  private started = false;

  /** Nothing starts before the first sync (a process that never walks opens no descriptor and makes no directory). */
  constructor(private readonly seams: DirectoryWatchSeams = {}) {}

  /** Why there is no watch (the walker then checks every directory with a stat); undefined while it works. */
  get unavailable(): string | undefined {
    return this.unavailableReason;
  }

  /** Changes with every event read: equal generations and epochs mean nothing watched has changed. */
  get generation(): number {
    return this.events;
  }

  /** Changes with every reset: stamps of an earlier epoch are worth nothing. */
  get epoch(): number {
    return this.resets;
  }

  /**
   * Reads every event up to now (see the header); false when the watch is unavailable or was reset just now (every
   * stamp is then stale).
   */
  sync(): boolean {
    if (!this.started) {
      this.started = true;
      this.start();
    }
    const inotify = this.inotify;
    const sentinel = this.sentinel;
    if (inotify === undefined || sentinel === undefined) return false;
    const mounts = readMountTable();
    if (mounts !== this.mountTable) return this.reset('the mount table changed');
    const fromName = `s${sentinel.count}`;
    const from = path.join(sentinel.directory, fromName);
    sentinel.count++;
    const expected = `s${sentinel.count}`;
    try {
      renameSync(from, path.join(sentinel.directory, expected));
    } catch (error) {
      return this.reset(`the sentinel could not be renamed (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
    for (;;) {
      const batch = inotify.read();
      this.seams.onEvents?.(batch);
      // Nothing more queued and the sentinel not seen: events were lost (an overflow is reported below).
      if (batch.length === 0) return this.reset('the sentinel event did not arrive');
      let seen = false;
      for (const event of batch) {
        if (event.wd === -1 || (event.mask & IN_Q_OVERFLOW) !== 0) return this.reset('the event queue overflowed');
        // Only the sentinel's own rename is left out; anything else in its directory (which may lie in a scope, when
        // the temp directory does) counts like any change, and a walk never vouches for that directory.
        if (event.wd === sentinel.wd && event.name === expected && event.mask === IN_MOVED_TO) seen = true;
        else if (!(event.wd === sentinel.wd && event.name === fromName && event.mask === IN_MOVED_FROM)) this.apply(event);
      }
      if (seen) return true;
    }
  }

  /**
   * Watches the directory open at `fd` (through /proc/self/fd, so the watch is on the very directory opened);
   * undefined when it cannot be (no inotify, the watch limit): the caller checks that directory by stat.
   */
  watch(fd: number): WatchStamp | undefined {
    const inotify = this.inotify;
    if (inotify === undefined) return undefined;
    const target = `/proc/self/fd/${fd}`;
    const add = () => inotify.addWatch(target, LISTING_EVENTS);
    const added = this.seams.addWatch === undefined ? add() : this.seams.addWatch(target, add);
    if (!('wd' in added)) return undefined;
    return { wd: added.wd, since: this.events, epoch: this.resets };
  }

  /** True when nothing happened on the stamp's watch since it was taken, in this epoch. */
  unchanged(stamp: WatchStamp): boolean {
    return stamp.epoch === this.resets && stamp.wd !== this.sentinel?.wd && (this.lastEvent.get(stamp.wd) ?? -1) <= stamp.since;
  }

  private apply(event: InotifyEvent): void {
    // An entry's own attributes do not change its directory's listing (a subdirectory reports its own on its watch).
    if (event.name !== '' && (event.mask & IN_ATTRIB) !== 0 && (event.mask & (IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO)) === 0) return;
    this.events++;
    this.lastEvent.set(event.wd, this.events);
  }

  /** Starts over with a new descriptor and epoch; returns false (the caller's stamps are stale). */
  private reset(_why: string): false {
    this.inotify?.close();
    this.inotify = undefined;
    this.lastEvent.clear();
    this.resets++;
    this.start();
    return false;
  }

  private start(): void {
    const opened = openInotify();
    if ('unavailable' in opened) {
      this.unavailableReason = opened.unavailable;
      return;
    }
    try {
      this.sentinel ??= makeSentinelDirectory(this.seams.sentinelParent ?? tmpdir());
      const { directory } = this.sentinel;
      const added = opened.addWatch(directory, LISTING_EVENTS);
      if (!('wd' in added)) throw new Error(`the sentinel directory cannot be watched (${added.code})`);
      this.sentinel.wd = added.wd;
      this.mountTable = readMountTable();
      this.inotify = opened;
      this.unavailableReason = undefined;
    } catch (error) {
      opened.close();
      this.unavailableReason = String(error);
    }
  }
}

function readMountTable(): string {
  return readFileSync('/proc/self/mountinfo', 'utf8');
}

/** A private directory (0700) holding the one sentinel file, removed when the process exits. */
function makeSentinelDirectory(parent: string): { directory: string; wd: number; count: number } {
  const directory = mkdtempSync(path.join(parent, 'zotbox-watch-'));
  writeFileSync(path.join(directory, 's0'), '');
  process.once('exit', () => rmSync(directory, { recursive: true, force: true }));
  return { directory, wd: -1, count: 0 };
}
