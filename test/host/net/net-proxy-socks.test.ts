// SOCKS5 at the call's proxy (issue 24 §1): a client whose first byte is 5 is
// answered in SOCKS5, and what it asks for is decided exactly as an HTTP CONNECT
// is: the list, the resolution and the address check, one record per attempt.
// The client here writes the protocol's bytes by hand through a stream pair (the
// shape the carrier gives the proxy); the upstream is a real loopback server.
import test, { type ExecutionContext } from 'ava';
import { once } from 'node:events';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { Duplex, PassThrough } from 'node:stream';
import { createNetProxy, type NetProxy } from '../../../src/host/net/net-proxy.js';
import { compileNetAllow } from '../../../src/policy/net-allow.js';

const NAMES: Readonly<Record<string, readonly string[]>> = { 'upstream.test': ['127.0.0.1'], 'private.test': ['10.0.0.7'], 'other.test': ['127.0.0.1'] };

interface Client {
  write(...values: (number | string)[]): void;
  /** Waits for at least `count` bytes in all from the proxy, and returns everything it sent so far. */
  read(count: number): Promise<Buffer>;
  /** Everything the proxy sent until it closed its side. */
  untilEnd(): Promise<Buffer>;
}

function connectClient(proxy: NetProxy): Client {
  const clientWrites = new PassThrough();
  const clientReads = new PassThrough();
  proxy.handle(Duplex.from({ readable: clientWrites, writable: clientReads }));
  let received = Buffer.alloc(0);
  let ended = false;
  const waiters: (() => void)[] = [];
  const wake = () => {
    for (const waiter of waiters.splice(0)) waiter();
  };
  clientReads.on('data', (chunk: Buffer) => {
    received = Buffer.concat([received, chunk]);
    wake();
  });
  clientReads.on('end', () => {
    ended = true;
    wake();
  });
  const until = async (done: () => boolean) => {
    while (!done()) await new Promise<void>((resolve) => waiters.push(resolve));
    return received;
  };
  return {
    write: (...values) => clientWrites.write(Buffer.concat(values.map((v) => (typeof v === 'number' ? Buffer.from([v]) : Buffer.from(v, 'latin1'))))),
    read: (count) => until(() => received.length >= count || ended),
    untilEnd: () => until(() => ended),
  };
}

interface World {
  readonly proxy: NetProxy;
  readonly port: number;
  /** Resolves once the proxy has reported `count` connections (its onConnection callback). */
  readonly reported: (count: number) => Promise<void>;
}

async function world(t: ExecutionContext): Promise<World> {
  const held: Socket[] = [];
  const upstream = createServer((socket) => {
    held.push(socket);
    socket.once('data', (data) => socket.end(`echo:${String(data)}`));
  });
  upstream.listen(0, '127.0.0.1');
  await once(upstream, 'listening');
  t.teardown(() => {
    for (const socket of held) socket.destroy();
    upstream.close();
  });
  const port = (upstream.address() as AddressInfo).port;
  const compiled = compileNetAllow([`upstream.test:${port}`, `private.test:${port}`, `127.0.0.1:${port}`]);
  if (!compiled.ok) throw new Error(compiled.reason);
  let reports = 0;
  const waiting: { count: number; resolve: () => void }[] = [];
  const onConnection = () => {
    reports++;
    for (const w of waiting.filter((w) => w.count <= reports)) w.resolve();
  };
  const proxy = createNetProxy({ rules: compiled.rules, resolver: async (host) => NAMES[host] ?? [], onConnection });
  t.teardown(() => proxy.close());
  const reported = (count: number) => (count <= reports ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ count, resolve })));
  return { proxy, port, reported };
}

const portBytes = (port: number) => [port >> 8, port & 0xff];
const named = (host: string) => [3, host.length, host];
const GREETING = [5, 1, 0];
const ACCEPTED = [5, 0];
const reply = (code: number) => [5, code, 0, 1, 0, 0, 0, 0, 0, 0];

test('CONNECT by name to a listed host is tunnelled: method accepted, success replied, bytes each way, one allowed record', async (t) => {
  const { proxy, port, reported } = await world(t);
  const client = connectClient(proxy);
  client.write(...GREETING, 5, 1, 0, ...named('upstream.test'), ...portBytes(port), 'ping');
  const all = await client.untilEnd();
  t.deepEqual([...all.subarray(0, 12)], [...ACCEPTED, ...reply(0)]);
  t.is(all.subarray(12).toString(), 'echo:ping');
  await reported(1);
  t.like(proxy.connections()[0], { host: 'upstream.test', port, allowed: true, address: '127.0.0.1', bytesOut: 4, bytesIn: 9 });
});

test('CONNECT to a listed IPv4 literal is tunnelled too', async (t) => {
  const { proxy, port } = await world(t);
  const client = connectClient(proxy);
  client.write(...GREETING, 5, 1, 0, 1, 127, 0, 0, 1, ...portBytes(port), 'x');
  const all = await client.untilEnd();
  t.deepEqual([...all.subarray(0, 12)], [...ACCEPTED, ...reply(0)]);
  t.is(all.subarray(12).toString(), 'echo:x');
});

