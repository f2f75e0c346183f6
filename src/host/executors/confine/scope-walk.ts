// Walks the write scopes for what the git checks need (issue 21 §9), reusing a
// directory's listing only while the directory is provably unchanged. The proof:
// a directory's listing changes only through an entry added, removed or renamed
// in it, and each such change sets the directory's ctime and mtime to the
// filesystem clock's now; an unprivileged process cannot set ctime, and a replaced,
// remounted, renamed-over or chmodded directory has another dev, ino or ctime. A
// listing is reused when dev+ino+ctime+mtime equal those read before and after it
// was taken, with git's "racily clean" rule for the coarse clock: it counts only if
// that ctime is older than the moment of the listing by more than
// TIMESTAMP_SLACK_MS (a change in the same tick, right after the listing, may keep
// the timestamp). Listings are trusted only on filesystems whose clock was measured
// (ext4, tmpfs), and all are dropped when the wall clock steps back. The same magic
// number covers ext2, ext3 and an ext4 with 128-byte inodes, which keep whole
// seconds: a ctime with no fraction of a second (COARSE_TICK_MS) is read as such a
// clock's, whose tick lasts until the second ends, and the listing counts only once
// that whole second is older than the slack. A ctime with a fraction proves the
// inode keeps fine timestamps (ctime is the kernel's; no process can set it). A cached
// listing is a fact about one directory, not about a scope set: roots, skipped
// trees and limits are applied anew on every walk.
// Without a watch, every directory is stat-ed on every walk: an ancestor's times do
// not move when a deep directory changes, so nothing but the deep directory's own
// stat proves it unchanged. With a watch (directory-watch.ts, the kernel's inotify
// through zotbox's native module; node's fs.watch drops the queue-overflow event),
// the proof is the absence of events instead: a directory listed after its watch
// was added, with no event on that watch since, is not stat-ed at all, and a walk
// whose every directory is so watched, with no event anywhere since the same walk
// last ran and its roots' stats unchanged, returns that walk's result as it was.
// Where the watch cannot vouch (a directory it could not watch, a filesystem whose
// clock was not measured, a watch reset after an overflow), the stat-based check
// above applies, directory by directory. Below a directory listed anew, every
// subdirectory kept from the old listing is stat-ed again: a changed mode can make
// it unreadable, and another directory under the same name has another inode (an
// inode number is reused only once its directory is gone, which ends the old
// directory's watch with an event).
import { isUtf8 } from 'node:buffer';
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, statfsSync, type Dirent, type Stats } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { isInsideRoot } from '../../../policy/scopes.js';
import type { DirectoryWatch, WatchStamp } from './directory-watch.js';

/**
 * How far a filesystem timestamp can lag the wall clock read just before the change. Measured on Linux 6.18
 * (HZ=250): at most 4 ms on ext4 and tmpfs (one tick; test/host/executors/confine/scope-walk.test.ts measures
 * it again); kernels with HZ=100 lag up to 10 ms. The margin costs only a second listing of a directory changed
 * in the last 50 ms.
 */
export const TIMESTAMP_SLACK_MS = 50;
/**
 * Directories remembered per walker, as many as the walk before a command accepts. Each costs 250–400 bytes of
 * heap (measured on generated trees and on node_modules), so a walker holds at most about 100 MB; past the bound
 * the cache starts over.
 */
export const MAX_CACHED_DIRECTORIES = 250_000;
/** The tick of a clock that keeps whole seconds (ext2, ext3, an ext4 with 128-byte inodes): a ctime on it has no fraction. */
const COARSE_TICK_MS = 1000;
/** A wall clock that falls this far behind the monotonic one has been set back (reading jitter is about 1 ms). */
const CLOCK_STEP_MS = 5;
/** statfs magic numbers of filesystems whose timestamp clock was measured (see TIMESTAMP_SLACK_MS). */
const MEASURED_FILESYSTEMS: ReadonlySet<number> = new Set([0xef53 /* ext2/3/4 */, 0x01021994 /* tmpfs */]);

