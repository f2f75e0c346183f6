// The HTTP proxy of one bash call (issue 24 §1): the only way out of the
// sandbox's network namespace. It takes CONNECT host:port and plain requests
// in absolute form (http://host/...), decides each against net.allow, resolves
// the name itself, refuses every address that is not globally routable unless
// net.allow names that literal address and port, and connects to the very
// address it checked (never resolving twice: no DNS rebinding). Every attempt
// becomes a NetConnection record (host, port, allowed or not, the reason, bytes
// each way). It never listens anywhere: connections reach it as streams.
import { lookup } from 'node:dns/promises';
import { request, type IncomingMessage, type ServerResponse, createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { decideAddress } from '../../policy/net-address.js';
import { decideNetAccess, type NetConnection, type NetDecision, type NetRule } from '../../policy/net-allow.js';
import { decideNetUrl } from '../../policy/net-url.js';
import { parseSocksGreeting, parseSocksRequest, SOCKS_REPLY, SOCKS_VERSION, socksFailureReply, socksMethodReply, socksReply } from './socks5.js';

/** Resolves a host name to addresses. Production: the system resolver. Tests pass one (a seam never exported from src/index.ts). */
export type NetResolver = (host: string) => Promise<readonly string[]>;

export interface NetProxyOptions {
  readonly rules: readonly NetRule[];
  readonly resolver?: NetResolver;
  /** Called once per attempt, when it is refused or, allowed, when it ends. */
  readonly onConnection?: (connection: NetConnection) => void;
}

export interface NetProxy {
  /** Serves one client connection (a stream from the sandbox's bridge). */
  handle(stream: Duplex): void;
  /** Every attempt so far, in the order they ended (up to the caps), then one summary per kind beyond its cap. */
  connections(): readonly NetConnection[];
  /** Ends every open connection. */
  close(): void;
}

const systemResolver: NetResolver = async (host) => (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
/** Headers that belong to one hop (RFC 9110 §7.6.1) and the proxy's own. */
const HOP_HEADERS = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'transfer-encoding', 'upgrade']);
const MAX_OPEN = 256;
/** Records kept one by one per call; the attempts beyond are summed in one record each way (`dropped`). */
export const MAX_REFUSED_RECORDS = 64;
export const MAX_ALLOWED_RECORDS = 1024;
/** Command-chosen text kept in a record: a host as written, and a reason quoting it. */
const MAX_RECORD_HOST = 260;
const MAX_RECORD_REASON = 600;

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The bytes of a request's line and headers, as the command sent them (what the proxy parsed of them). */
function headBytes(req: IncomingMessage): number {
  let bytes = Buffer.byteLength(`${req.method ?? ''} ${req.url ?? ''} HTTP/${req.httpVersion}\r\n\r\n`);
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) bytes += Buffer.byteLength(`${req.rawHeaders[i]!}: ${req.rawHeaders[i + 1]!}\r\n`);
  return bytes;
}

type Target = { readonly ok: true; readonly address: string; readonly decision: Extract<NetDecision, { allow: true }> } | { readonly ok: false; readonly reason: string };

/** CONNECT's authority: host:port or [v6]:port, the port in decimal. */
function parseAuthority(text: string): { host: string; port: number } | undefined {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+):([1-9][0-9]{0,4})$/.exec(text);
  if (match === null || Number(match[2]) > 65535) return undefined;
  return { host: match[1]!, port: Number(match[2]) };
}

