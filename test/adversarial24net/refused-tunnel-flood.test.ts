// Finding (fixed: the proxy reads and drops what comes after its 403, then closes
// the connection; the carrier's credit bounds what may be in flight): the host's proxy held, without bound, whatever a sandboxed command
// sends on a connection nobody reads. After a CONNECT the proxy refuses (a host
// not on the list: no allowed upstream is needed at all), the proxy answers 403
// and ends its side, but the connection's readable side stays open; the carrier
// (src/host/net/carrier.ts) pushes every later DATA frame into that stream
// (`stream.push` with its return value ignored) and reads the carrier on. So a
// command inside the sandbox, under its own memory limit, grows the memory of the
// zotbox host process (which holds the model keys and every other run) by as much
// as it writes. What must not happen: the host holding what the command sent.
import test from 'ava';
import { carrier, DATA, heldBytes, MiB, OPEN } from './open/carrier.js';

const SENT = 128 * MiB;

test('bytes sent after a refused CONNECT are not held by the host', async (t) => {
  const c = await carrier(['api.example.com'], async () => ['93.184.215.14']);
  t.teardown(() => c.close());
  c.sandbox.write(c.frame(OPEN, 1));
  c.sandbox.write(c.frame(DATA, 1, Buffer.from('CONNECT not-listed.example.net:443 HTTP/1.1\r\nhost: not-listed.example.net:443\r\n\r\n')));
  const answer = await c.waitFor(1, '\r\n\r\n');
  t.regex(answer, /^HTTP\/1\.1 403 /);
  const before = heldBytes();
  // The command keeps writing on the connection the proxy refused (a slice of 1 MiB, the largest frame).
  const slice = Buffer.alloc(MiB - 9, 0x61);
  let sent = 0;
  const state = { cut: false };
  c.sandbox.once('close', () => (state.cut = true));
  while (sent < SENT && !state.cut) {
    await new Promise<void>((resolve) => c.sandbox.write(c.frame(DATA, 1, slice), () => resolve()));
    sent += slice.length;
  }
  // Everything written has left this socket's buffer; the kernel holds a few MiB at most, the host read the rest.
  const held = heldBytes() - before;
  t.true(held < 32 * MiB, `the host holds ${Math.round(held / MiB)} MiB of the ${Math.round(sent / MiB)} MiB sent on a refused connection`);
});
