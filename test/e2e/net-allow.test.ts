// net.allow end to end in the real sandbox (issue 24 §1): commands reach an
// allowed upstream only through the per-call proxy, by real curl, git and npm;
// a host not on the list, a redirect to one, and a name that resolves to a
// private address are refused with a record; a direct connection and DNS
// fail inside. Upstreams listen on loopback only; a test-only resolver (the
// proxy's seam) maps the test host names to them.
import test, { type ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, realpathSync, writeFileSync, existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { executeBash, type BashResult } from '../../src/host/executors/bash.js';
import { COMMAND_SEARCH_PATH, TRUSTED_PROGRAM_DIRECTORIES } from '../../src/host/executors/command-environment.js';
import { createCommandIsolation } from '../../src/host/executors/confine/command-isolation.js';
import { createCallNetwork } from '../../src/host/net/call-network.js';
import type { NetResolver } from '../../src/host/net/net-proxy.js';
import { compileNetAllow } from '../../src/policy/net-allow.js';
import { compileScopes } from '../../src/policy/scopes.js';
import { decideShellCommand, type ShellContext } from '../../src/policy/shell-decision.js';
import { bubblewrapPath } from '../fixtures/isolation.js';
import { tempDir } from '../fixtures/temp.js';

/** The test's name service: every name the proxy resolves, by hand. */
const NAMES: Readonly<Record<string, readonly string[]>> = {
  'upstream.test': ['127.0.0.1'],
  'other.test': ['127.0.0.1'],
  'private.test': ['10.0.0.7'],
  'metadata.test': ['169.254.169.254'],
  'mapped.test': ['::ffff:127.0.0.1'],
};
const resolver: NetResolver = async (host) => {
  const found = NAMES[host];
  if (found === undefined) throw Object.assign(new Error(`no such test host ${host}`), { code: 'ENOTFOUND' });
  return found;
};

interface Upstream {
  readonly port: number;
  readonly root: string;
}

/** Serves files under `root` (a bare git repository for git's dumb http, a registry's packuments and tarballs) and a redirect. */
async function upstream(t: ExecutionContext, root: string): Promise<Upstream> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/hello') return void res.end('hello from upstream\n');
    if (url.pathname === '/redirect') return void res.writeHead(302, { location: `http://other.test:${(server.address() as AddressInfo).port}/hello` }).end();
    const file = path.join(root, decodeURIComponent(url.pathname));
    if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) return void res.writeHead(404).end('not found\n');
    res.end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port: (server.address() as AddressInfo).port, root };
}

interface World {
  /** The commands' workspace. */
  readonly workspace: string;
  /** What the upstream serves. */
  readonly ws: string;
  readonly port: number;
  run(command: string): Promise<BashResult>;
}

async function world(t: ExecutionContext, entries: (port: number) => string[]): Promise<World> {
  const root = realpathSync(tempDir(t, 'zb-net-'));
  const ws = path.join(root, 'ws');
  const served = path.join(root, 'served');
  mkdirSync(ws);
  mkdirSync(served);
  const up = await upstream(t, served);
  const compiled = compileNetAllow(entries(up.port));
  if (!compiled.ok) throw new Error(compiled.reason);
  const layout = { readRoots: [ws], writeRoots: [ws] };
  const isolation = createCommandIsolation({ kind: 'bubblewrap', bwrap: bubblewrapPath() }, layout, undefined, undefined, createCallNetwork(compiled.rules, resolver));
  const scopes = compileScopes({ read: ['${workspace}'], write: ['${workspace}'] }, { workspace: ws, agentData: path.join(root, 'data') });
  return {
    workspace: ws,
    ws: served,
    port: up.port,
    run: (command) => {
      const shell: ShellContext = { mode: 'ask', allow: [], scopes, searchPath: COMMAND_SEARCH_PATH, trustedDirectories: TRUSTED_PROGRAM_DIRECTORIES };
      const decision = decideShellCommand(command, shell);
      if (!decision.allow) throw new Error(decision.reason);
      return executeBash(decision, { workspace: ws, timeoutMs: 60_000, outputCapBytes: 65536, isolation, shell });
    },
  };
}

const allowed = (port: number) => [`upstream.test:${port}`, `127.0.0.1:${port}`];

test('curl reaches an allowed host through the proxy, plain and through a CONNECT tunnel, and each connection is recorded with its bytes', async (t) => {
  const w = await world(t, allowed);
  const plain = await w.run(`curl -sS --max-time 30 http://upstream.test:${w.port}/hello`);
  t.is(plain.exitCode, 0, plain.stderr);
  t.is(plain.stdout, 'hello from upstream\n');
  t.is(plain.network?.length, 1);
  t.like(plain.network?.[0], { host: 'upstream.test', port: w.port, allowed: true, address: '127.0.0.1' });
  t.true((plain.network?.[0]?.bytesIn ?? 0) >= 'hello from upstream\n'.length);
  // Out: the request's line and headers (a URL and headers carry data too); this one has no body.
  const line = `GET http://upstream.test:${w.port}/hello HTTP/1.1\r\n`;
  t.true((plain.network?.[0]?.bytesOut ?? 0) > line.length, 'the request line and headers are counted');
  const tunnel = await w.run(`curl -sS --max-time 30 --proxytunnel http://upstream.test:${w.port}/hello`);
  t.is(tunnel.exitCode, 0, tunnel.stderr);
  t.is(tunnel.stdout, 'hello from upstream\n');
  t.like(tunnel.network?.[0], { host: 'upstream.test', port: w.port, allowed: true });
  t.true((tunnel.network?.[0]?.bytesOut ?? 0) > 0, 'the request went through the tunnel');
});

