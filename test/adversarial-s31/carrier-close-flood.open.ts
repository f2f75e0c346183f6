// Review s31, net.allow carrier credit (briefed without the feature's tests): the host's
// answers that no credit governs. A bridge that never reads its end and sends OPEN frames
// the host refuses (an id already open, or past the connection cap) gets one CLOSE frame
// written back for each; carrier.write's result is ignored for CLOSE and CREDIT frames, so
// the host's write buffer grows with every 9 bytes the sandbox sends, without bound.
// Expected by hand: a stopped bridge "never fills the host" (carrier.ts): what the host
// holds towards it stays within a fixed bound, here 1 MiB after 4 MB of refused OPENs.
// The carrier is a Duplex whose writes never complete (a bridge that does not read) and
// whose frames are pushed into serveCarrier; a last OPEN of a new id reaching the proxy says
// every frame before it was served (frames are served in order).
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
  const carrier = new Duplex({
    read() {},
    write(_chunk, _encoding, _callback) {
      // The bridge never reads: no write completes.
    },
  });
  let served!: () => void;
  const lastServed = new Promise<void>((resolve) => (served = resolve));
  let handled = 0;
  serveCarrier(carrier, {
    ...proxy,
    handle: (stream) => {
      handled++;
      if (handled === 2) served();
      proxy.handle(stream);
    },
  });
  carrier.push(frame(1, 1)); // connection 1 opens
  const repeat = Buffer.concat(Array.from({ length: 1000 }, () => frame(1, 1)));
  for (let round = 0; round < 450; round++) carrier.push(repeat); // 450,000 OPENs of an open id: about 4 MB
  carrier.push(frame(1, 2)); // a new connection: served after every frame before it
  await lastServed;
  t.false(carrier.destroyed, 'the carrier was not cut for the flood');
  t.true(carrier.writableLength <= 1024 * 1024, `the host holds ${carrier.writableLength} bytes for a bridge that reads nothing`);
});
