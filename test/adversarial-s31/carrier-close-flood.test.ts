// Review s31, net.allow carrier credit (briefed without the feature's tests): the host's
// answers that no credit governs. A bridge that never reads its end and sends OPEN frames
// the host refuses (an id already open, or past the connection cap) gets one CLOSE frame
// written back for each; carrier.write's result is ignored for CLOSE and CREDIT frames, so
// the host's write buffer grows with every 9 bytes the sandbox sends, without bound.
// Expected by hand: a stopped bridge "never fills the host" (carrier.ts): what the host
// holds towards it stays within a fixed bound, here 1 MiB, while the sandbox offers 4 MB
// of refused OPENs. The carrier is a Duplex whose writes never complete (a bridge that
// does not read); the sandbox's frames are pushed as a socket delivers them, only while
// the host reads (push's answer and read() are the kernel's socket buffer here). The
// host's way out is to stop reading (its carrier pauses): awaited as that event.
import { Duplex } from 'node:stream';
import test from 'ava';
import { serveCarrier } from '../../src/host/net/carrier.js';
import { createNetProxy } from '../../src/host/net/net-proxy.js';
import { compileNetAllow } from '../../src/policy/net-allow.js';

function frame(type: number, id: number): Buffer {
  const header = Buffer.alloc(9);
  header[0] = type;
  header.writeUInt32BE(id, 1);
  header.writeUInt32BE(0, 5);
  return header;
}

test('refused OPEN frames from a bridge that never reads do not grow the host buffer without bound', async (t) => {
  const compiled = compileNetAllow(['api.example.com']);
  if (!compiled.ok) throw new Error(compiled.reason);
  const proxy = createNetProxy({ rules: compiled.rules, resolver: async () => [] });
  t.teardown(() => proxy.close());
  // Last, a new connection: served only after every frame before it (frames are served in order).
  const frames = [frame(1, 1), ...Array.from({ length: 450 }, () => Buffer.concat(Array.from({ length: 1000 }, () => frame(1, 1)))), frame(1, 2)];
  let offered = 0;
  const carrier = new Duplex({
    read() {
      // The sandbox writes on while the host reads: 450,000 OPENs of an id already open, about 4 MB.
      while (offered < frames.length) if (!this.push(frames[offered++])) return;
    },
    write(_chunk, _encoding, _callback) {
      // The bridge never reads: no write completes.
    },
  });
  const paused = new Promise<void>((resolve) => carrier.once('pause', () => resolve()));
  let served!: () => void;
  const everyFrameServed = new Promise<void>((resolve) => (served = resolve));
  let handled = 0;
  serveCarrier(carrier, {
    ...proxy,
    handle: (stream) => {
      if (++handled === 2) served();
      proxy.handle(stream);
    },
  });
  // Either the host stops taking frames, or it took them all (and then holds what it answered).
  await Promise.race([paused, everyFrameServed]);
  t.false(carrier.destroyed, 'the carrier was not cut for the flood');
  t.true(offered < frames.length, 'the host stopped taking frames while its answers were not taken');
  t.true(carrier.writableLength <= 1024 * 1024, `the host holds ${carrier.writableLength} bytes for a bridge that reads nothing`);
});