/** What the walk collects: entries by a predicate on the entry, directories by a predicate on their whole listing. */
export interface ScopeWalkCollect<E extends string, D extends string> {
  /** Pure functions of the entry's name and type (they are evaluated once per listing, then cached). */
  readonly entries: Readonly<Record<E, (entry: Dirent) => boolean>>;
  readonly directories: Readonly<Record<D, (listing: readonly Dirent[]) => boolean>>;
}

export interface FoundEntry {
  /** Absolute path: the directory's path and the entry's name. */
  readonly path: string;
  /** The entry as listed (name and type; the listing is current, see the header). */
  readonly entry: Dirent;
}

/** An entry whose name is not UTF-8: its whole path as bytes, and whether it is a directory (what it holds is hidden). */
export interface UndecodableEntry {
  readonly path: Buffer;
  readonly directory: boolean;
}

export interface ScopeWalk<E extends string, D extends string> {
  readonly entries: Readonly<Record<E, readonly FoundEntry[]>>;
  readonly directories: Readonly<Record<D, readonly string[]>>;
  /** Directories that exist but could not be listed (or stat-ed): callers fail closed on them. */
  readonly unreadable: readonly string[];
  /**
   * Entries whose names are not UTF-8, by raw bytes (the whole path): Node spells a name as a string, so one of them
   * cannot be looked up, and nothing in it is walked. Callers fail closed on them (or rename them, by these bytes).
   */
  readonly undecodable: readonly UndecodableEntry[];
  /** Directories visited (counted as the uncached walk counted them, missing ones included). */
  readonly visited: number;
  /** Set when `maxDirectories` was passed: the walk stopped there and its lists are incomplete. */
  readonly exceeded: boolean;
  /** Directories read with readdir, and directories whose cached listing was reused. */
  readonly listed: number;
  readonly reused: number;
  /** Of the reused, those the watch vouched for without a stat (directory-watch.ts). */
  readonly unstatted: number;
  /** True when this is the previous walk's result, returned whole because nothing watched changed. */
  readonly replayed: boolean;
}

export interface ScopeWalkRequest {
  readonly roots: readonly string[];
  /** Trees not entered below a root (a root inside one is walked whole). */
  readonly skipped?: readonly string[];
  readonly maxDirectories?: number;
}

/** Test seams (production passes none): the clock, and a hook right after a directory is read. */
export interface ScopeWalkSeams {
  /**
   * The wall clock and how the filesystem's timestamps read; a test models a coarse filesystem clock with a
   * `timestamp` that rounds (every change in one tick reads the same).
   */
  readonly clock?: { readonly now: () => number; readonly timestamp: (ms: number) => number };
  /** Runs after a directory's readdir, before the stat that confirms it and before the listing is stored. */
  readonly afterListing?: (directory: string) => void;
}

interface Node {
  readonly dev: number;
  readonly ino: number;
  readonly ctime: number;
  readonly mtime: number;
  /** The listing may be reused while dev, ino, ctime and mtime stay equal (see the header). */
  readonly trusted: boolean;
  readonly subdirectories: readonly string[];
  /** The nodes of the subdirectories walked so far, at their name's index (undefined: not walked yet). */
  readonly children: (Node | undefined)[];
  /** Per entry predicate, in order: the matching entries (one shared list of empty lists when nothing matched). */
  readonly matched: readonly (readonly Dirent[])[];
  /** Bit i set: directory predicate i holds for this listing. */
  readonly marks: number;
  /** The entries whose names are not UTF-8, by raw name (left out of everything above). */
  readonly undecodable: readonly RawName[];
  /** The watch added before the listing was taken (directory-watch.ts); undefined: none (checked by stat). */
  readonly watch: WatchStamp | undefined;
}

type Looked = { readonly stats: Stats } | { readonly gone: true } | { readonly unreadable: true };