test('wget reaches an allowed host through the proxy', async (t) => {
  const w = await world(t, allowed);
  const result = await w.run(`wget -q -O - --timeout=30 http://upstream.test:${w.port}/hello`);
  t.is(result.exitCode, 0, result.stderr);
  t.is(result.stdout, 'hello from upstream\n');
  t.like(result.network?.[0], { host: 'upstream.test', allowed: true });
});

test('a host not on the list is refused, plain and by CONNECT, with a record naming it', async (t) => {
  const w = await world(t, allowed);
  for (const flags of ['', '--proxytunnel ']) {
    const result = await w.run(`curl -sS -f --max-time 30 ${flags}http://other.test:${w.port}/hello`);
    t.not(result.exitCode, 0);
    t.is(result.stdout, '');
    t.is(result.network?.length, 1);
    t.like(result.network?.[0], { host: `other.test`, port: w.port, allowed: false, bytesIn: 0 });
    // Out: what the proxy received of the attempt, its request line at least.
    t.true((result.network?.[0]?.bytesOut ?? 0) > `CONNECT other.test:${w.port} HTTP/1.1\r\n`.length);
    t.regex(result.network?.[0]?.reason ?? '', /other\.test is not in permissions\.net\.allow/);
  }
  // CONNECT to another port of an allowed host: refused by the port rule.
  const port = await w.run(`curl -sS -f --max-time 30 --proxytunnel http://upstream.test:${w.port + 1}/hello`);
  t.not(port.exitCode, 0);
  t.like(port.network?.[0], { host: 'upstream.test', port: w.port + 1, allowed: false });
});

test('a redirect to a host not on the list is refused: the proxy decides every connection', async (t) => {
  const w = await world(t, allowed);
  const result = await w.run(`curl -sS -f -L --max-time 30 http://upstream.test:${w.port}/redirect`);
  t.not(result.exitCode, 0);
  t.not(result.stdout, 'hello from upstream\n');
  t.deepEqual(
    result.network?.map((c) => [c.host, c.allowed]),
    [
      ['upstream.test', true],
      ['other.test', false],
    ],
  );
});

test('a listed name that resolves to a private, metadata or IPv4-mapped loopback address is refused', async (t) => {
  const w = await world(t, (port) => [`private.test:${port}`, `metadata.test:${port}`, `mapped.test:${port}`, `upstream.test:${port}`]);
  for (const [host, range] of [
    ['private.test', /10\.0\.0\.7 is private/],
    ['metadata.test', /169\.254\.169\.254 is link-local/],
    ['mapped.test', /IPv4-mapped loopback/],
    // Listed by name, but 127.0.0.1:PORT is not: loopback is refused.
    ['upstream.test', /127\.0\.0\.1 is loopback/],
  ] as const) {
    const result = await w.run(`curl -sS -f --max-time 30 http://${host}:${w.port}/hello`);
    t.not(result.exitCode, 0, host);
    t.like(result.network?.[0], { host, allowed: false }, host);
    t.regex(result.network?.[0]?.reason ?? '', range, host);
  }
});

test('nothing leaves without the proxy: a direct connection to the upstream and DNS both fail inside', async (t) => {
  const w = await world(t, allowed);
  const direct = await w.run(`curl -sS --noproxy '*' --max-time 30 http://127.0.0.1:${w.port}/hello`);
  t.not(direct.exitCode, 0);
  t.regex(direct.stderr, /Failed to connect|Connection refused|Couldn't connect/i);
  t.is(direct.network, undefined, 'the proxy saw nothing');
  const dns = await w.run('getent hosts example.com');
  t.not(dns.exitCode, 0);
  const udp = await w.run(`python3 -c "import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.sendto(b'x', ('10.0.0.7', 53))"`);
  t.not(udp.exitCode, 0, 'no route for UDP: only loopback exists');
});

test('git clones a repository over http from an allowed host through the proxy', async (t) => {
  const w = await world(t, allowed);
  const source = path.join(w.ws, 'src');
  mkdirSync(source);
  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', args, {
      cwd,
      env: { PATH: '/usr/bin:/bin', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@b', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@b' },
    });
  git(source, 'init', '-q', '-b', 'main');
  writeFileSync(path.join(source, 'README.md'), 'served by git\n');
  git(source, 'add', 'README.md');
  git(source, 'commit', '-q', '-m', 'first');
  git(w.ws, 'clone', '-q', '--bare', source, 'repo.git');
  git(path.join(w.ws, 'repo.git'), 'update-server-info');
  const result = await w.run(`git clone -q http://upstream.test:${w.port}/repo.git copy && cat copy/README.md`);
  t.is(result.exitCode, 0, result.stderr);
  t.is(result.stdout, 'served by git\n');
  t.true((result.network ?? []).length > 0);
  t.true((result.network ?? []).every((c) => c.allowed && c.host === 'upstream.test'));
});

