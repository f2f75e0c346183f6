// The host's end of a sandbox's network carrier (issue 24 §1): one inherited
// socket pair per confined command, over which the bridge inside the sandbox
// (executors/confine/net-bridge.ts) multiplexes every TCP connection made to its
// loopback port. The seccomp filter refuses AF_UNIX sockets inside (a pathname
// socket in a scope is a host service), so the bridge cannot dial a proxy
// socket; it carries frames on the pair it was born with instead. Frames:
// type (1 byte: 1 open, 2 data, 3 end, 4 close, 5 credit), connection id (4
// bytes), payload length (4 bytes), payload. Each opened connection becomes a
// stream the proxy serves like any client; it decides everything.
//
// Flow control, both ways (the host's memory is not the command's to grow): each
// side may send at most WINDOW bytes of data on a connection beyond what the
// other side has granted with credit frames (a 4-byte count). The host grants
// credit as the proxy consumes what came in, and a connection that sends past
// its credit is cut; towards the sandbox, a stream's writes wait for the
// bridge's credit (so the proxy stops reading the upstream) and for the carrier
// to drain. A stopped or slow bridge stalls its connections; it never fills the host.
import { channel } from 'node:diagnostics_channel';
import { Duplex } from 'node:stream';
import { CARRIER_WINDOW } from '../executors/confine/net-bridge.js';
import type { NetProxy } from './net-proxy.js';

const OPEN = 1;
const DATA = 2;
const END = 3;
const CLOSE = 4;
const CREDIT = 5;
const HEADER = 9;
/** A frame larger than any credit is a broken carrier: it is cut. */
const MAX_FRAME = CARRIER_WINDOW;
const MAX_CONNECTIONS = 256;

/** Published ({ id }) when a stream's data waits for the sandbox's credit: the proxy has stopped reading its upstream. */
export const carrierWaitingChannel = channel('zotbox:net.carrier.waiting');

type Send = (type: number, id: number, payload?: Buffer) => boolean;

class CarriedStream extends Duplex {
  private gone = false;
  private ended = false;
  /** Data bytes the bridge sent, and the total it may send (the window plus every credit granted). */
  private received = 0;
  private granted = CARRIER_WINDOW;
  /** Data bytes this side may still send before the bridge grants more. */
  private credit = CARRIER_WINDOW;
  private waiting: { rest: Buffer; callback: (error?: Error | null) => void } | undefined;
  constructor(
    private readonly id: number,
    private readonly send: Send,
    private readonly afterDrain: (callback: () => void) => void,
    private readonly forget: (id: number) => void,
  ) {
    super({ allowHalfOpen: true });
  }
  /** Data from the bridge; false (and the stream cut) when it exceeds the credit granted. */
  arrived(payload: Buffer): boolean {
    if (this.received + payload.length > this.granted) return false;
    if (this.ended) return true; // after its end: nothing reads it
    this.received += payload.length;
    this.push(payload);
    return true;
  }
  /** The bridge's connection sent its end. */
  endArrived(): void {
    if (this.ended) return;
    this.ended = true;
    this.push(null);
  }
  /** The bridge's connection closed: what it sent before is still read (then the stream goes), nothing more is sent. */
  closedArrived(): void {
    this.closedByPeer(true);
    this.endArrived();
    if (this.readableLength === 0) this.destroy();
    else this.once('end', () => this.destroy());
  }
  /** The bridge granted `bytes` more: a write waiting for it goes on. */
  credited(bytes: number): void {
    this.credit += bytes;
    const waiting = this.waiting;
    if (waiting === undefined) return;
    this.waiting = undefined;
    this.sendData(waiting.rest, waiting.callback);
  }
  override _read(): void {
    // The proxy wants more: grant what it consumed, once a quarter window has gathered
    // (a bridge out of credit always gathers that much: at most the read buffer's bytes are unconsumed).
    if (this.gone) return;
    const consumed = this.received - this.readableLength;
    const more = consumed + CARRIER_WINDOW - this.granted;
    if (more < CARRIER_WINDOW / 4) return;
    this.granted += more;
    const payload = Buffer.alloc(4);
    payload.writeUInt32BE(more);
    this.send(CREDIT, this.id, payload);
  }
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.sendData(chunk, callback);
  }
  private sendData(chunk: Buffer, callback: (error?: Error | null) => void): void {
    if (this.gone) {
      callback();
      return;
    }
    const now = Math.min(this.credit, chunk.length);
    let drained = true;
    if (now > 0) {
      this.credit -= now;
      drained = this.send(DATA, this.id, chunk.subarray(0, now));
    }
    if (now < chunk.length) {
      // Out of credit: the callback waits, so the writer (the upstream's pipe) pauses.
      this.waiting = { rest: chunk.subarray(now), callback };
      if (carrierWaitingChannel.hasSubscribers) carrierWaitingChannel.publish({ id: this.id });
      return;
    }
    if (drained) callback();
    else this.afterDrain(() => callback());
  }
  override _final(callback: (error?: Error | null) => void): void {
    if (!this.gone) this.send(END, this.id);
    callback();
  }
  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.waiting = undefined;
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
  const send: Send = (type, id, payload) => {
    if (carrier.destroyed || carrier.writableEnded) return true;
    const header = Buffer.alloc(HEADER);
    header[0] = type;
    header.writeUInt32BE(id, 1);
    header.writeUInt32BE(payload?.length ?? 0, 5);
    return carrier.write(payload === undefined ? header : Buffer.concat([header, payload]));
  };
  // Writes that wait for the carrier to drain (the bridge reads slowly, or not at all).
  let drainWaiters: (() => void)[] = [];
  const afterDrain = (callback: () => void) => drainWaiters.push(callback);
  carrier.on('drain', () => {
    carrier.resume(); // paused below while the host's own frames to the sandbox were backed up
    const waiters = drainWaiters;
    drainWaiters = [];
    for (const waiter of waiters) waiter();
  });
  const forget = (id: number) => streams.delete(id);
  const endAll = () => {
    drainWaiters = [];
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
        const stream = new CarriedStream(id, send, afterDrain, forget);
        streams.set(id, stream);
        proxy.handle(stream);
        continue;
      }
      if (type < OPEN || type > CREDIT || (type === CREDIT && length !== 4)) {
        carrier.destroy(); // not a frame of this protocol
        return;
      }
      const stream = streams.get(id);
      if (stream === undefined) continue; // closed here already: what it still carries is dropped
      if (type === DATA) {
        // Copied: the frame's bytes share the carrier's chunk, which must not stay held by a slow reader.
        if (!stream.arrived(Buffer.from(payload))) stream.destroy(); // past its credit: the connection is cut
      } else if (type === END) stream.endArrived();
      else if (type === CREDIT) stream.credited(payload.readUInt32BE(0));
      else stream.closedArrived();
    }
    // The frames the host sends back (a CLOSE for each refused OPEN, CREDIT, END) are as many as the sandbox makes it
    // send: while the sandbox does not take them, the host takes nothing more from it, so what it holds stays bounded.
    if (carrier.writableNeedDrain) carrier.pause();
  });
}