function look(directory: string): Looked {
  try {
    const stats = lstatSync(directory, { throwIfNoEntry: false });
    // Gone, or no longer a directory (a link is never followed): nothing in it to find.
    return stats?.isDirectory() === true ? { stats } : { gone: true };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOTDIR' || code === 'ENOENT' ? { gone: true } : { unreadable: true };
  }
}

function countNodes(node: Node | undefined): number {
  if (node === undefined) return 0;
  let count = 1;
  for (const child of node.children) count += countNodes(child);
  return count;
}

const NO_ENTRIES: readonly Dirent[] = [];
const NO_NAMES: readonly string[] = [];
interface RawName {
  readonly name: Buffer;
  readonly directory: boolean;
}
const NO_RAW_NAMES: readonly RawName[] = [];

/** The names in `directory` that are not UTF-8, as raw bytes; asked only when a listed name holds U+FFFD (what Node decodes a bad byte to). */
function undecodableNames(directory: string): readonly RawName[] {
  const bad = readdirSync(directory, { encoding: 'buffer', withFileTypes: true })
    .filter((entry) => !isUtf8(entry.name))
    .map((entry) => ({ name: entry.name, directory: entry.isDirectory() }));
  return bad.length === 0 ? NO_RAW_NAMES : bad;
}

/**
 * One walker per set of predicates: its cache remembers what those predicates found in each directory. Owned by
 * whoever creates it (git-inventory.ts keeps one for the process: listings are facts about directories, checked
 * on every use, so sharing them between runs and scope sets is as sound as listing anew).
 */
export class ScopeWalker<E extends string, D extends string> {
  private readonly entryNames: readonly E[];
  private readonly entryTests: readonly ((entry: Dirent) => boolean)[];
  private readonly directoryNames: readonly D[];
  private readonly directoryTests: readonly ((listing: readonly Dirent[]) => boolean)[];
  private readonly roots = new Map<string, Node>();
  private readonly noMatches: readonly (readonly Dirent[])[];
  private cached = 0;
  private clockOffset: number | undefined;
  /** Per request (roots, skipped, limit), the last walk and the watch's generation and epoch when it ended. */
  private readonly replays = new Map<string, { walk: ScopeWalk<E, D>; generation: number; epoch: number }>();

  /** `watch`: the kernel's word on which directories changed; without one every directory is stat-ed on every walk. */
  constructor(
    collect: ScopeWalkCollect<E, D>,
    private readonly seams: ScopeWalkSeams = {},
    private readonly watch?: DirectoryWatch,
  ) {
    this.entryNames = Object.keys(collect.entries) as E[];
    this.entryTests = this.entryNames.map((name) => collect.entries[name]);
    this.directoryNames = Object.keys(collect.directories) as D[];
    this.directoryTests = this.directoryNames.map((name) => collect.directories[name]);
    if (this.directoryTests.length > 30) throw new RangeError('a scope walker takes at most 30 directory predicates');
    this.noMatches = this.entryNames.map(() => NO_ENTRIES);
  }

  /** How many directories' listings are held now. */
  get cachedDirectories(): number {
    return this.cached;
  }

  /** Forgets every listing. */
  clear(): void {
    this.roots.clear();
    this.replays.clear();
    this.cached = 0;
  }

