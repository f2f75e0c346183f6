// The call's proxy (issue 24 §1) records every allowed attempt as a net.connect,
// also one still open when the call ends: a command that exits before the proxy
// has seen its connection close (curl done with a body, the upstream not yet) must
// not lose the event. The moment is the worst one by construction: the upstream
// holds the connection open, and the proxy is closed once the tunnel is up.
import test from 'ava';
import { once } from 'node:events';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { Duplex, PassThrough } from 'node:stream';
import { createNetProxy } from '../../../src/host/net/net-proxy.js';
import { compileNetAllow } from '../../../src/policy/net-allow.js';

/** A client end for the proxy's handle(), and the test's end to write requests into and read answers from. */
function pipePair(): { proxySide: Duplex; clientWrites: PassThrough; clientReads: PassThrough } {
  const clientWrites = new PassThrough();
  const clientReads = new PassThrough();
  const proxySide = Duplex.from({ readable: clientWrites, writable: clientReads });
  return { proxySide, clientWrites, clientReads };
}

test('a tunnel still open when the call ends is recorded, allowed, with its bytes so far', async (t) => {
  const held: Socket[] = [];
  const upstream = createServer((socket) => {
    held.push(socket);
    socket.write('hello');
  });
  upstream.listen(0, '127.0.0.1');
  await once(upstream, 'listening');
  t.teardown(() => {
    for (const socket of held) socket.destroy();
    upstream.close();
  });
  const port = (upstream.address() as AddressInfo).port;
  const compiled = compileNetAllow([`upstream.test:${port}`, `127.0.0.1:${port}`]);
  if (!compiled.ok) throw new Error(compiled.reason);
  const proxy = createNetProxy({ rules: compiled.rules, resolver: async () => ['127.0.0.1'] });
  const { proxySide, clientWrites, clientReads } = pipePair();
  proxy.handle(proxySide);
  clientWrites.write(`CONNECT upstream.test:${port} HTTP/1.1\r\nhost: upstream.test:${port}\r\n\r\n`);
  // The tunnel is up and the upstream's first bytes came through: the connection is open.
  let seen = '';
  for await (const chunk of clientReads) {
    seen += String(chunk);
    if (seen.includes('hello')) break;
  }
  t.deepEqual(proxy.connections(), [], 'nothing ended yet');
  proxy.close();
  const [recorded] = proxy.connections();
  t.like(recorded, { host: 'upstream.test', port, allowed: true, address: '127.0.0.1', bytesIn: 5 });
  t.regex(recorded?.reason ?? '', /^allowed by upstream\.test:\d+; the call ended before the connection did$/u);
  t.is(proxy.connections().length, 1, 'recorded once, though the streams close after');
});
