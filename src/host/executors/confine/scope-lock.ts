// Orders the calls of different runs whose write scopes overlap (issue 21 §1, the
// concurrent put-back class): one call, from the record its aftercare compares
// with to the end of that aftercare, at a time in any part of a write scope,
// across runs in one process and across processes (whatever their ZOTBOX_HOME).
// Without it, a run's record could hold bytes another run's command had just
// written, and its put-back (or undo in a git directory) would restore them after
// that other run's aftercare had removed them.
//
// The locks are Linux abstract unix sockets: a name is bound by one socket at a
// time in a network namespace, and the kernel frees it when its holder closes it
// or dies, so a crashed run never leaves a lock behind. A call holds, for each
// write root, `at-<dev>-<ino>` of the root and `in-<dev>-<ino>` of each directory
// above it (each with a unique suffix); its roots overlap another holder's when
// that holder is `at` the root or a directory above it, or `in` the root. The
// bound names are read from /proc/net/unix while a short arbiter name is held, so
// that checking and binding are one step. A waiter connects to the name it waits
// for and resumes when the kernel closes that connection (the holder released, or
// died): no clock, no polling. A root that does not exist counts as its deepest
// existing directory (more overlap, never less).
import { lstatSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { ZotboxError } from '../../../errors.js';

const PREFIX = 'zotbox-scope-v1';
const ARBITER = `${PREFIX}-arbiter`;
/** Where the kernel lists the bound unix socket names of this network namespace. */
const SOCKET_TABLE = '/proc/net/unix';

/** Test seam: production never passes one; src/index.ts does not export it. */
export interface ScopeLockProbe {
  /** A call is connected to `name` (another holder, or the arbiter) and waits for it to close. */
  readonly waiting?: (name: string) => void;
  /** With the arbiter held, after the bound names were read and found free of overlaps, before this call binds its own. */
  readonly beforeBind?: () => Promise<void>;
}

/** Test seam for whole runs, where no probe can be passed: every wait is reported here too. Production adds none. */
export const scopeLockWaits = new Set<(name: string) => void>();

export interface ScopeLock {
  /** Frees every name at once (synchronously: the next call may take them in the same tick). Idempotent. */
  release(): void;
}

function lockError(why: string): ZotboxError {
  return new ZotboxError(
    'ZB_CONFINEMENT_SCOPE_LOCK',
    `call refused: zotbox could not order this command or write with other runs' calls in the same write scopes (${why}). Nothing ran and the run stopped. zotbox needs Linux abstract unix sockets and a readable ${SOCKET_TABLE} to keep one run's aftercare from restoring what another run's command wrote.`,
    { details: { why } },
  );
}

/** The abort's own reason (the gate's timeout or cancel), or a cancel: nothing is held then. */
function cancelled(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new ZotboxError('ZB_GATE_CANCELLED', "the tool call was cancelled while it waited for another run's command in the same write scopes to end.");
}

/** device-inode of each existing component from `/` down to `root` (following no link; a link or a missing one ends it). */
function chainOf(root: string): string[] {
  const parts = root.split(path.sep).filter((part) => part !== '');
  const chain: string[] = [];
  let at = '/';
  for (const part of ['', ...parts]) {
    at = part === '' ? at : path.join(at, part);
    const stats = lstatSync(at, { bigint: true, throwIfNoEntry: false });
    if (stats === undefined || stats.isSymbolicLink()) break;
    chain.push(`${stats.dev}-${stats.ino}`);
    if (!stats.isDirectory()) break;
  }
  return chain;
}

/** The names bound in this network namespace that start with PREFIX (accepted connections repeat their listener's). */
function boundNames(): Set<string> {
  let text: string;
  try {
    text = readFileSync(SOCKET_TABLE, 'latin1');
  } catch (error) {
    throw lockError(`${SOCKET_TABLE} cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    const field = line.slice(line.lastIndexOf(' ') + 1);
    // The table shows NUL bytes as @, and libuv pads an abstract name with NULs to the full address length.
    if (field.startsWith(`@${PREFIX}-`)) names.add(field.slice(1).replace(/@+$/u, ''));
  }
  return names;
}

/** A name another holder has bound that overlaps `roots` (a chain each), or undefined. */
function overlappingHolder(chains: readonly (readonly string[])[], bound: ReadonlySet<string>): string | undefined {
  const at = new Set<string>();
  const inside = new Set<string>();
  for (const chain of chains) {
    for (const id of chain) at.add(`${PREFIX}-at-${id}-`);
    const root = chain[chain.length - 1];
    if (root !== undefined) inside.add(`${PREFIX}-in-${root}-`);
  }
  for (const name of bound) {
    const key = /^(zotbox-scope-v1-(?:at|in)-[0-9]+-[0-9]+-)/u.exec(name)?.[1];
    if (key !== undefined && (at.has(key) || inside.has(key))) return name;
  }
  return undefined;
}

/** Binds `name`; undefined when another socket holds it. Accepted connections are kept until the server is closed. */
function bind(name: string): Promise<{ server: net.Server; peers: Set<net.Socket> } | undefined> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    const peers = new Set<net.Socket>();
    server.on('connection', (socket) => {
      socket.on('error', () => undefined);
      socket.unref();
      peers.add(socket);
      socket.once('close', () => peers.delete(socket));
    });
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') resolve(undefined);
      else reject(lockError(`binding ${name} failed: ${error.code ?? error.message}`));
    });
    server.listen({ path: `\0${name}` }, () => {
      server.unref(); // a lock never keeps the process alive; it dies with it
      resolve({ server, peers });
    });
  });
}

function unbind(held: { server: net.Server; peers: Set<net.Socket> }): void {
  held.server.close();
  for (const peer of held.peers) peer.destroy();
}

/**
 * Resolves when the socket bound at `name` is gone (its holder released it, or died): true; at once if it refused
 * the connection (gone already, or bound by something that is not a lock): false.
 */
function awaitClose(name: string, probe: ScopeLockProbe | undefined, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve, reject) => {
    // A call aborted before it had to wait still takes free scopes (its line then stops at once); one that must wait does not.
    if (signal?.aborted === true) return reject(cancelled(signal));
    const socket = net.connect({ path: `\0${name}` });
    const onAbort = () => {
      socket.destroy();
      reject(cancelled(signal));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    socket.on('error', () => undefined); // refused: gone already; reset: the holder died. 'close' follows either way.
    socket.on('data', () => undefined);
    let connected = false;
    socket.once('connect', () => {
      connected = true;
      probe?.waiting?.(name);
      for (const listener of scopeLockWaits) listener(name);
    });
    socket.once('close', () => {
      signal?.removeEventListener('abort', onAbort);
      resolve(connected);
    });
  });
}

let counter = 0;

/**
 * Waits until no other call holds a write root overlapping `writeRoots`, then holds them until `release`.
 * Throws ZB_CONFINEMENT_SCOPE_LOCK where it cannot tell (no /proc/net/unix, a bind that fails), and
 * ZB_GATE_CANCELLED when `signal` aborts the wait.
 */
export async function lockWriteScopes(writeRoots: readonly string[], options: { readonly signal?: AbortSignal; readonly probe?: ScopeLockProbe } = {}): Promise<ScopeLock> {
  const unique = `${process.pid}-${++counter}-${randomBytes(4).toString('hex')}`;
  let refused: string | undefined;
  for (;;) {
    const arbiter = await bind(ARBITER);
    if (arbiter === undefined) {
      await awaitClose(ARBITER, options.probe, options.signal);
      continue;
    }
    const held: { server: net.Server; peers: Set<net.Socket> }[] = [];
    let other: string | undefined;
    try {
      const chains = writeRoots.map(chainOf).filter((chain) => chain.length > 0);
      other = overlappingHolder(chains, boundNames());
      if (other === undefined) {
        await options.probe?.beforeBind?.();
        const names = new Set<string>();
        for (const chain of chains) {
          chain.forEach((id, index) => names.add(`${PREFIX}-${index === chain.length - 1 ? 'at' : 'in'}-${id}-${unique}`));
        }
        const bound = await Promise.all([...names].map(bind));
        held.push(...bound.filter((one) => one !== undefined));
        const taken = [...names].find((_, index) => bound[index] === undefined);
        if (taken !== undefined) throw lockError(`${taken} is bound by another socket`);
      }
    } catch (error) {
      for (const one of held) unbind(one);
      throw error;
    } finally {
      unbind(arbiter);
    }
    if (other === undefined) {
      let released = false;
      return {
        release: () => {
          if (released) return;
          released = true;
          for (const one of held) unbind(one);
        },
      };
    }
    // Refused twice in a row while still bound: not a holder of ours (those listen as they bind), so it never goes.
    if (other === refused) throw lockError(`${other} is bound by a socket that refuses connections`);
    refused = (await awaitClose(other, options.probe, options.signal)) ? undefined : other;
  }
}