  walk(request: ScopeWalkRequest): ScopeWalk<E, D> {
    this.forgetAfterClockStep();
    const watch = this.watch;
    // Every event of what finished before this walk is read first (a command that exited, the user's own git).
    if (watch !== undefined) watch.sync();
    const requestKey = JSON.stringify([request.roots, request.skipped ?? [], request.maxDirectories ?? null]);
    const replay = this.replays.get(requestKey);
    this.replays.delete(requestKey);
    if (watch !== undefined && replay !== undefined && replay.epoch === watch.epoch && replay.generation === watch.generation && this.rootsUnchanged(request.roots)) {
      this.replays.set(requestKey, replay);
      const { walk } = replay;
      return { ...walk, listed: 0, reused: walk.visited, unstatted: walk.visited, replayed: true };
    }
    // Events read from here on are about changes that may have come during this walk: the replay is keyed to now.
    const startedAt = watch === undefined ? undefined : { generation: watch.generation, epoch: watch.epoch };
    // Which devices carry a measured clock, asked again on every walk (a device number can be reused by another mount).
    const measured = new Map<number, boolean>();
    const skipped = request.skipped ?? [];
    const entries = this.entryNames.map((): FoundEntry[] => []);
    const directories = this.directoryNames.map((): string[] => []);
    const unreadable: string[] = [];
    const undecodable: UndecodableEntry[] = [];
    let visited = 0;
    let listed = 0;
    let reused = 0;
    let unstatted = 0;
    // Directories the watch does not vouch for (and missing or unreadable ones): the next walk cannot be a replay.
    let unwatched = 0;
    let exceeded = false;
    // Each item remembers its root (the agent's data directory lies inside the skipped state directory, and is
    // walked whole), where its node hangs, and whether it must be stat-ed (a root, or below a listing taken now).
    const pending: { directory: string; root: string; parent: Node | undefined; index: number; check: boolean }[] = request.roots.map((root) => ({
      directory: root,
      root,
      parent: undefined,
      index: -1,
      check: true,
    }));
    while (pending.length > 0) {
      const { directory, root, parent, index, check } = pending.pop()!;
      visited++;
      if (request.maxDirectories !== undefined && visited > request.maxDirectories) {
        exceeded = true;
        break;
      }
      let node = parent === undefined ? this.roots.get(directory) : parent.children[index];
      const vouched = node?.watch !== undefined && watch !== undefined && watch.unchanged(node.watch);
      let listedNow = false;
      if (node !== undefined && vouched && !check) {
        reused++;
        unstatted++;
      } else {
        const looked = look(directory);
        if (!('stats' in looked)) {
          if ('unreadable' in looked) unreadable.push(directory);
          this.remove(parent, index, directory);
          unwatched++;
          continue;
        }
        const stats = looked.stats;
        const keep =
          node !== undefined && (vouched ? node.dev === stats.dev && node.ino === stats.ino : node.watch === undefined || watch === undefined ? node.trusted && this.matches(node, stats) : false);
        if (!keep) {
          const fresh = this.list(directory, stats, node, measured);
          if (!('node' in fresh)) {
            if ('unreadable' in fresh) unreadable.push(directory);
            this.remove(parent, index, directory);
            unwatched++;
            continue;
          }
          // The new node comes in, the old one goes with the subtrees that did not move to the new one.
          this.cached += 1 - fresh.released;
          node = fresh.node;
          this.place(parent, index, directory, node);
          listed++;
          listedNow = true;
        } else reused++;
      }
      if (node === undefined) continue; // never: each branch above leaves a node or goes on to the next directory
      if (node.watch === undefined) unwatched++;
      for (let i = 0; i < directories.length; i++) if ((node.marks & (1 << i)) !== 0) directories[i]!.push(directory);
      const prefix = directory === '/' ? '/' : `${directory}/`;
      for (const raw of node.undecodable) undecodable.push({ path: Buffer.concat([Buffer.from(prefix), raw.name]), directory: raw.directory });
      for (let i = 0; i < entries.length; i++) for (const entry of node.matched[i]!) entries[i]!.push({ path: prefix + entry.name, entry });
      for (let i = 0; i < node.subdirectories.length; i++) {
        const full = prefix + node.subdirectories[i]!;
        // .git directories are entered too: a repository planted inside one (in objects/, say) is a repository.
        if (skipped.length > 0 && skipped.some((skip) => isInsideRoot(full, skip) && !isInsideRoot(root, skip))) continue;
        pending.push({ directory: full, root, parent: node, index: i, check: listedNow || watch === undefined });
      }
    }
    if (this.cached > MAX_CACHED_DIRECTORIES) this.clear();
    const byName = <K extends string, V>(names: readonly K[], lists: readonly V[]) => Object.fromEntries(names.map((key, i) => [key, lists[i]])) as Record<K, V>;
    const result = {
      entries: byName(this.entryNames, entries),
      directories: byName(this.directoryNames, directories),
      unreadable,
      undecodable,
      visited,
      exceeded,
      listed,
      reused,
      unstatted,
      replayed: false,
    };
    // Replayed next time only if the watch vouches for every directory and no event is read from now until then.
    if (startedAt !== undefined && unwatched === 0) this.replays.set(requestKey, { walk: result, ...startedAt });
    return result;
  }

