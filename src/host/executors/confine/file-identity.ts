// A protected file recorded by what the kernel says of it instead of its bytes, for what lies past the byte budget of
// protected-locations.ts (a Yarn zero-install cache: 50-500 MiB of zips). Invariant: no unprivileged process changes a
// file's bytes, size or mode and keeps its ctime (every write, truncate, chmod or utimes sets it to the clock), so an
// equal identity is an unchanged file, however its mtime was set back. Never reads the file.
import type { BigIntStats } from 'node:fs';

export interface FileIdentity {
  readonly dev: bigint;
  readonly ino: bigint;
  readonly size: bigint;
  readonly mode: bigint;
  readonly mtimeNs: bigint;
  readonly ctimeNs: bigint;
}

export function fileIdentity(stats: BigIntStats): FileIdentity {
  return { dev: stats.dev, ino: stats.ino, size: stats.size, mode: stats.mode, mtimeNs: stats.mtimeNs, ctimeNs: stats.ctimeNs };
}

export function sameIdentity(a: FileIdentity, b: FileIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mode === b.mode && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;
}

const SECOND_NS = 1_000_000_000n;

/**
 * How long after its ctime a file may be changed again and keep it. The kernel stamps ctime from a coarse clock (one
 * tick behind at most, 10 ms at HZ=100), and a filesystem keeping whole seconds (ext4 with 128-byte inodes) or two (FAT)
 * truncates it further: a ctime with no fraction of a second is read as such a filesystem's.
 */
function ctimeGrain(identity: FileIdentity): bigint {
  return identity.ctimeNs % SECOND_NS === 0n ? 3n * SECOND_NS : 100_000_000n;
}

/**
 * The wall-clock time (ns since the epoch) past which every change to these files gets a ctime other than the recorded
 * one ("racy git" for ctimes): a file changed just before it was recorded could be changed again in the same tick.
 * Undefined when none is that recent.
 */
export function settledAfter(identities: readonly FileIdentity[], nowNs: bigint): bigint | undefined {
  let latest: bigint | undefined;
  for (const identity of identities) {
    const settled = identity.ctimeNs + ctimeGrain(identity);
    if (settled >= nowNs && (latest === undefined || settled > latest)) latest = settled;
  }
  return latest;
}

/** Now, in nanoseconds since the epoch (the clock ctimes are stamped from). */
export function wallClockNs(): bigint {
  return BigInt(Date.now()) * 1_000_000n;
}

/** Blocks until the wall clock is past `instant` (ns); a bounded wait (the callers' grain, 3 s at most). */
export function waitPast(instant: bigint, clock: () => bigint = wallClockNs): void {
  const cell = new Int32Array(new SharedArrayBuffer(4));
  for (let now = clock(); now <= instant; now = clock()) Atomics.wait(cell, 0, 0, Number((instant - now) / 1_000_000n) + 1);
}