/** The host and port a refused request named, for its record: as a URL parser reads them, else the text itself. */
function namedTarget(url: string): { host: string; port: number } {
  try {
    const parsed = new URL(url);
    return { host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'), port: parsed.port === '' ? (parsed.protocol === 'https:' ? 443 : 80) : Number(parsed.port) };
  } catch {
    return { host: url.slice(0, 200), port: 0 };
  }
}

export function createNetProxy(options: NetProxyOptions): NetProxy {
  const resolve = options.resolver ?? systemResolver;
  const finished: NetConnection[] = [];
  const open = new Set<Duplex | Socket>();
  // Allowed connections not yet recorded: a call that ends first still reports each (closed in close()).
  const pending = new Set<() => void>();
  let closed = false;
  // Beyond the caps, attempts are only counted (with their bytes): a command opening connection after connection
  // cannot grow the host, the events or the session by what it writes in them.
  const beyond = { refused: { count: 0, bytesOut: 0, bytesIn: 0 }, allowed: { count: 0, bytesOut: 0, bytesIn: 0 } };
  const kept = { refused: 0, allowed: 0 };
  const record = (connection: NetConnection) => {
    const kind = connection.allowed ? 'allowed' : 'refused';
    if (kept[kind] >= (connection.allowed ? MAX_ALLOWED_RECORDS : MAX_REFUSED_RECORDS)) {
      beyond[kind].count++;
      beyond[kind].bytesOut += connection.bytesOut;
      beyond[kind].bytesIn += connection.bytesIn;
      return;
    }
    kept[kind]++;
    const bounded = { ...connection, host: clip(connection.host, MAX_RECORD_HOST), reason: clip(connection.reason, MAX_RECORD_REASON) };
    finished.push(bounded);
    options.onConnection?.(bounded);
  };
  /** One record for each kind of attempt beyond its cap, saying how many there were. */
  const summaries = (): NetConnection[] =>
    (['allowed', 'refused'] as const)
      .filter((kind) => beyond[kind].count > 0)
      .map((kind) => ({
        host: '(more)',
        port: 0,
        allowed: kind === 'allowed',
        reason: `${beyond[kind].count} more ${kind} attempts of this call are not reported one by one (the first ${kind === 'allowed' ? MAX_ALLOWED_RECORDS : MAX_REFUSED_RECORDS} are); their bytes are summed here`,
        bytesOut: beyond[kind].bytesOut,
        bytesIn: beyond[kind].bytesIn,
        dropped: beyond[kind].count,
      }));

  /** The decision, then the resolution, then the address check: the address returned is the one to connect to. */
  async function target(decision: NetDecision): Promise<Target> {
    if (!decision.allow) return { ok: false, reason: decision.reason };
    const kind = decision.rule.kind;
    let addresses: readonly string[];
    if (kind === 'ipv4' || kind === 'ipv6') addresses = [decision.host];
    // localhost is never looked up: the resolver could say anything.
    else if (kind === 'localhost') addresses = ['127.0.0.1', '::1'];
    else {
      try {
        addresses = await resolve(decision.host);
      } catch (error) {
        return { ok: false, reason: `${decision.host} could not be resolved (${(error as { code?: string }).code ?? String(error)})` };
      }
    }
    let refusal = `${decision.host} resolved to no address`;
    for (const address of addresses) {
      const checked = decideAddress(options.rules, kind, address, decision.port);
      if (checked.allow) return { ok: true, address: checked.address, decision };
      refusal = `${decision.host} resolves to ${checked.reason}`;
    }
    return { ok: false, reason: refusal };
  }

  /** Records a connection once, when it ends or, still open, when the call does (close()): with its bytes then. */
  function onceReported(make: (endedFirst: boolean) => NetConnection): () => void {
    let reported = false;
    const report = (endedFirst = false) => {
      if (reported) return;
      reported = true;
      pending.delete(callEnded);
      record(make(endedFirst));
    };
    const callEnded = () => report(true);
    pending.add(callEnded);
    return () => report();
  }

  /** onceReported for an allowed connection: the reason given when it ends, or that the call ended first. */
  function allowedReport(decided: Extract<Target, { ok: true }>, port: number, bytes: () => { bytesOut: number; bytesIn: number }): (reason: string) => void {
    let last = `allowed by ${decided.decision.rule.entry}`;
    const report = onceReported((endedFirst) => ({
      host: decided.decision.host,
      port,
      allowed: true,
      reason: endedFirst ? `allowed by ${decided.decision.rule.entry}; the call ended before the connection did` : last,
      address: decided.address,
      ...bytes(),
    }));
    return (reason: string) => {
      last = reason;
      report();
    };
  }

  function track<T extends Duplex | Socket>(stream: T): T {
    open.add(stream);
    stream.once('close', () => open.delete(stream));
    return stream;
  }

  /** How a tunnel's client is answered: HTTP CONNECT's status lines, or SOCKS5's replies. */
  interface TunnelAnswer {
    established(): void;
    refused(reason: string, done: () => void): void;
    failed(error: NodeJS.ErrnoException): void;
  }

  /**
   * One tunnel to `named`, decided, resolved and checked like every connection, or refused at once with
   * `refusal` (a request the proxy could not read: `named` is then what it is recorded as). `sentBefore` is
   * what the client sent to ask for it; `head`, what it sent after, for the upstream.
   */
  async function tunnel(client: Duplex, named: { host: string; port: number }, refusal: string | undefined, sentBefore: number, head: Buffer, answer: TunnelAnswer): Promise<void> {
    track(client);
    client.on('error', () => undefined); // the command went away: the upstream side ends with it
    const { host, port } = named;
    const decided = refusal === undefined ? await target(decideNetAccess(options.rules, host, port)) : undefined;
    if (decided === undefined || !decided.ok || closed) {
      const reason = decided === undefined ? (refusal ?? '') : decided.ok ? 'the call ended' : decided.reason;
      // Recorded when the connection ends, with every byte the command sent on it: its request, and anything after,
      // which is read and dropped (never held) until the answer is out and the connection closed.
      let bytesOut = sentBefore + head.length;
      const report = onceReported(() => ({ host, port, allowed: false, reason, bytesOut, bytesIn: 0 }));
      client.on('data', (chunk: Buffer) => (bytesOut += chunk.length));
      client.resume();
      client.once('close', () => report());
      answer.refused(reason, () => client.destroy());
      return;
    }
    const upstream = track(connect({ host: decided.address, port }));
    let bytesOut = head.length;
    let bytesIn = 0;
    const report = allowedReport(decided, port, () => ({ bytesOut, bytesIn }));
    upstream.once('connect', () => {
      answer.established();
      if (head.length > 0) upstream.write(head);
      client.on('data', (chunk: Buffer) => (bytesOut += chunk.length));
      upstream.on('data', (chunk: Buffer) => (bytesIn += chunk.length));
      client.pipe(upstream);
      upstream.pipe(client);
    });
    upstream.once('error', (error) => {
      if (!client.destroyed) answer.failed(error);
      report(`allowed by ${decided.decision.rule.entry}; the upstream failed: ${error.message}`);
    });
    upstream.once('close', (hadError: boolean) => {
      // An upstream that ended cleanly has its last bytes delivered first (they may wait for the sandbox's credit).
      if (!hadError && client.writableEnded && !client.writableFinished) client.once('finish', () => client.destroy());
      else client.destroy();
      report(`allowed by ${decided.decision.rule.entry}`);
    });
    client.once('close', () => upstream.destroy());
  }

  function onConnect(req: IncomingMessage, client: Duplex, head: Buffer): void {
    const authority = parseAuthority(req.url ?? '');
    const refusal = authority === undefined ? `CONNECT ${JSON.stringify(String(req.url).slice(0, 200))} is not host:port` : undefined;
    void tunnel(client, authority ?? { host: String(req.url), port: 0 }, refusal, headBytes(req), head, {
      established: () => client.write('HTTP/1.1 200 Connection Established\r\n\r\n'),
      refused: (reason, done) => client.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\nzotbox: ${reason}\n`, done),
      failed: (error) => client.end(`HTTP/1.1 502 Bad Gateway\r\nconnection: close\r\n\r\nzotbox: ${error.message}\n`),
    });
  }

  /** A SOCKS5 client: its greeting answered, its request read (bounded), then a tunnel like CONNECT's. */
  function onSocks(client: Duplex): void {
    track(client);
    client.on('error', () => undefined);
    let buffered = Buffer.alloc(0);
    let sent = 0;
    let greeted = false;
    const refuseUnread = (reason: string, reply: Buffer) => {
      client.off('data', onData);
      record({ host: '(socks5)', port: 0, allowed: false, reason, bytesOut: sent, bytesIn: 0 });
      client.end(reply, () => client.destroy());
    };
    const onData = (chunk: Buffer) => {
      sent += chunk.length;
      buffered = Buffer.concat([buffered, chunk]);
      if (!greeted) {
        const greeting = parseSocksGreeting(buffered);
        if (!greeting.done) return;
        if (!greeting.ok) return refuseUnread(greeting.reason, socksMethodReply(false));
        greeted = true;
        buffered = buffered.subarray(greeting.consumed);
        client.write(socksMethodReply(true));
      }
      const request = parseSocksRequest(buffered);
      // Bounded by the protocol: a greeting and a request together complete within MAX_SOCKS_HANDSHAKE bytes.
      if (!request.done) return;
      client.off('data', onData);
      client.pause();
      const head = buffered.subarray(request.consumed);
      const refusal = request.ok ? undefined : request.reason;
      let refusedWith: number = request.ok ? SOCKS_REPLY.notAllowed : request.reply;
      void tunnel(client, { host: request.host, port: request.port }, refusal, sent - head.length, head, {
        established: () => client.write(socksReply(SOCKS_REPLY.succeeded)),
        refused: (_reason, done) => client.end(socksReply(refusedWith), done),
        failed: (error) => {
          refusedWith = socksFailureReply(error);
          client.end(socksReply(refusedWith));
        },
      });
    };
    client.on('data', onData);
  }

  async function onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = req.url ?? '';
    const decision = decideNetUrl(options.rules, url);
    const { host, port } = decision.allow ? decision : namedTarget(url);
    // Only plain http in absolute form: https goes through CONNECT.
    const decided =
      decision.allow && !url.startsWith('http://')
        ? ({ ok: false, reason: `${JSON.stringify(url)}: only http:// URLs are proxied as requests; https goes through CONNECT` } as const)
        : await target(decision);
    if (!decided.ok || closed) {
      const reason = decided.ok ? 'the call ended' : decided.reason;
      // Its line and headers came in; its body is never read.
      record({ host, port, allowed: false, reason, bytesOut: headBytes(req), bytesIn: 0 });
      res.writeHead(403, { 'content-type': 'text/plain', connection: 'close' }).end(`zotbox: ${reason}\n`);
      return;
    }
    const parsed = new URL(url);
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers)) if (value !== undefined && !HOP_HEADERS.has(name)) headers[name] = value;
    headers['host'] = parsed.host; // the host decided, never one the client wrote besides it
    // Out: the request's line and headers (a URL and headers carry data too), then its body.
    let bytesOut = headBytes(req);
    let bytesIn = 0;
    const upstream = request({ host: decided.address, port, method: req.method, path: `${parsed.pathname}${parsed.search}`, headers, setHost: false, agent: false });
    req.on('data', (chunk: Buffer) => (bytesOut += chunk.length));
    const report = allowedReport(decided, port, () => ({ bytesOut, bytesIn }));
    upstream.once('response', (response) => {
      const back: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(response.headers)) if (value !== undefined && !HOP_HEADERS.has(name)) back[name] = value;
      res.writeHead(response.statusCode ?? 502, back);
      response.on('data', (chunk: Buffer) => (bytesIn += chunk.length));
      response.pipe(res);
      response.once('end', () => report(`allowed by ${decided.decision.rule.entry}`));
      response.once('error', (error) => report(`allowed by ${decided.decision.rule.entry}; the upstream failed: ${error.message}`));
    });
    upstream.once('error', (error) => {
      report(`allowed by ${decided.decision.rule.entry}; the upstream failed: ${error.message}`);
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain', connection: 'close' }).end(`zotbox: ${error.message}\n`);
      else res.destroy();
    });
    req.pipe(upstream);
  }

  const server: Server = createServer({ keepAlive: false });
  server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => onConnect(req, client, head));
  server.on('request', (req: IncomingMessage, res: ServerResponse) => void onRequest(req, res));
  // Protocol switches (WebSocket over plain http) are not proxied: only CONNECT tunnels.
  server.on('upgrade', (req: IncomingMessage, client: Duplex) => {
    record({ host: String(req.headers.host), port: 0, allowed: false, reason: 'protocol upgrades are not proxied; use https (CONNECT)', bytesOut: headBytes(req), bytesIn: 0 });
    client.end('HTTP/1.1 403 Forbidden\r\nconnection: close\r\n\r\n', () => client.destroy());
  });
  server.on('clientError', (_error, client: Duplex) => {
    if (!client.destroyed) client.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n', () => client.destroy());
  });

  /** SOCKS5 or HTTP, by the first byte the client sends (5 starts no HTTP request); the byte is given back to the stream. */
  function routeByFirstByte(stream: Duplex): void {
    // A client that ends before its first byte is done with; after routing, ending is the protocol's business.
    const endedFirst = () => stream.destroy();
    stream.once('end', endedFirst);
    const route = () => {
      const first = stream.read(1) as Buffer | null;
      if (first === null) {
        if (!stream.destroyed) stream.once('readable', route);
        return;
      }
      stream.off('end', endedFirst);
      stream.unshift(first);
      if (first[0] === SOCKS_VERSION) onSocks(stream);
      else server.emit('connection', stream);
    };
    route();
  }

  return {
    handle: (stream) => {
      if (closed || open.size >= MAX_OPEN) {
        stream.destroy();
        return;
      }
      track(stream);
      routeByFirstByte(stream);
    },
    connections: () => [...finished, ...summaries()],
    close: () => {
      closed = true;
      // Every allowed attempt is an event, also one still open when the command ended (its bytes so far).
      for (const endedFirst of [...pending]) endedFirst();
      for (const stream of open) stream.destroy();
      open.clear();
    },
  };
}