  /** Each root still is the directory its node was listed from, unchanged (its stat; events inside it are the watch's). */
  private rootsUnchanged(roots: readonly string[]): boolean {
    return roots.every((root) => {
      const node = this.roots.get(root);
      const looked = look(root);
      return node !== undefined && 'stats' in looked && this.matches(node, looked.stats);
    });
  }

  /** Reads a directory; the listing is trusted only when the stats read before and after it agree and are old enough. */
  private list(directory: string, before: Stats, previous: Node | undefined, measured: Map<number, boolean>): { node: Node; released: number } | { gone: true } | { unreadable: true } {
    const clock = this.seams.clock;
    const listedAt = clock === undefined ? Date.now() : clock.now();
    const measuredClock = this.measuredFilesystem(directory, before.dev, measured);
    // The watch goes on before the listing is read: a change from then on is an event.
    const stamp = measuredClock ? this.watchDirectory(directory, before) : undefined;
    let listing: Dirent[];
    let undecodable = NO_RAW_NAMES;
    try {
      listing = readdirSync(directory, { withFileTypes: true });
      // A name that is not UTF-8 reads back with U+FFFD in it, and no path spelled from it leads to the entry: it is
      // set apart (undecodable), never walked past as if it were not there. A real U+FFFD name sharing its spelling
      // is set apart with it.
      if (listing.some((entry) => entry.name.includes('\uFFFD'))) {
        undecodable = undecodableNames(directory);
        const spelled = new Set(undecodable.map((raw) => raw.name.toString('utf8')));
        listing = listing.filter((entry) => !spelled.has(entry.name));
      }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return code === 'ENOENT' || code === 'ENOTDIR' ? { gone: true } : { unreadable: true };
    }
    this.seams.afterListing?.(directory);
    const after = look(directory);
    const key = this.keyOf(before);
    const confirmed = 'stats' in after && this.matches(key, after.stats);
    // A whole-second ctime may be a coarse clock's: every change until that second ends reads the same.
    const tick = Math.floor(key.ctime) % COARSE_TICK_MS === 0 ? COARSE_TICK_MS : 0;
    const trusted = confirmed && key.ctime + tick < listedAt - TIMESTAMP_SLACK_MS && measuredClock;
    const subdirectories: string[] = [];
    const matched = this.entryTests.map((): Dirent[] => []);
    let matches = 0;
    for (const entry of listing) {
      if (entry.isDirectory()) subdirectories.push(entry.name);
      for (let i = 0; i < matched.length; i++) {
        if (!this.entryTests[i]!(entry)) continue;
        matched[i]!.push(entry);
        matches++;
      }
    }
    // The subtrees below keep their own nodes (each is checked by its own stat) while their names are still there.
    const children = new Array<Node | undefined>(subdirectories.length).fill(undefined);
    let released = countNodes(previous);
    if (previous !== undefined && previous.subdirectories.length > 0) {
      const byName = new Map(previous.subdirectories.map((name, i) => [name, previous.children[i]]));
      for (let i = 0; i < subdirectories.length; i++) {
        children[i] = byName.get(subdirectories[i]!);
        released -= countNodes(children[i]);
      }
    }
    let marks = 0;
    for (let i = 0; i < this.directoryTests.length; i++) if (this.directoryTests[i]!(listing)) marks |= 1 << i;
    const node: Node = {
      dev: key.dev,
      ino: key.ino,
      ctime: key.ctime,
      mtime: key.mtime,
      trusted,
      subdirectories: subdirectories.length === 0 ? NO_NAMES : subdirectories,
      children,
      matched: matches === 0 ? this.noMatches : matched.map((list) => (list.length === 0 ? NO_ENTRIES : list)),
      marks,
      undecodable,
      // Vouched for only if the listing is the watched directory's: the same one, unchanged, before and after it.
      watch: confirmed ? stamp : undefined,
    };
    return { node, released };
  }

