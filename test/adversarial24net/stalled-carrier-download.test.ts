// Finding (fixed): the carrier had no flow control towards the sandbox. The proxy
// piped an allowed upstream into the carried stream, whose _write sent a frame
// and called back at once, so the upstream was never paused: when the sandbox's
// end stopped reading its carrier (the bridge is the command's parent and runs
// as its user: `kill -STOP $PPID` stops it), every byte an allowed upstream sent
// was held in the zotbox host process. Now a connection has at most a window of
// data in flight without the bridge's credit, and the proxy stops reading the
// upstream when it is spent (src/host/net/carrier.ts publishes that moment on
// `zotbox:net.carrier.waiting`). What must not happen: an upstream delivering far
// more than the sandbox read, the difference held by the host. The sandbox end
// stays stopped until the proxy waits for it, then reads (and credits) the rest:
// all 128 MiB arrive, and at no point did the host hold more than a bound.
import { once } from 'node:events';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { createServer, type Socket } from 'node:net';
import test from 'ava';
import { carrier, DATA, heldBytes, MiB, OPEN } from './open/carrier.js';

const SENT = 128 * MiB;

test('an upstream cannot push more into the host than the sandbox reads', async (t) => {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  const accepted = once(server, 'connection') as Promise<[Socket]>;
  const c = await carrier([`127.0.0.1:${port}`], async () => []);
  t.teardown(() => {
    c.close();
    server.close();
  });
  c.sandbox.write(c.frame(OPEN, 1));
  c.sandbox.write(c.frame(DATA, 1, Buffer.from(`CONNECT 127.0.0.1:${port} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n\r\n`)));
  const [socket] = await accepted;
  t.teardown(() => socket.destroy());
  const answer = await c.waitFor(1, '\r\n\r\n');
  t.regex(answer, /^HTTP\/1\.1 200 /);
  const head = c.counted.get(1) ?? 0;
  // The bridge is stopped: the sandbox's end of the carrier reads nothing more, until the proxy waits for it.
  c.sandbox.pause();
  const before = heldBytes();
  const read = () => (c.counted.get(1) ?? 0) - head;
  const worst = { held: 0, unread: 0 };
  const measure = () => {
    worst.held = Math.max(worst.held, heldBytes() - before);
    worst.unread = Math.max(worst.unread, sent - read());
  };
  let sent = 0;
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    measure();
    c.credit(1);
    c.sandbox.resume();
  };
  let waited = false;
  const onWaiting = () => {
    waited = true;
    release();
  };
  subscribe('zotbox:net.carrier.waiting', onWaiting);
  t.teardown(() => unsubscribe('zotbox:net.carrier.waiting', onWaiting));
  const state = { cut: false };
  socket.once('close', () => (state.cut = true));
  socket.on('error', () => undefined);
  const slice = Buffer.alloc(MiB, 0x62);
  // The upstream writes as fast as it is let (each slice awaited: TCP flow control applies to it).
  while (sent < SENT && !state.cut) {
    await new Promise<void>((resolve) => socket.write(slice, () => resolve()));
    sent += slice.length;
    if (sent % (8 * MiB) === 0) measure(); // (a full collection per slice would be slow)
  }
  release(); // never waited (the host took it all): the sandbox reads what is left
  await new Promise<void>((resolve) => {
    const check = () => {
      if (read() < sent) return;
      c.sandbox.off('data', check);
      resolve();
    };
    c.sandbox.on('data', check);
    check();
  });
  t.log(worst);
  t.is(read(), SENT, 'the sandbox read every byte the upstream sent');
  t.true(waited, 'the proxy waited for the sandbox');
  t.true(
    worst.unread < 32 * MiB && worst.held < 32 * MiB,
    `at worst the upstream had delivered ${Math.round(worst.unread / MiB)} MiB more than the sandbox read, and the host held ${Math.round(worst.held / MiB)} MiB`,
  );
});
