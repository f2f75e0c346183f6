// Finding: an entry naming the unspecified address reaches the host's loopback.
// `0.0.0.0:PORT` and `[::]:PORT` pass the entry grammar (an address with a port),
// and the proxy lets a listed non-routable literal through; but Linux connects a
// socket aimed at 0.0.0.0 (or ::) to the local host, so the proxy, which runs in
// the host, reaches the host's own loopback services. docs/permissions.md says
// loopback is reached as `localhost:PORT` and that the list consent shows is the
// list enforced; consent showing "0.0.0.0:8080" (often read as "any address")
// grants the host's 127.0.0.1:8080. What must not happen: a connection to a
// service listening only on the host's loopback through an entry that does not
// name loopback.
import { once } from 'node:events';
import { createServer, type Server } from 'node:net';
import test from 'ava';
import { carrier, DATA, OPEN } from './carrier.js';

async function listen(host: string): Promise<{ server: Server; port: number; reached: { count: number } }> {
  const server = createServer();
  const reached = { count: 0 };
  server.on('connection', (socket) => {
    reached.count++;
    socket.destroy();
  });
  server.listen(0, host);
  await once(server, 'listening');
  return { server, port: (server.address() as { port: number }).port, reached };
}

for (const [entryHost, connectHost, loopback] of [
  ['0.0.0.0', '0.0.0.0', '127.0.0.1'],
  ['[::]', '[::]', '::1'],
] as const) {
  test(`${entryHost}:PORT does not reach the host's loopback`, async (t) => {
    const { server, port, reached } = await listen(loopback);
    t.teardown(() => server.close());
    const c = await carrier([`${entryHost}:${port}`], async () => []);
    t.teardown(() => c.close());
    c.sandbox.write(c.frame(OPEN, 1));
    c.sandbox.write(c.frame(DATA, 1, Buffer.from(`CONNECT ${connectHost}:${port} HTTP/1.1\r\n\r\n`)));
    const answer = await c.waitFor(1, '\r\n\r\n');
    t.log(answer.split('\r\n')[0]);
    t.is(reached.count, 0, `CONNECT ${connectHost}:${port} reached the service listening on ${loopback}:${port} only`);
    t.notRegex(answer, /^HTTP\/1\.1 200 /);
  });
}
