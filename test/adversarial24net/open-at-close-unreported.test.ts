// Finding: a connection still open when the call ends is not reported. The call's
// network (src/host/net/call-network.ts) promises that closing it "ends every
// connection and gives the attempts it saw"; docs/permissions.md and
// docs/security.md promise a net.connect event per attempt. But the proxy records
// an allowed tunnel only on its upstream's 'close', and close() destroys the open
// streams and returns the records in the same tick: the 'close' events come after
// the list was taken. End to end this is a race between the command's exit and the
// call's end (seen with the real sandbox: a tunnel that had carried 16 MiB missing
// from the events in one of three runs, and every time the host's carrier had a
// backlog); here it is deterministic, the call ended with the tunnel open. What
// must not happen: an allowed connection that carried bytes missing from the list.
import { once } from 'node:events';
import { connect, createServer, type Socket } from 'node:net';
import test from 'ava';
import { createCallNetwork } from '../../src/host/net/call-network.js';
import { compileNetAllow } from '../../src/policy/net-allow.js';
import { DATA, OPEN } from './open/carrier.js';

const frame = (type: number, id: number, payload?: Buffer) => {
  const header = Buffer.alloc(9);
  header[0] = type;
  header.writeUInt32BE(id, 1);
  header.writeUInt32BE(payload?.length ?? 0, 5);
  return payload === undefined ? header : Buffer.concat([header, payload]);
};

test('closing the call network reports the tunnel that was still open', async (t) => {
  const upstream = createServer();
  upstream.listen(0, '127.0.0.1');
  await once(upstream, 'listening');
  const port = (upstream.address() as { port: number }).port;
  const compiled = compileNetAllow([`127.0.0.1:${port}`]);
  if (!compiled.ok) throw new Error(compiled.reason);
  const network = createCallNetwork(compiled.rules);
  if (network === undefined) throw new Error('no network for a non-empty list');
  const call = network.open();
  // The carrier: a real socket pair over loopback; this end plays the bridge.
  const pairServer = createServer();
  pairServer.listen(0, '127.0.0.1');
  await once(pairServer, 'listening');
  const accepted = once(pairServer, 'connection') as Promise<[Socket]>;
  const sandbox = connect((pairServer.address() as { port: number }).port, '127.0.0.1');
  const [host] = await accepted;
  pairServer.close();
  sandbox.on('error', () => undefined);
  host.on('error', () => undefined);
  t.teardown(() => {
    sandbox.destroy();
    host.destroy();
    upstream.close();
  });
  call.attach(host);
  const upstreamSocket = once(upstream, 'connection') as Promise<[Socket]>;
  sandbox.write(frame(OPEN, 1));
  sandbox.write(frame(DATA, 1, Buffer.from(`CONNECT 127.0.0.1:${port} HTTP/1.1\r\n\r\n`)));
  const [socket] = await upstreamSocket;
  t.teardown(() => socket.destroy());
  socket.on('error', () => undefined);
  // The tunnel carries 19 bytes out once it is established.
  let answer = '';
  await new Promise<void>((resolve) => {
    sandbox.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
      if (answer.includes('\r\n\r\n')) resolve();
    });
  });
  sandbox.write(frame(DATA, 1, Buffer.from('the secret, leaving')));
  let received = '';
  await new Promise<void>((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString();
      if (received.length >= 19) resolve();
    });
  });
  t.is(received, 'the secret, leaving');
  // The call ends with the tunnel open.
  const connections = call.close();
  t.deepEqual(
    connections.map((c) => ({ host: c.host, port: c.port, allowed: c.allowed, bytesOut: c.bytesOut })),
    [{ host: '127.0.0.1', port, allowed: true, bytesOut: 19 }],
  );
});
