// The sandbox's end of a network carrier, played by the test (review of issue 24
// §1, briefed without the feature's tests): a real loopback socket pair whose host
// end is served by the real proxy (src/host/net/), and a sandbox end that speaks
// the bridge's frames (executors/confine/net-bridge.ts) as any program inside the
// sandbox can (it runs as the command's user there). Nothing here is mocked.
import { once } from 'node:events';
import { createServer, connect, type Socket } from 'node:net';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { serveCarrier } from '../../../src/host/net/carrier.js';
import { createNetProxy, type NetResolver } from '../../../src/host/net/net-proxy.js';
import { compileNetAllow, type NetConnection, type NetRule } from '../../../src/policy/net-allow.js';

export const OPEN = 1;
export const DATA = 2;
export const CLOSE = 4;
export const CREDIT = 5;
/** The first bytes of each connection's data are kept as they came (the rest only counted). */
const KEPT = 64 * 1024;

export interface Carrier {
  /** The sandbox's end (what the bridge holds). */
  readonly sandbox: Socket;
  /** The host's end, served by the proxy. */
  readonly host: Socket;
  /** Frames the host sent back, payloads per connection id (the first 64 KiB of each). */
  readonly received: Map<number, Buffer>;
  /** Resolves when the host closes connection `id` (a close frame: after every data frame it sent there). */
  closed(id: number): Promise<void>;
  /** How many data bytes the host sent on each connection. */
  readonly counted: Map<number, number>;
  /** From now on, grants the host credit on connection `id` for each byte it sends there, as the bridge does for a reading command. */
  credit(id: number): void;
  /** Resolves when connection `id` has received text containing `needle`. */
  waitFor(id: number, needle: string): Promise<string>;
  frame(type: number, id: number, payload?: Buffer): Buffer;
  /** The proxy's records so far (what the call's end would report). */
  records(): readonly NetConnection[];
  /** Resolves with the next record the proxy makes. */
  nextRecord(): Promise<NetConnection>;
  close(): void;
}

export async function carrier(allow: readonly string[], resolver: NetResolver): Promise<Carrier> {
  const compiled = compileNetAllow(allow);
  if (!compiled.ok) throw new Error(compiled.reason);
  return carrierWithRules(compiled.rules, resolver);
}

/** carrier() with rules made by hand (as a reader other than compileNetAllow could make them). */
export async function carrierWithRules(rules: readonly NetRule[], resolver: NetResolver): Promise<Carrier> {
  const recordWaiters: ((connection: NetConnection) => void)[] = [];
  const proxy = createNetProxy({ rules, resolver, onConnection: (connection) => recordWaiters.shift()?.(connection) });
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  const accepted = once(server, 'connection') as Promise<[Socket]>;
  const sandbox = connect(port, '127.0.0.1');
  await once(sandbox, 'connect');
  const [host] = await accepted;
  server.close();
  serveCarrier(host, proxy);
  const received = new Map<number, Buffer>();
  const counted = new Map<number, number>();
  const crediting = new Set<number>();
  const closedIds = new Set<number>();
  const closeWaiters: { id: number; resolve: () => void }[] = [];
  const waiters: { id: number; needle: string; resolve: (text: string) => void }[] = [];
  let pending = Buffer.alloc(0);
  sandbox.on('data', (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    while (pending.length >= 9) {
      const length = pending.readUInt32BE(5);
      if (pending.length < 9 + length) break;
      const type = pending[0]!;
      const id = pending.readUInt32BE(1);
      if (type === DATA) {
        const kept = received.get(id) ?? Buffer.alloc(0);
        if (kept.length < KEPT) received.set(id, Buffer.concat([kept, pending.subarray(9, 9 + Math.min(length, KEPT - kept.length))]));
        counted.set(id, (counted.get(id) ?? 0) + length);
        if (crediting.has(id)) sandbox.write(frame(CREDIT, id, creditOf(length)));
      } else if (type === CLOSE) {
        closedIds.add(id);
        for (const waiter of closeWaiters.filter((w) => w.id === id)) waiter.resolve();
      }
      pending = pending.subarray(9 + length);
    }
    for (const waiter of [...waiters]) {
      const text = (received.get(waiter.id) ?? Buffer.alloc(0)).toString('latin1');
      if (text.includes(waiter.needle)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(text);
      }
    }
  });
  sandbox.on('error', () => undefined);
  host.on('error', () => undefined);
  function frame(type: number, id: number, payload?: Buffer): Buffer {
    const header = Buffer.alloc(9);
    header[0] = type;
    header.writeUInt32BE(id, 1);
    header.writeUInt32BE(payload?.length ?? 0, 5);
    return payload === undefined ? header : Buffer.concat([header, payload]);
  }
  return {
    sandbox,
    host,
    received,
    counted,
    closed: (id) => new Promise((resolve) => (closedIds.has(id) ? resolve() : closeWaiters.push({ id, resolve }))),
    credit: (id) => {
      crediting.add(id);
      const unanswered = counted.get(id) ?? 0;
      if (unanswered > 0) sandbox.write(frame(CREDIT, id, creditOf(unanswered)));
    },
    frame,
    records: () => proxy.connections(),
    nextRecord: () => new Promise((resolve) => recordWaiters.push(resolve)),
    waitFor: (id, needle) =>
      new Promise((resolve) => {
        const text = (received.get(id) ?? Buffer.alloc(0)).toString('latin1');
        if (text.includes(needle)) resolve(text);
        else waiters.push({ id, needle, resolve });
      }),
    close: () => {
      proxy.close();
      sandbox.destroy();
      host.destroy();
    },
  };
}

function creditOf(bytes: number): Buffer {
  const payload = Buffer.alloc(4);
  payload.writeUInt32BE(bytes);
  return payload;
}

/** Bytes held in ArrayBuffers (Buffers) by this process after a full garbage collection. */
export function heldBytes(): number {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  gc();
  return process.memoryUsage().arrayBuffers;
}

export const MiB = 1024 * 1024;