test('a host not on the list, another port of a listed one, and a listed name resolving to a private address are refused with reply 2 and a record each', async (t) => {
  const { proxy, port, reported } = await world(t);
  const cases: [string, number, RegExp][] = [
    ['other.test', port, /^other\.test is not in permissions\.net\.allow/u],
    ['upstream.test', port + 1 > 65535 ? port - 1 : port + 1, /lists upstream\.test only for port/u],
    ['private.test', port, /^private\.test resolves to .*10\.0\.0\.7/u],
  ];
  for (const [host, to] of cases) {
    const client = connectClient(proxy);
    client.write(...GREETING, 5, 1, 0, ...named(host), ...portBytes(to), 'never sent on');
    t.deepEqual([...(await client.untilEnd())], [...ACCEPTED, ...reply(2)], host);
  }
  await reported(3);
  const records = proxy.connections();
  t.is(records.length, 3);
  for (const [i, [host, to, reason]] of cases.entries()) {
    t.like(records[i], { host, port: to, allowed: false });
    t.regex(records[i]!.reason, reason);
  }
  t.is(records[0]!.bytesOut, 3 + 4 + 1 + 'other.test'.length + 2 + 'never sent on'.length, 'every byte the command sent is counted');
});

test('an IPv4-mapped IPv6 literal, a name with a NUL and an empty name are refused by the decision, never resolved', async (t) => {
  const { proxy, port, reported } = await world(t);
  const mapped = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 127, 0, 0, 1];
  for (const request of [[4, ...mapped], named('upstream.test\u0000.evil'), named('')]) {
    const client = connectClient(proxy);
    client.write(...GREETING, 5, 1, 0, ...request, ...portBytes(port));
    t.deepEqual([...(await client.untilEnd())], [...ACCEPTED, ...reply(2)]);
  }
  await reported(3);
  t.deepEqual(
    proxy.connections().map((c) => c.allowed),
    [false, false, false],
  );
  t.regex(proxy.connections()[0]!.reason, /IPv4 address inside an IPv6 one/u);
});

test('UDP ASSOCIATE and BIND get reply 7, an unknown address type reply 8, no acceptable method 0xFF: each recorded as refused', async (t) => {
  const { proxy, reported } = await world(t);
  const answers: number[][] = [];
  for (const request of [
    [5, 3, 0, 1, 0, 0, 0, 0, 0, 0],
    [5, 2, 0, 1, 127, 0, 0, 1, 0, 80],
    [5, 1, 0, 9],
  ]) {
    const client = connectClient(proxy);
    client.write(...GREETING, ...request);
    answers.push([...(await client.untilEnd())]);
  }
  const noAuth = connectClient(proxy);
  noAuth.write(5, 1, 2);
  answers.push([...(await noAuth.untilEnd())]);
  t.deepEqual(answers, [
    [...ACCEPTED, ...reply(7)],
    [...ACCEPTED, ...reply(7)],
    [...ACCEPTED, ...reply(8)],
    [5, 0xff],
  ]);
  await reported(4);
  t.deepEqual(
    proxy.connections().map((c) => [c.allowed, c.reason.split(':')[0]]),
    [
      [false, 'SOCKS5 UDP ASSOCIATE is not proxied'],
      [false, 'SOCKS5 BIND is not proxied'],
      [false, 'SOCKS5 address type 9 is not understood'],
      [false, 'the SOCKS5 client offered no method without authentication; the proxy takes none'],
    ],
  );
});

test('a request that trickles in byte by byte is read whole; HTTP still works beside it on the same proxy', async (t) => {
  const { proxy, port } = await world(t);
  const client = connectClient(proxy);
  const request = Buffer.from([...GREETING, 5, 1, 0, 3, 13, ...Buffer.from('upstream.test'), ...portBytes(port)]);
  for (const byte of request) client.write(byte);
  t.deepEqual([...(await client.read(12)).subarray(0, 12)], [...ACCEPTED, ...reply(0)]);
  client.write('z');
  t.is((await client.untilEnd()).subarray(12).toString(), 'echo:z');
  const http = connectClient(proxy);
  http.write(`CONNECT upstream.test:${port} HTTP/1.1\r\nhost: upstream.test\r\n\r\n`);
  t.regex((await http.read(39)).toString(), /^HTTP\/1\.1 200 Connection Established\r\n\r\n/u);
});

test('a SOCKS4 client is not read as SOCKS5: it meets the HTTP side, which answers 400', async (t) => {
  const { proxy, port } = await world(t);
  const client = connectClient(proxy);
  client.write(4, 1, ...portBytes(port), 127, 0, 0, 1, 0);
  t.regex((await client.read(24)).toString(), /^HTTP\/1\.1 400 Bad Request/u);
});