  /** Watches the directory at `path` if it still is the one stat-ed as `before` (the watch is added through its descriptor). */
  private watchDirectory(directory: string, before: Stats): WatchStamp | undefined {
    let fd: number;
    try {
      fd = openSync(directory, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
    } catch {
      return undefined; // checked by stat, as without a watch
    }
    try {
      const opened = fstatSync(fd);
      return opened.dev === before.dev && opened.ino === before.ino ? this.watch?.watch(fd) : undefined;
    } finally {
      closeSync(fd);
    }
  }

  private keyOf(stats: Stats): { dev: number; ino: number; ctime: number; mtime: number } {
    const clock = this.seams.clock;
    if (clock === undefined) return { dev: stats.dev, ino: stats.ino, ctime: stats.ctimeMs, mtime: stats.mtimeMs };
    return { dev: stats.dev, ino: stats.ino, ctime: clock.timestamp(stats.ctimeMs), mtime: clock.timestamp(stats.mtimeMs) };
  }

  private matches(key: { dev: number; ino: number; ctime: number; mtime: number }, stats: Stats): boolean {
    const now = this.keyOf(stats);
    return key.dev === now.dev && key.ino === now.ino && key.ctime === now.ctime && key.mtime === now.mtime;
  }

  /** Hangs `node` where the walk found its directory. */
  private place(parent: Node | undefined, index: number, directory: string, node: Node): void {
    if (parent === undefined) this.roots.set(directory, node);
    else parent.children[index] = node;
  }

  /** Forgets a directory that is gone or cannot be listed, and everything below it. */
  private remove(parent: Node | undefined, index: number, directory: string): void {
    const old = parent === undefined ? this.roots.get(directory) : parent.children[index];
    this.cached -= countNodes(old);
    if (parent === undefined) this.roots.delete(directory);
    else parent.children[index] = undefined;
  }

  /** Whether the filesystem holding `directory` (device `dev`) is one whose timestamp clock was measured. */
  private measuredFilesystem(directory: string, dev: number, measured: Map<number, boolean>): boolean {
    const known = measured.get(dev);
    if (known !== undefined) return known;
    let type: number;
    try {
      type = statfsSync(directory).type;
    } catch {
      return false; // cannot tell: the listing is used once and not trusted
    }
    // statfs went by path: count it for `dev` only if the path still lies on that device.
    if (lstatSync(directory, { throwIfNoEntry: false })?.dev !== dev) return false;
    const verdict = MEASURED_FILESYSTEMS.has(type);
    measured.set(dev, verdict);
    return verdict;
  }

  /** A wall clock set back could stamp a change with a time already seen: every listing is then forgotten. */
  private forgetAfterClockStep(): void {
    if (this.seams.clock !== undefined) return;
    // The two clocks are read back to back; a read the scheduler split (the process preempted between them)
    // would look like a step back, so it is taken again, and when no clean read comes, the cache is dropped.
    let offset: number | undefined;
    for (let attempt = 0; attempt < 5 && offset === undefined; attempt++) {
      const before = performance.now();
      const wall = Date.now();
      if (performance.now() - before < 1) offset = wall - before;
    }
    if (offset === undefined || (this.clockOffset !== undefined && offset < this.clockOffset - CLOCK_STEP_MS)) this.clear();
    if (offset === undefined) return;
    this.clockOffset = this.clockOffset === undefined ? offset : Math.max(offset, this.clockOffset);
  }
}
