// The sandbox's end of the network (issue 24 §1): a small Node program that
// listens on 127.0.0.1:3128 inside the command's own network namespace (which
// has no interface but loopback), carries each TCP connection made to it as
// frames over an inherited socket pair to the host's proxy (host/net/carrier.ts),
// then runs the approved command as its child and exits as it does. It holds no
// decision: the proxy decides every connection. It starts before the command,
// so nothing the command runs can take its port.
import { ZotboxError } from '../../../errors.js';

/** The proxy's address inside every sandbox that has net.allow. */
export const BRIDGE_PORT = 3128;
export const PROXY_URL = `http://127.0.0.1:${BRIDGE_PORT}`;

/** Directories the sandbox mounts from the system (system-mounts.ts): the node that runs the bridge must be in one. */
const VISIBLE_ROOTS = ['/usr/', '/bin/', '/sbin/', '/lib/', '/lib64/', '/opt/'];

const SCRIPT = String.raw`'use strict';
const net = require('node:net');
const { spawn } = require('node:child_process');
const { constants } = require('node:os');
const [fdText, portText, file, ...args] = process.argv.slice(1);
const carrierFd = Number(fdText);
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
    const conn = conns.get(id);
    if (conn === undefined) continue;
    if (type === 2) conn.write(payload);
    else if (type === 3) conn.end();
    else if (type === 4) { conns.delete(id); conn.destroy(); }
  }
});
carrier.on('error', () => { for (const conn of conns.values()) conn.destroy(); });
carrier.on('close', () => { for (const conn of conns.values()) conn.destroy(); });
const server = net.createServer({ allowHalfOpen: true }, (conn) => {
  const id = next++;
  conns.set(id, conn);
  send(1, id);
  conn.on('data', (data) => send(2, id, data));
  conn.on('end', () => { if (conns.has(id)) send(3, id); });
  conn.on('close', () => { if (conns.delete(id)) send(4, id); });
  conn.on('error', () => {});
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
    for (const conn of conns.values()) conn.destroy();
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
  return [node, '-e', SCRIPT, String(carrierFd), String(BRIDGE_PORT), program, ...args];
}
