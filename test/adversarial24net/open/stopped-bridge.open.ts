// Finding (end to end): a command can stop its network bridge and make the host
// hold everything an allowed upstream sends. The bridge is the command's parent
// and runs as its user in the same PID namespace, so `kill(getppid(), SIGSTOP)`
// stops it; the bridge then reads nothing from its carrier, and the host's
// carrier (src/host/net/carrier.ts) writes on without looking at backpressure
// while the proxy keeps reading the upstream. The command opens a tunnel to the
// test's upstream (listed by address and port), stops the bridge, and says so
// with a file in the workspace; the upstream then sends 128 MiB as fast as TCP
// lets it. What must not happen: the upstream delivering it all while the sandbox
// reads nothing, the host holding it. (Under a fix that pauses the upstream, the
// upstream below never finishes; a fix that cuts the connection ends it early.)
import { once } from 'node:events';
import { existsSync, watch, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import path from 'node:path';
import test from 'ava';
import { heldBytes, MiB } from './carrier.js';
import { replay, world } from './world.js';

const STOP = String.raw`
const net = require('node:net');
const fs = require('node:fs');
const port = Number(process.argv[2]);
const s = net.connect(3128, '127.0.0.1', () => s.write('CONNECT 127.0.0.1:' + port + ' HTTP/1.1\r\n\r\n'));
s.on('error', () => {});
s.once('data', (d) => {
  process.stdout.write(String(d).split('\r\n')[0] + '\n');
  s.pause();
  process.kill(process.ppid, 'SIGSTOP');
  const release = () => {
    process.kill(process.ppid, 'SIGCONT');
    process.exit(0);
  };
  fs.watch('.', (_event, name) => name === 'release' && release());
  if (fs.existsSync('release')) release();
  fs.writeFileSync('stopped', '');
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
  const outcome: { sent: number; held?: number } = { sent: 0 };
  upstream.on('connection', (socket: Socket) => {
    socket.on('error', () => undefined);
    const state = { cut: false };
    socket.once('close', () => (state.cut = true));
    void (async () => {
      await stopped;
      const slice = Buffer.alloc(MiB, 0x62);
      while (outcome.sent < 128 * MiB && !state.cut) {
        await new Promise<void>((resolve) => socket.write(slice, () => resolve()));
        outcome.sent += slice.length;
      }
      outcome.held = heldBytes() - before;
      writeFileSync(path.join(w.ws, 'release'), '');
      socket.destroy();
    })();
  });
  const result = await replay(w, [`127.0.0.1:${port}`], [`node stop.js ${port}`], ['node']);
  t.log(result.stdout.slice(-1500), result.stderr.slice(-500));
  t.true(existsSync(path.join(w.ws, 'stopped')), 'the command stopped its bridge');
  t.not(outcome.held, undefined, 'the upstream finished');
  t.true((outcome.held ?? 0) < 32 * MiB, `with the bridge stopped, the upstream delivered ${Math.round(outcome.sent / MiB)} MiB and the host held ${Math.round((outcome.held ?? 0) / MiB)} MiB`);
});
