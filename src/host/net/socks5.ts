// SOCKS5 at the call's proxy (issue 24 §1, RFC 1928): the way out for clients
// that speak raw TCP rather than HTTP (a python socket through PySocks, git or
// curl with a socks5h:// proxy). It reaches the proxy at the same address as
// HTTP (the bridge's 127.0.0.1:3128); the first byte tells them apart (5 is
// never the first byte of an HTTP request). Only CONNECT without authentication
// is understood: BIND and UDP ASSOCIATE would open a way in or a way out that
// is not one decided TCP connection, so they are refused, as is anything this
// parser does not read. Parsing is pure and bounded; the proxy decides the
// named host and port exactly as it decides an HTTP CONNECT.
import { formatIpv6 } from '../../policy/net-allow.js';

/** The first byte of every SOCKS5 message from a client. */
export const SOCKS_VERSION = 5;
/** A greeting is at most 2 + 255 bytes, a request 4 + 1 + 255 + 2: the parsers decide each within that many (nothing is buffered beyond). */
export const MAX_SOCKS_HANDSHAKE = 2 + 255 + 4 + 1 + 255 + 2;

/** Reply codes (RFC 1928 §6) the proxy sends. */
export const SOCKS_REPLY = {
  succeeded: 0,
  generalFailure: 1,
  notAllowed: 2,
  networkUnreachable: 3,
  hostUnreachable: 4,
  connectionRefused: 5,
  commandNotSupported: 7,
  addressTypeNotSupported: 8,
} as const;

const NO_AUTHENTICATION = 0;
const NO_ACCEPTABLE_METHOD = 0xff;
const CONNECT = 1;
const COMMAND_NAMES: Readonly<Record<number, string>> = { 2: 'BIND', 3: 'UDP ASSOCIATE' };

/** The part of a message read so far is complete, or more bytes are needed. */
export type Step<T> = { readonly done: false } | ({ readonly done: true; readonly consumed: number } & T);
export type Greeting = { readonly ok: true } | { readonly ok: false; readonly reason: string };
export type SocksRequest =
  | { readonly ok: true; readonly host: string; readonly port: number }
  | { readonly ok: false; readonly reply: number; readonly reason: string; readonly host: string; readonly port: number };

const more = { done: false } as const;

/** The client's greeting: its version and the authentication methods it offers; only "none" is accepted. */
export function parseSocksGreeting(bytes: Buffer): Step<Greeting> {
  if (bytes.length < 2) return more;
  if (bytes[0] !== SOCKS_VERSION) return { done: true, consumed: 1, ok: false, reason: `SOCKS version ${String(bytes[0])} is not understood; only SOCKS5 is` };
  const count = bytes[1]!;
  if (bytes.length < 2 + count) return more;
  const methods = bytes.subarray(2, 2 + count);
  if (!methods.includes(NO_AUTHENTICATION)) return { done: true, consumed: 2 + count, ok: false, reason: 'the SOCKS5 client offered no method without authentication; the proxy takes none' };
  return { done: true, consumed: 2 + count, ok: true };
}

/** The proxy's answer to a greeting. */
export function socksMethodReply(accepted: boolean): Buffer {
  return Buffer.from([SOCKS_VERSION, accepted ? NO_AUTHENTICATION : NO_ACCEPTABLE_METHOD]);
}

/** The destination of a request: its address field as the proxy's host syntax writes it, and the bytes it took. */
function destination(bytes: Buffer): { host: string; length: number } | 'more' | 'unknown' {
  const type = bytes[3];
  if (type === 1) return bytes.length < 8 ? 'more' : { host: [...bytes.subarray(4, 8)].join('.'), length: 4 };
  if (type === 4) {
    if (bytes.length < 20) return 'more';
    const groups = Array.from({ length: 8 }, (_, i) => bytes.readUInt16BE(4 + 2 * i));
    return { host: `[${formatIpv6(groups)}]`, length: 16 };
  }
  if (type === 3) {
    if (bytes.length < 5) return 'more';
    const length = bytes[4]!;
    // Read byte for byte: the decision refuses whatever is not a host name in ASCII, and quotes it.
    return bytes.length < 5 + length ? 'more' : { host: bytes.subarray(5, 5 + length).toString('latin1'), length: 1 + length };
  }
  return 'unknown';
}

/** The client's request: CONNECT to an IPv4 address, an IPv6 address or a name, and a port. */
export function parseSocksRequest(bytes: Buffer): Step<SocksRequest> {
  if (bytes.length < 4) return more;
  if (bytes[0] !== SOCKS_VERSION)
    return { done: true, consumed: 4, ok: false, reply: SOCKS_REPLY.generalFailure, reason: `a SOCKS5 request must start with 5, not ${String(bytes[0])}`, host: '(unknown)', port: 0 };
  const target = destination(bytes);
  if (target === 'more') return more;
  if (target === 'unknown') {
    return { done: true, consumed: 4, ok: false, reply: SOCKS_REPLY.addressTypeNotSupported, reason: `SOCKS5 address type ${String(bytes[3])} is not understood`, host: '(unknown)', port: 0 };
  }
  const end = 4 + target.length + 2;
  if (bytes.length < end) return more;
  const port = bytes.readUInt16BE(end - 2);
  const command = bytes[1]!;
  if (command !== CONNECT) {
    const name = COMMAND_NAMES[command] ?? `command ${command}`;
    return {
      done: true,
      consumed: end,
      ok: false,
      reply: SOCKS_REPLY.commandNotSupported,
      reason: `SOCKS5 ${name} is not proxied: only CONNECT, one TCP connection decided like any other`,
      host: target.host,
      port,
    };
  }
  return { done: true, consumed: end, ok: true, host: target.host, port };
}

/** The reply to a request: its code, and the bound address, which the proxy never discloses (0.0.0.0:0). */
export function socksReply(code: number): Buffer {
  return Buffer.from([SOCKS_VERSION, code, 0, 1, 0, 0, 0, 0, 0, 0]);
}

/** The reply code for an upstream connection that failed. */
export function socksFailureReply(error: NodeJS.ErrnoException): number {
  if (error.code === 'ECONNREFUSED') return SOCKS_REPLY.connectionRefused;
  if (error.code === 'EHOSTUNREACH') return SOCKS_REPLY.hostUnreachable;
  if (error.code === 'ENETUNREACH') return SOCKS_REPLY.networkUnreachable;
  return SOCKS_REPLY.generalFailure;
}
