// The host's end of a sandbox's network carrier (issue 24 §1): one inherited
// socket pair per confined command, over which the bridge inside the sandbox
// (executors/confine/net-bridge.ts) multiplexes every TCP connection made to its
// loopback port. The seccomp filter refuses AF_UNIX sockets inside (a pathname
// socket in a scope is a host service), so the bridge cannot dial a proxy
// socket; it carries frames on the pair it was born with instead. Frames:
// type (1 byte: 1 open, 2 data, 3 end, 4 close), connection id (4 bytes),
// payload length (4 bytes), payload. Each opened connection becomes a stream
// the proxy serves like any client; it decides everything.
import { Duplex } from 'node:stream';
import type { NetProxy } from './net-proxy.js';

const OPEN = 1;
const DATA = 2;
const END = 3;
const CLOSE = 4;
const HEADER = 9;
/** A frame larger than this is a broken carrier: it is cut. */
const MAX_FRAME = 1024 * 1024;
const MAX_CONNECTIONS = 256;

class CarriedStream extends Duplex {
  private gone = false;
  constructor(
    private readonly id: number,
    private readonly send: (type: number, id: number, payload?: Buffer) => void,
    private readonly forget: (id: number) => void,
  ) {
    super({ allowHalfOpen: true });
  }
  override _read(): void {
    // Data is pushed as frames arrive.
  }
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (!this.gone) this.send(DATA, this.id, chunk);
    callback();
  }
  override _final(callback: (error?: Error | null) => void): void {
    if (!this.gone) this.send(END, this.id);
    callback();
  }
  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.closedByPeer();
    callback(error);
  }
  /** Ends this stream's part of the carrier (once): the bridge closes its TCP connection. */
  closedByPeer(fromPeer = false): void {
    if (this.gone) return;
    this.gone = true;
    this.forget(this.id);
    if (!fromPeer) this.send(CLOSE, this.id);
  }
}

/** Serves every connection the bridge opens on `carrier` with `proxy`, until the carrier ends. */
export function serveCarrier(carrier: Duplex, proxy: NetProxy): void {
  const streams = new Map<number, CarriedStream>();
  let pending: Buffer = Buffer.alloc(0);
  const send = (type: number, id: number, payload?: Buffer) => {
    if (carrier.destroyed || carrier.writableEnded) return;
    const header = Buffer.alloc(HEADER);
    header[0] = type;
    header.writeUInt32BE(id, 1);
    header.writeUInt32BE(payload?.length ?? 0, 5);
    carrier.write(payload === undefined ? header : Buffer.concat([header, payload]));
  };
  const forget = (id: number) => streams.delete(id);
  const endAll = () => {
    for (const stream of [...streams.values()]) stream.destroy();
    streams.clear();
  };
  carrier.on('error', endAll); // the sandbox ended: so do its connections
  carrier.on('close', endAll);
  carrier.on('data', (chunk: Buffer) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    while (pending.length >= HEADER) {
      const length = pending.readUInt32BE(5);
      if (length > MAX_FRAME) {
        carrier.destroy();
        return;
      }
      if (pending.length < HEADER + length) break;
      const type = pending[0]!;
      const id = pending.readUInt32BE(1);
      const payload = pending.subarray(HEADER, HEADER + length);
      pending = pending.subarray(HEADER + length);
      if (type === OPEN) {
        if (streams.has(id) || streams.size >= MAX_CONNECTIONS) {
          send(CLOSE, id);
          continue;
        }
        const stream = new CarriedStream(id, send, forget);
        streams.set(id, stream);
        proxy.handle(stream);
        continue;
      }
      const stream = streams.get(id);
      if (stream === undefined) continue; // closed here already
      if (type === DATA) stream.push(Buffer.from(payload));
      else if (type === END) stream.push(null);
      else if (type === CLOSE) {
        stream.closedByPeer(true);
        stream.destroy();
      } else {
        carrier.destroy(); // not a frame of this protocol
        return;
      }
    }
  });
}