test('npm installs a package from a registry stub on an allowed host through the proxy', async (t) => {
  const w = await world(t, allowed);
  const registry = `http://upstream.test:${w.port}`;
  const pkg = path.join(w.ws, 'pkg-src');
  mkdirSync(pkg);
  writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: 'tiny-dep', version: '1.0.0', main: 'index.js' }));
  writeFileSync(path.join(pkg, 'index.js'), "module.exports = 'tiny';\n");
  const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', w.ws], { cwd: pkg, env: { PATH: '/usr/bin:/bin', HOME: w.ws } })
    .toString()
    .trim();
  const bytes = readFileSync(path.join(w.ws, tarball));
  const integrity = `sha512-${createHash('sha512').update(bytes).digest('base64')}`;
  const shasum = createHash('sha1').update(bytes).digest('hex');
  writeFileSync(
    path.join(w.ws, 'tiny-dep'),
    JSON.stringify({
      name: 'tiny-dep',
      'dist-tags': { latest: '1.0.0' },
      versions: { '1.0.0': { name: 'tiny-dep', version: '1.0.0', dist: { tarball: `${registry}/${tarball}`, integrity, shasum } } },
    }),
  );
  const result = await w.run(`npm install --no-audit --no-fund --registry ${registry}/ tiny-dep`);
  t.is(result.exitCode, 0, result.stderr);
  t.is(readFileSync(path.join(w.workspace, 'node_modules', 'tiny-dep', 'index.js'), 'utf8'), "module.exports = 'tiny';\n");
  t.true((result.network ?? []).some((c) => c.allowed && c.host === 'upstream.test'));
  t.true(
    (result.network ?? []).every((c) => c.allowed),
    JSON.stringify(result.network),
  );
});

test('SOCKS5 at the same address: curl (names resolved by the proxy, and an address literal) and git reach an allowed host; other hosts are refused', async (t) => {
  const w = await world(t, allowed);
  const byName = await w.run(`curl -sS --max-time 30 --noproxy '' --socks5-hostname 127.0.0.1:3128 http://upstream.test:${w.port}/hello`);
  t.is(byName.exitCode, 0, byName.stderr);
  t.is(byName.stdout, 'hello from upstream\n');
  t.like(byName.network?.[0], { host: 'upstream.test', port: w.port, allowed: true, address: '127.0.0.1' });
  // curl resolves the name itself with --socks5: inside, nothing resolves, so only a literal gets through.
  const byAddress = await w.run(`curl -sS --max-time 30 --socks5 127.0.0.1:3128 http://127.0.0.1:${w.port}/hello`);
  t.is(byAddress.exitCode, 0, byAddress.stderr);
  t.like(byAddress.network?.[0], { host: '127.0.0.1', port: w.port, allowed: true });
  const other = await w.run(`curl -sS --max-time 30 --socks5-hostname 127.0.0.1:3128 http://other.test:${w.port}/hello`);
  t.not(other.exitCode, 0);
  t.regex(other.stderr, /SOCKS5 connection to other\.test\. \(2\)/u, 'curl reports reply 2, "connection not allowed by ruleset"');
  t.like(other.network?.[0], { host: 'other.test', allowed: false });
  const git = await w.run(`git -c http.proxy=socks5h://127.0.0.1:3128 ls-remote http://upstream.test:${w.port}/missing.git`);
  t.regex(git.stderr, /not found|404|repository .* not found/i, 'git reached the upstream through SOCKS5, which answered 404');
  t.true((git.network ?? []).length > 0 && (git.network ?? []).every((c) => c.allowed && c.host === 'upstream.test'), JSON.stringify(git.network));
});

test('SOCKS5 UDP ASSOCIATE and BIND are refused from inside the sandbox: nothing but decided TCP leaves', async (t) => {
  const w = await world(t, allowed);
  const script = [
    'import socket',
    'for command in (3, 2):',
    "    s = socket.create_connection(('127.0.0.1', 3128))",
    '    s.sendall(bytes([5, 1, 0, 5, command, 0, 1, 127, 0, 0, 1, 0, 53]))',
    '    answer = b""',
    '    while True:',
    '        chunk = s.recv(64)',
    '        if not chunk: break',
    '        answer += chunk',
    '    print(list(answer))',
  ].join('\n');
  writeFileSync(path.join(w.workspace, 'socks.py'), `${script}\n`);
  const result = await w.run('python3 socks.py');
  t.is(result.exitCode, 0, result.stderr);
  t.is(result.stdout, '[5, 0, 5, 7, 0, 1, 0, 0, 0, 0, 0, 0]\n'.repeat(2));
  t.deepEqual(
    result.network?.map((c) => [c.allowed, c.reason.split(':')[0]]),
    [
      [false, 'SOCKS5 UDP ASSOCIATE is not proxied'],
      [false, 'SOCKS5 BIND is not proxied'],
    ],
  );
});
