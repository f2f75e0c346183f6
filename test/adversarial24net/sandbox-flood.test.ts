// Finding (fixed, end to end; see refused-tunnel-flood.test.ts): a command in the real sandbox grew the zotbox host
// process's memory by whatever it writes on a tunnel the proxy refused. The
// command connects to the bridge (127.0.0.1:3128), asks CONNECT for a host not on
// the list, gets 403, and keeps writing (its socket half-open); the bridge carries
// every byte to the host, whose carrier holds it (see refused-tunnel-flood.open.ts
// for the cause). The command's own limits (4 GiB, a cgroup) do not apply to the
// host. Then, to mark the moment, it opens a second connection, a CONNECT to the
// test's upstream: frames cross the carrier in order, so when the upstream sees
// it, the host has read every byte of the first connection. What must not happen:
// the host holding those bytes.
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import path from 'node:path';
import test from 'ava';
import { heldBytes, MiB } from './open/carrier.js';
import { events, replay, world } from './open/world.js';

const FLOOD = String.raw`
const net = require('node:net');
const port = Number(process.argv[2]);
const s = net.connect({ port: 3128, host: '127.0.0.1', allowHalfOpen: true }, () => s.write('CONNECT not-listed.example.net:443 HTTP/1.1\r\n\r\n'));
s.on('error', () => {});
let answer = '';
let flooding = false;
s.on('data', (d) => {
  answer += d;
  if (flooding || !answer.includes('\r\n\r\n')) return;
  flooding = true;
  process.stdout.write(answer.split('\r\n')[0] + '\n');
  const slice = Buffer.alloc(1 << 20, 97);
  let n = 0;
  const next = () => (n++ < 128 ? s.write(slice, next) : mark());
  next();
});
function mark() {
  const m = net.connect(3128, '127.0.0.1', () => m.write('CONNECT 127.0.0.1:' + port + ' HTTP/1.1\r\n\r\n'));
  m.on('data', () => {});
  m.on('error', () => process.exit(0));
  m.on('close', () => process.exit(0));
}
`;

test('a command cannot grow the host by writing on a refused tunnel', async (t) => {
  const w = world(t);
  writeFileSync(path.join(w.ws, 'flood.js'), FLOOD);
  const upstream = createServer();
  upstream.listen(0, '127.0.0.1');
  await once(upstream, 'listening');
  t.teardown(() => upstream.close());
  const port = (upstream.address() as { port: number }).port;
  const before = heldBytes();
  let held: number | undefined;
  upstream.on('connection', (socket: Socket) => {
    held = heldBytes() - before;
    socket.end();
  });
  const result = await replay(w, [`127.0.0.1:${port}`], [`node flood.js ${port}`], ['node']);
  t.log(result.stdout.slice(-2000), result.stderr.slice(-1000));
  t.not(held, undefined, 'the command reached the marking upstream');
  // The refused attempt's bytes out are what the proxy received on it, its CONNECT line at least (it was 0).
  const refused = events(result, 'net.connect').find((event) => event.allowed === false);
  t.true(Number(refused?.bytes_out) >= 'CONNECT not-listed.example.net:443 HTTP/1.1\r\n\r\n'.length, `the refused attempt reports ${String(refused?.bytes_out)} bytes out`);
  t.true((held ?? 0) < 32 * MiB, `while the command ran, the host held ${Math.round((held ?? 0) / MiB)} MiB of the 128 MiB it wrote on a refused tunnel`);
});
