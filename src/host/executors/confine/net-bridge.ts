// The sandbox's end of the network (issue 24 §1): a small Node program that
// listens on 127.0.0.1:3128 inside the command's own network namespace (which
// has no interface but loopback), carries each TCP connection made to it as
// frames over an inherited socket pair to the host's proxy (host/net/carrier.ts),
// then runs the approved command as its child and exits as it does. It holds no
// decision: the proxy decides every connection. It starts before the command,
// so nothing the command runs can take its port. It keeps the carrier's flow
// control (credit frames): it sends what the command writes only as the host's
// credit allows, and grants credit as the command's socket takes what came in.
import { ZotboxError } from '../../../errors.js';

/** The proxy's address inside every sandbox that has net.allow. */
export const BRIDGE_PORT = 3128;
export const PROXY_URL = `http://127.0.0.1:${BRIDGE_PORT}`;
/** Data either end of the carrier may have in flight on one connection without the other's credit (host/net/carrier.ts). */
export const CARRIER_WINDOW = 128 * 1024;

/** Directories the sandbox mounts from the system (system-mounts.ts): the node that runs the bridge must be in one. */
const VISIBLE_ROOTS = ['/usr/', '/bin/', '/sbin/', '/lib/', '/lib64/', '/opt/'];

const SCRIPT = String.raw`'use strict';
const net = require('node:net');
const { spawn } = require('node:child_process');
const { constants } = require('node:os');
const [fdText, portText, windowText, file, ...args] = process.argv.slice(1);
const carrierFd = Number(fdText);
// Flow control (host/net/carrier.ts): at most WINDOW bytes in flight each way per connection without the other side's credit.
const WINDOW = Number(windowText);
const carrier = new net.Socket({ fd: carrierFd, readable: true, writable: true });
const conns = new Map();
let next = 1;
function send(type, id, payload) {
  const header = Buffer.alloc(9);
  header[0] = type;
  header.writeUInt32BE(id, 1);
  header.writeUInt32BE(payload ? payload.length : 0, 5);
  carrier.write(payload ? Buffer.concat([header, payload]) : header);
}
function credit(id, bytes) {
  const payload = Buffer.alloc(4);
  payload.writeUInt32BE(bytes);
  send(5, id, payload);
}
// What the command wrote, sent as the host's credit allows; the socket is paused while some waits.
function flush(c) {
  while (c.queue.length > 0 && c.credit > 0) {
    const head = c.queue[0];
    const now = Math.min(head.length, c.credit);
    send(2, c.id, head.subarray(0, now));
    c.credit -= now;
    if (now === head.length) c.queue.shift();
    else c.queue[0] = head.subarray(now);
  }
  if (c.queue.length > 0) return c.sock.pause();
  if (c.ending) { c.ending = false; send(3, c.id); }
  // Closed only once all it wrote went out.
  if (c.closing) { conns.delete(c.id); send(4, c.id); return; }
  c.sock.resume();
}
let pending = Buffer.alloc(0);
carrier.on('data', (chunk) => {
  pending = Buffer.concat([pending, chunk]);
  while (pending.length >= 9) {
    const length = pending.readUInt32BE(5);
    if (pending.length < 9 + length) break;
    const type = pending[0];
    const id = pending.readUInt32BE(1);
    const payload = pending.subarray(9, 9 + length);
    pending = pending.subarray(9 + length);
    const c = conns.get(id);
    if (c === undefined) continue;
    if (type === 2) {
      // Credit goes back as the command's socket takes the bytes: a command that does not read stalls the host's sender.
      const bytes = payload.length;
      c.sock.write(Buffer.from(payload), () => {
        c.taken += bytes;
        if (c.taken >= WINDOW / 4 && conns.has(id)) { credit(id, c.taken); c.taken = 0; }
      });
    } else if (type === 3) c.sock.end();
    else if (type === 4) { conns.delete(id); c.sock.destroySoon(); }
    else if (type === 5) { c.credit += payload.readUInt32BE(0); flush(c); }
  }
});
carrier.on('error', () => { for (const c of conns.values()) c.sock.destroy(); });
carrier.on('close', () => { for (const c of conns.values()) c.sock.destroy(); });
const server = net.createServer({ allowHalfOpen: true }, (sock) => {
  const c = { id: next++, sock, credit: WINDOW, queue: [], ending: false, closing: false, taken: 0 };
  conns.set(c.id, c);
  send(1, c.id);
  sock.on('data', (data) => { if (conns.has(c.id)) { c.queue.push(data); flush(c); } });
  sock.on('end', () => { if (!conns.has(c.id)) return; c.ending = true; flush(c); });
  sock.on('close', () => { if (!conns.has(c.id)) return; c.closing = true; flush(c); });
  sock.on('error', () => {});
});
server.on('error', (error) => {
  process.stderr.write('zotbox: the network bridge could not listen on 127.0.0.1:' + portText + ': ' + error.message + '\n');
  process.exit(126);
});
server.listen({ host: '127.0.0.1', port: Number(portText) }, () => {
  // The command does not inherit the carrier: /dev/null stands at its number.
  const stdio = ['inherit', 'inherit', 'inherit'];
  while (stdio.length <= carrierFd) stdio.push('ignore');
  const child = spawn(file, args, { stdio });
  child.on('error', (error) => {
    process.stderr.write(file + ': ' + error.message + '\n');
    process.exit(error.code === 'ENOENT' ? 127 : 126);
  });
  child.on('exit', (code, signal) => {
    process.exitCode = code === null ? 128 + (constants.signals[signal] || 0) : code;
    server.close();
    carrier.destroy();
    for (const c of conns.values()) c.sock.destroy();
    if (signal !== null) { process.removeAllListeners(signal); try { process.kill(process.pid, signal); } catch {} }
  });
});
`;

/** The node program that runs the bridge: this process's own, which the sandbox must see at the same path. */
export function bridgeNode(execPath: string = process.execPath): string {
  if (!VISIBLE_ROOTS.some((root) => execPath.startsWith(root))) {
    throw new ZotboxError(
      'ZB_CONFINEMENT_UNAVAILABLE',
      `permissions.net.allow needs the sandbox's network bridge, which runs with this Node.js (${execPath}), but the sandbox mounts only the system directories (${VISIBLE_ROOTS.join(', ')}). Fix: run zotbox with a Node.js installed there (for example /usr/bin/node or /usr/local/bin/node).`,
      { details: { cause: 'other', node: execPath } },
    );
  }
  return execPath;
}

/** What runs inside the sandbox in place of PROGRAM ARGS: the bridge, which then runs PROGRAM ARGS. */
export function bridgeCommand(node: string, carrierFd: number, program: string, args: readonly string[]): string[] {
  return [node, '-e', SCRIPT, String(carrierFd), String(BRIDGE_PORT), String(CARRIER_WINDOW), program, ...args];
}
