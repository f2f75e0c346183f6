// Finding (fixed): an entry naming the unspecified address reached the host's
// loopback. `0.0.0.0:PORT` and `[::]:PORT` passed the entry grammar (an address
// with a port), and the proxy let a listed non-routable literal through; but
// Linux connects a socket aimed at 0.0.0.0 (or ::) to the local host, so the
// proxy, which runs in the host, reached the host's own loopback services, while
// consent showed "0.0.0.0:8080" (often read as "any address"). Now such entries
// (any spelling of 0.0.0.0/8 or ::) are refused at load, naming the fix, and the
// proxy never connects to an unspecified address, whatever a rule says. What must
// not happen: a connection to a service listening only on the host's loopback
// through an entry that does not name loopback.
import { once } from 'node:events';
import { createServer, type Server } from 'node:net';
import test from 'ava';
import { parseManifest } from '../../src/policy/manifest.js';
import { compileNetAllow, type NetRule } from '../../src/policy/net-allow.js';
import { carrierWithRules, DATA, OPEN } from './open/carrier.js';

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

for (const entry of ['0.0.0.0:8080', '[::]:8080', '0.1.2.3:8080', '[::0.0.0.0]:8080', '[0:0:0:0:0:0:0:0]:8080']) {
  test(`the entry ${entry} is refused`, (t) => {
    const compiled = compileNetAllow(['api.example.com', entry]);
    if (compiled.ok) return t.fail(`${entry} was accepted`);
    t.is(compiled.index, 1);
  });
}

test('a manifest listing 0.0.0.0:PORT is refused at load, with the fix', (t) => {
  const manifest = {
    zotfile: 1,
    name: 'net-helper',
    version: '0.1.0',
    description: 'Uses the network.',
    license: 'MIT',
    runtime: { min_zot: '0.2.0' },
    model: { requires: ['tools'], min_context: 64000 },
    permissions: { fs: { read: ['${workspace}'] }, bash: { mode: 'allowlist', allow: ['curl'] }, net: { allow: ['0.0.0.0:8080'] } },
  };
  const error = t.throws(() => parseManifest(new TextEncoder().encode(JSON.stringify(manifest))));
  t.like(error, { code: 'ZB_MANIFEST_INVALID', details: { path: '$.permissions.net.allow[0]' } });
  t.regex(error.message, /unspecified address.*localhost:PORT/u);
});

// A rule naming the address, as a reader other than the grammar could make one: the proxy still refuses to connect.
for (const [host, kind, connectHost, loopback] of [
  ['0.0.0.0', 'ipv4', '0.0.0.0', '127.0.0.1'],
  ['::', 'ipv6', '[::]', '::1'],
] as const) {
  test(`CONNECT ${connectHost}:PORT does not reach the host's loopback, even with a rule naming it`, async (t) => {
    const { server, port, reached } = await listen(loopback);
    t.teardown(() => server.close());
    const rule: NetRule = { entry: `${kind === 'ipv6' ? `[${host}]` : host}:${port}`, kind, host, wildcard: false, port };
    const c = await carrierWithRules([rule], async () => []);
    t.teardown(() => c.close());
    c.sandbox.write(c.frame(OPEN, 1));
    c.sandbox.write(c.frame(DATA, 1, Buffer.from(`CONNECT ${connectHost}:${port} HTTP/1.1\r\n\r\n`)));
    const answer = await c.waitFor(1, '\r\n\r\n');
    t.log(answer.split('\r\n')[0]);
    t.is(reached.count, 0, `CONNECT ${connectHost}:${port} reached the service listening on ${loopback}:${port} only`);
    t.regex(answer, /^HTTP\/1\.1 403 /);
    t.regex(answer, /unspecified address/);
  });
}

test('a name that resolves to 0.0.0.0 is refused', async (t) => {
  const { server, port, reached } = await listen('127.0.0.1');
  t.teardown(() => server.close());
  const compiled = compileNetAllow([`service.example.com:${port}`]);
  if (!compiled.ok) throw new Error(compiled.reason);
  const c = await carrierWithRules(compiled.rules, async () => ['0.0.0.0']);
  t.teardown(() => c.close());
  c.sandbox.write(c.frame(OPEN, 1));
  c.sandbox.write(c.frame(DATA, 1, Buffer.from(`CONNECT service.example.com:${port} HTTP/1.1\r\n\r\n`)));
  const answer = await c.waitFor(1, '\r\n\r\n');
  t.is(reached.count, 0);
  t.regex(answer, /^HTTP\/1\.1 403 /);
});
