// The carrier's flow control (issue 24 §1, review findings refused-tunnel-flood,
// stalled-carrier-download): each connection may have at most a window of data
// in flight without the other side's credit. The host cuts a connection that
// sends past its credit, answers and closes a refused tunnel (what came after
// the request counted, then dropped), and never loses what an upstream sent
// before it ended while that data waits for the sandbox's credit. The sandbox's
// end is played with the bridge's frames over a real socket pair.
import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import test from 'ava';
import { CARRIER_WINDOW } from '../../../src/host/executors/confine/net-bridge.js';
import { carrier, CREDIT, DATA, OPEN } from '../../adversarial24net/open/carrier.js';

async function upstream(onSocket: (socket: Socket) => void): Promise<{ port: number; close: () => void }> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => undefined);
    onSocket(socket);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as { port: number }).port,
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

test('a connection that sends past its credit is cut', async (t) => {
  // The upstream does not read: the proxy grants no credit beyond the first window.
  const up = await upstream((socket) => socket.pause());
  t.teardown(up.close);
  const c = await carrier([`127.0.0.1:${up.port}`], async () => []);
  t.teardown(() => c.close());
  c.sandbox.write(c.frame(OPEN, 1));
  const connect = Buffer.from(`CONNECT 127.0.0.1:${up.port} HTTP/1.1\r\n\r\n`);
  c.sandbox.write(c.frame(DATA, 1, connect));
  t.regex(await c.waitFor(1, '\r\n\r\n'), /^HTTP\/1\.1 200 /);
  let cut = false;
  void c.closed(1).then(() => (cut = true));
  // The window, less the CONNECT it already carried, then one byte more.
  c.sandbox.write(c.frame(DATA, 1, Buffer.alloc(CARRIER_WINDOW - connect.length, 0x61)));
  c.sandbox.write(c.frame(DATA, 1, Buffer.from('!')));
  // Frames are served in order: when a later connection's answer is out, the cut was made.
  c.sandbox.write(c.frame(OPEN, 2));
  c.sandbox.write(c.frame(DATA, 2, Buffer.from('CONNECT not-listed.example.net:443 HTTP/1.1\r\n\r\n')));
  await c.waitFor(2, '\r\n\r\n');
  t.true(cut, 'the connection that sent past its credit was closed');
});

test('a refused CONNECT is answered and closed, and what the command sent on it is counted, not held', async (t) => {
  const c = await carrier(['api.example.com'], async () => ['93.184.215.14']);
  t.teardown(() => c.close());
  const recorded = c.nextRecord();
  const request = 'CONNECT not-listed.example.net:443 HTTP/1.1\r\n\r\n';
  c.sandbox.write(c.frame(OPEN, 1));
  c.sandbox.write(c.frame(DATA, 1, Buffer.concat([Buffer.from(request), Buffer.alloc(1000, 0x61)])));
  await c.closed(1);
  t.regex((c.received.get(1) ?? Buffer.alloc(0)).toString('latin1'), /^HTTP\/1\.1 403 /);
  const record = await recorded;
  t.like(record, { host: 'not-listed.example.net', port: 443, allowed: false, bytesIn: 0 });
  t.is(record.bytesOut, request.length + 1000, 'its request and the bytes written after it');
});

test('an upstream that ends has its last bytes delivered, though they wait for the sandbox', async (t) => {
  const head = 'HTTP/1.1 200 Connection Established\r\n\r\n'.length;
  const tail = Buffer.alloc(10_000, 0x62);
  const sockets: Socket[] = [];
  const up = await upstream((socket) => sockets.push(socket));
  t.teardown(up.close);
  const c = await carrier([`127.0.0.1:${up.port}`], async () => []);
  t.teardown(() => c.close());
  const recorded = c.nextRecord();
  c.sandbox.write(c.frame(OPEN, 1));
  c.sandbox.write(c.frame(DATA, 1, Buffer.from(`CONNECT 127.0.0.1:${up.port} HTTP/1.1\r\n\r\n`)));
  await c.waitFor(1, '\r\n\r\n');
  // First a whole window (with the 200 line): then the proxy has no credit left.
  sockets[0]!.write(Buffer.alloc(CARRIER_WINDOW - head, 0x61));
  await new Promise<void>((resolve) => {
    const check = () => {
      if ((c.counted.get(1) ?? 0) < CARRIER_WINDOW) return;
      c.sandbox.off('data', check);
      resolve();
    };
    c.sandbox.on('data', check);
    check();
  });
  // Then the last bytes and the end: the proxy reads them, they wait for credit, and the upstream's connection closes.
  sockets[0]!.end(tail);
  const record = await recorded;
  t.is(record.bytesIn, CARRIER_WINDOW - head + tail.length);
  c.credit(1);
  await c.closed(1);
  t.is(c.counted.get(1), CARRIER_WINDOW + tail.length, 'every byte arrived before the connection was closed');
});

test('what the sandbox sends within its credit reaches the upstream: the proxy grants credit as the upstream takes it', async (t) => {
  const total = 16 * CARRIER_WINDOW;
  let got = 0;
  const finishing: { done?: () => void } = {};
  const finished = new Promise<void>((resolve) => (finishing.done = resolve));
  const up = await upstream((socket) =>
    socket.on('data', (chunk: Buffer) => {
      got += chunk.length;
      if (got >= total) finishing.done?.();
    }),
  );
  t.teardown(up.close);
  const c = await carrier([`127.0.0.1:${up.port}`], async () => []);
  t.teardown(() => c.close());
  // The sandbox's end as the bridge plays it: data only as far as the host's credit goes.
  let credit = CARRIER_WINDOW;
  let left = total;
  let pending = Buffer.alloc(0);
  const pump = () => {
    while (left > 0 && credit > 0) {
      const n = Math.min(credit, left, 65536);
      c.sandbox.write(c.frame(DATA, 1, Buffer.alloc(n, 0x61)));
      credit -= n;
      left -= n;
    }
  };
  c.sandbox.on('data', (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    while (pending.length >= 9) {
      const length = pending.readUInt32BE(5);
      if (pending.length < 9 + length) break;
      if (pending[0] === CREDIT) {
        credit += pending.readUInt32BE(9);
        pump();
      }
      pending = pending.subarray(9 + length);
    }
  });
  const connect = Buffer.from(`CONNECT 127.0.0.1:${up.port} HTTP/1.1\r\n\r\n`);
  credit -= connect.length;
  c.sandbox.write(c.frame(OPEN, 1));
  c.sandbox.write(c.frame(DATA, 1, connect));
  t.regex(await c.waitFor(1, '\r\n\r\n'), /^HTTP\/1\.1 200 /);
  pump();
  await finished;
  t.is(got, total, 'sixteen windows went through, so the proxy granted credit');
});
