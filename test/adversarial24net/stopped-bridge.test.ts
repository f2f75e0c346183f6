// Finding (fixed, end to end): a command could stop its network bridge and make
// the host hold everything an allowed upstream sent. The bridge is the command's
// parent and runs as its user in the same PID namespace, so `kill(getppid(),
// SIGSTOP)` stops it; it then reads nothing from its carrier, and the host's
// carrier wrote on without looking at backpressure while the proxy kept reading
// the upstream. Now each connection has a window of data in flight without the
// bridge's credit (src/host/net/carrier.ts): when it is spent, the proxy stops
// reading the upstream, and says so on `zotbox:net.carrier.waiting`. The command
// opens a tunnel to the test's upstream (listed by address and port), stops the
// bridge, and says so with a file in the workspace; the upstream then sends 128
// MiB as fast as TCP lets it. When the proxy waits, the test lets the command
// wake its bridge and read everything. What must not happen: the host holding
// what the stopped bridge did not take; and the command must get every byte.
import { once } from 'node:events';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { existsSync, watch, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import path from 'node:path';
import test from 'ava';
import { heldBytes, MiB } from './open/carrier.js';
import { replay, world } from './open/world.js';

const SENT = 128 * MiB;

const STOP = String.raw`
const net = require('node:net');
const fs = require('node:fs');
const port = Number(process.argv[2]);
const s = net.connect(3128, '127.0.0.1', () => s.write('CONNECT 127.0.0.1:' + port + ' HTTP/1.1\r\n\r\n'));
s.on('error', () => {});
let answered = false;
let bytes = 0;
s.on('data', (d) => {
  if (answered) return void (bytes += d.length);
  answered = true;
  process.stdout.write(String(d).split('\r\n')[0] + '\n');
  process.kill(process.ppid, 'SIGSTOP');
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.kill(process.ppid, 'SIGCONT');
  };
  fs.watch('.', (_event, name) => name === 'release' && release());
  if (fs.existsSync('release')) release();
  fs.writeFileSync('stopped', '');
});
s.on('end', () => {
  process.stdout.write('read ' + bytes + '\n');
  process.exit(0);
});
`;

test('a stopped bridge does not make the host hold what an upstream sends', async (t) => {
  const w = world(t);
  writeFileSync(path.join(w.ws, 'stop.js'), STOP);
  const upstream = createServer();
  upstream.listen(0, '127.0.0.1');
  await once(upstream, 'listening');
  t.teardown(() => upstream.close());
  const port = (upstream.address() as { port: number }).port;
  const stopped = new Promise<void>((resolve) => {
    const watcher = watch(w.ws, (_event, name) => {
      if (name === 'stopped') {
        watcher.close();
        resolve();
      }
    });
    t.teardown(() => watcher.close());
  });
  const before = heldBytes();
  const outcome = { sent: 0, held: 0, waited: false, released: false };
  const release = () => {
    if (outcome.released) return;
    outcome.released = true;
    outcome.held = Math.max(outcome.held, heldBytes() - before);
    writeFileSync(path.join(w.ws, 'release'), '');
  };
  const onWaiting = () => {
    outcome.waited = true;
    release();
  };
  subscribe('zotbox:net.carrier.waiting', onWaiting);
  t.teardown(() => unsubscribe('zotbox:net.carrier.waiting', onWaiting));
  upstream.on('connection', (socket: Socket) => {
    socket.on('error', () => undefined);
    const state = { cut: false };
    socket.once('close', () => (state.cut = true));
    void (async () => {
      await stopped;
      const slice = Buffer.alloc(MiB, 0x62);
      while (outcome.sent < SENT && !state.cut) {
        await new Promise<void>((resolve) => socket.write(slice, () => resolve()));
        outcome.sent += slice.length;
        // A full collection per slice would be slow: every 8 MiB.
        if (outcome.sent % (8 * MiB) === 0) outcome.held = Math.max(outcome.held, heldBytes() - before);
      }
      release(); // the host took it all without waiting: the command may go on
      socket.end();
    })();
  });
  const result = await replay(w, [`127.0.0.1:${port}`], [`node stop.js ${port}`], ['node']);
  t.log(result.stdout.slice(-1500), result.stderr.slice(-500));
  t.true(existsSync(path.join(w.ws, 'stopped')), 'the command stopped its bridge');
  t.true(outcome.waited, 'the proxy waited for the stopped bridge');
  t.true(outcome.held < 32 * MiB, `with the bridge stopped, the upstream delivered ${Math.round(outcome.sent / MiB)} MiB and the host held ${Math.round(outcome.held / MiB)} MiB`);
  t.true(result.stdout.includes(`read ${SENT}`), 'the command read every byte once its bridge went on');
});
