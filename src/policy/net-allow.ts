// permissions.net.allow (issue 24 §1): the closed grammar of its entries, the
// canonical form of a host a command names, and the pure decision whether a
// (host, port) is on the list. No file system, no network, no resolution: the
// proxy (src/host/net/) resolves names and checks the addresses it connects to
// (net-address.ts). An entry is refused unless it is written in its canonical
// form, so the list consent shows is exactly the list that is enforced.
import { domainToASCII } from 'node:url';
import type { ErrorCode } from '../errors.js';

/** A port written with no port on an entry: plain HTTP and HTTPS only. */
export const DEFAULT_NET_PORTS: readonly number[] = [80, 443];
/** At most this many entries, each at most this long (a bounded list consent can show). */
export const MAX_NET_ENTRIES = 256;
const MAX_ENTRY_LENGTH = 260;
const MAX_HOST_LENGTH = 253;

export type NetHostKind = 'name' | 'ipv4' | 'ipv6' | 'localhost';

/** One parsed entry. `host` is canonical: lower case, no trailing dot, IPv6 without brackets. */
export interface NetRule {
  readonly entry: string;
  readonly kind: NetHostKind;
  readonly host: string;
  /** `*.example.com`: any name below example.com, never example.com itself. */
  readonly wildcard: boolean;
  /** Absent: DEFAULT_NET_PORTS. */
  readonly port: number | undefined;
}

/** A host as a command names it (a URL's host, a CONNECT target), in canonical form. */
export interface CanonicalHost {
  readonly kind: NetHostKind;
  readonly host: string;
}

export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: string };

/** One connection attempt through the sandbox's proxy, as its run.event net.connect reports it. */
export interface NetConnection {
  readonly host: string;
  readonly port: number;
  readonly allowed: boolean;
  readonly reason: string;
  /** The address connected to (allowed only). */
  readonly address?: string;
  /** Bytes from the command to the upstream, and back. */
  readonly bytesOut: number;
  readonly bytesIn: number;
  /** A summary, not one attempt: this many attempts beyond the call's cap (host "(more)", port 0), their bytes summed. */
  readonly dropped?: number;
}

export type NetDecision = { readonly allow: true; readonly host: string; readonly port: number; readonly rule: NetRule } | { readonly allow: false; readonly code: ErrorCode; readonly reason: string };

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const DECIMAL_OCTET = /^(?:0|[1-9][0-9]{0,2})$/;
/** What WHATWG URL and inet_aton read as a number: decimal, 0x hex, or octal (a leading 0). */
const NUMERIC_LABEL = /^(?:[0-9]+|0x[0-9a-f]*)$/;

const fail = (reason: string): { ok: false; reason: string } => ({ ok: false, reason });

/** A canonical dotted-quad IPv4 address (four decimal octets, no leading zeros), or undefined. */
export function parseIpv4(text: string): string | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  return parts.every((part) => DECIMAL_OCTET.test(part) && Number(part) <= 255) ? text : undefined;
}

/** Eight 16-bit groups of an IPv6 address (an embedded dotted IPv4 tail accepted), or undefined. */
export function ipv6Groups(text: string): number[] | undefined {
  if (!/^[0-9a-f:.]+$/i.test(text) || text.length > 45) return undefined;
  let body = text;
  const tail: number[] = [];
  const lastColon = body.lastIndexOf(':');
  if (body.includes('.')) {
    const v4 = parseIpv4(body.slice(lastColon + 1));
    if (v4 === undefined) return undefined;
    const octets = v4.split('.').map(Number);
    tail.push((octets[0]! << 8) | octets[1]!, (octets[2]! << 8) | octets[3]!);
    const prefix = body.slice(0, lastColon + 1);
    body = prefix.endsWith('::') ? prefix : prefix.slice(0, -1);
  }
  const halves = body.split('::');
  if (halves.length > 2) return undefined;
  const parse = (part: string) => (part === '' ? [] : part.split(':'));
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  if ([...head, ...rest].some((group) => !/^[0-9a-f]{1,4}$/i.test(group))) return undefined;
  const written = head.length + rest.length + tail.length;
  if (halves.length === 1 ? written !== 8 : written > 7) return undefined;
  const zeros = new Array<number>(8 - written).fill(0);
  return [...head.map((g) => parseInt(g, 16)), ...zeros, ...rest.map((g) => parseInt(g, 16)), ...tail];
}

/** RFC 5952 text of eight groups: lower case, no leading zeros, the longest run of two or more zero groups as "::". */
export function formatIpv6(groups: readonly number[]): string {
  let best = { start: -1, length: 0 };
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > best.length && j - i >= 2) best = { start: i, length: j - i };
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best.start < 0) return hex.join(':');
  return `${hex.slice(0, best.start).join(':')}::${hex.slice(best.start + best.length).join(':')}`;
}

/** 0.0.0.0/8 ("this network") or :: (the unspecified address): never a destination; Linux reads both as this machine. */
export function isUnspecifiedAddress(kind: NetHostKind, host: string): boolean {
  if (kind === 'ipv4') return host.startsWith('0.');
  if (kind === 'ipv6') return ipv6Groups(host)?.every((group) => group === 0) === true;
  return false;
}

/** An IPv4-mapped (::ffff:a.b.c.d) or IPv4-compatible (::a.b.c.d) address: the IPv4 address hides in it. */
function embedsIpv4(groups: readonly number[]): boolean {
  const prefixZero = groups.slice(0, 5).every((g) => g === 0);
  return prefixZero && (groups[5] === 0xffff || (groups[5] === 0 && (groups[6] !== 0 || groups[7]! > 1)));
}

/** A host name's canonical form: ASCII labels (punycode for other scripts), the last one not a number. */
function parseName(text: string, what: string): Parsed<string> {
  if (text.length === 0) return fail(`${what} is empty`);
  if (text.length > MAX_HOST_LENGTH) return fail(`${what} is longer than ${MAX_HOST_LENGTH} characters`);
  const labels = text.split('.');
  for (const label of labels) {
    if (!LABEL.test(label)) return fail(`${what} has the label ${JSON.stringify(label)}; a label is 1 to 63 letters, digits and inner hyphens`);
  }
  // WHATWG URL, curl and inet_aton read a name whose last label is a number as an IPv4 address (0x7f.1, 2130706433).
  if (NUMERIC_LABEL.test(labels[labels.length - 1]!))
    return fail(`${what} ends in a number, which clients read as an IPv4 address in another notation; write the address as four decimal octets (127.0.0.1) with a port`);
  return { ok: true, value: text };
}

/**
 * The canonical form of a host a client names: lower case, one trailing dot
 * removed, IPv6 in brackets or bare, IPv4 only as four decimal octets. Names in
 * other scripts must arrive as punycode (a URL parser converts them); numeric
 * and IPv4-mapped spellings of addresses are refused.
 */
export function canonicalizeHost(written: string): Parsed<CanonicalHost> {
  let text = written.toLowerCase();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  else if (text.endsWith('.') && !text.endsWith('..')) text = text.slice(0, -1);
  if (/[^\x21-\x7e]/.test(text)) return fail(`the host ${JSON.stringify(written)} is not ASCII; name it in punycode (xn--...)`);
  if (text.includes(':')) {
    const groups = ipv6Groups(text);
    if (groups === undefined) return fail(`the host ${JSON.stringify(written)} is not a valid IPv6 address`);
    if (embedsIpv4(groups)) return fail(`the host ${JSON.stringify(written)} is an IPv4 address inside an IPv6 one; name the IPv4 address itself`);
    return { ok: true, value: { kind: 'ipv6', host: formatIpv6(groups) } };
  }
  if (parseIpv4(text) !== undefined) return { ok: true, value: { kind: 'ipv4', host: text } };
  if (text === 'localhost') return { ok: true, value: { kind: 'localhost', host: text } };
  const name = parseName(text, `the host ${JSON.stringify(written)}`);
  return name.ok ? { ok: true, value: { kind: 'name', host: name.value } } : name;
}

function parsePort(text: string, entry: string): Parsed<number> {
  if (!/^[1-9][0-9]{0,4}$/.test(text) || Number(text) > 65535) return fail(`${JSON.stringify(entry)} has the port ${JSON.stringify(text)}; a port is a number from 1 to 65535, without leading zeros`);
  return { ok: true, value: Number(text) };
}

/**
 * One net.allow entry: `host`, `*.domain` or either with `:port`; an IPv4
 * address, `[IPv6]` or `localhost` only with a port. Refused unless written in
 * canonical form; the reason names the entry and, where there is one, the
 * spelling to use.
 */
export function parseNetAllowEntry(entry: string): Parsed<NetRule> {
  const quoted = JSON.stringify(entry);
  if (entry.length === 0) return fail('an entry is empty; write a host name such as "api.github.com"');
  if (entry.length > MAX_ENTRY_LENGTH) return fail(`${quoted.slice(0, 40)}… is longer than ${MAX_ENTRY_LENGTH} characters`);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(entry) || entry.includes('/')) return fail(`${quoted} is not a host: write the host alone (no scheme, path or "/"), e.g. "api.github.com"`);
  if (entry.includes('@')) return fail(`${quoted} holds "@"; write the host alone, without a user name`);
  if (/[^\x21-\x7e]/.test(entry)) {
    const ascii = domainToASCII(entry.split(':')[0]!);
    return fail(`${quoted} is not ASCII${ascii === '' ? '' : `; write its punycode form ${JSON.stringify(ascii)}`}`);
  }
  let hostText = entry;
  let portText: string | undefined;
  if (entry.startsWith('[')) {
    const close = entry.indexOf(']');
    if (close < 0) return fail(`${quoted} opens "[" without closing it`);
    hostText = entry.slice(0, close + 1);
    const after = entry.slice(close + 1);
    if (after !== '') {
      if (!after.startsWith(':')) return fail(`${quoted} has text after "]"; write [ADDRESS]:PORT`);
      portText = after.slice(1);
    }
  } else if (entry.includes(':')) {
    const colon = entry.lastIndexOf(':');
    if (entry.indexOf(':') !== colon) return fail(`${quoted} looks like an IPv6 address; write it in brackets with a port, e.g. "[2001:db8::1]:443"`);
    hostText = entry.slice(0, colon);
    portText = entry.slice(colon + 1);
  }
  let port: number | undefined;
  if (portText !== undefined) {
    const parsed = parsePort(portText, entry);
    if (!parsed.ok) return parsed;
    port = parsed.value;
  }
  const wildcard = hostText.startsWith('*.');
  const bare = wildcard ? hostText.slice(2) : hostText;
  if (bare.includes('*')) return fail(`${quoted} has a "*" other than a leading "*."; a wildcard stands for the subdomains of a name, e.g. "*.githubusercontent.com"`);
  const canonical = canonicalizeHost(bare);
  if (!canonical.ok) return fail(`${quoted}: ${canonical.reason}`);
  const { kind, host } = canonical.value;
  const written = kind === 'ipv6' ? `[${host}]` : host;
  // 0.0.0.0 and :: mean "no address": Linux connects a socket aimed at one to this machine's own loopback, so such an
  // entry would grant the host's loopback services while consent shows what reads as "any address".
  if (isUnspecifiedAddress(kind, host)) {
    return fail(
      `${quoted} names the unspecified address ${written}, which is no host: a connection to it reaches this machine's own loopback, and it does not mean "any address". Fix: write localhost:PORT for a service on this machine, or the host name or address of the service`,
    );
  }
  if (written !== bare) return fail(`${quoted} is not written in canonical form; write ${JSON.stringify(`${wildcard ? '*.' : ''}${written}${port === undefined ? '' : `:${port}`}`)}`);
  if (kind !== 'name') {
    if (wildcard) return fail(`${quoted}: a wildcard stands only before a host name, not an address or localhost`);
    if (port === undefined) return fail(`${quoted} names ${kind === 'localhost' ? 'localhost' : 'an IP address'} without a port; such entries need an explicit port, e.g. "${written}:8080"`);
  }
  if (kind === 'name' && !host.includes('.')) {
    return fail(
      wildcard ? `${quoted} would cover a whole top-level domain; name the domain (*.example.com)` : `${quoted} is a single-label name; write the full host name (api.example.com), or localhost:PORT`,
    );
  }
  return { ok: true, value: { entry, kind, host, wildcard, port } };
}

/** Every entry parsed, or the first refusal with its index (the manifest names it as permissions.net.allow[i]). */
export function compileNetAllow(entries: readonly string[]): { ok: true; rules: readonly NetRule[] } | { ok: false; index: number; reason: string } {
  if (entries.length > MAX_NET_ENTRIES) return { ok: false, index: MAX_NET_ENTRIES, reason: `lists ${entries.length} entries; at most ${MAX_NET_ENTRIES} are allowed` };
  const rules: NetRule[] = [];
  for (const [index, entry] of entries.entries()) {
    const parsed = parseNetAllowEntry(entry);
    if (!parsed.ok) return { ok: false, index, reason: parsed.reason };
    rules.push(parsed.value);
  }
  return { ok: true, rules };
}

/** Whether one rule covers a canonical host and port. */
export function ruleCovers(rule: NetRule, host: CanonicalHost, port: number): boolean {
  if (!(rule.port === undefined ? DEFAULT_NET_PORTS.includes(port) : rule.port === port)) return false;
  if (rule.kind !== host.kind) return false;
  return rule.wildcard ? host.host.endsWith(`.${rule.host}`) : host.host === rule.host;
}

function portsOf(rule: NetRule): string {
  return rule.port === undefined ? DEFAULT_NET_PORTS.join(' and ') : String(rule.port);
}

/**
 * Whether net.allow lets a command connect to `host` (as written by the client)
 * on `port`. Closed world: a host not understood, or not listed for that port,
 * is denied, and the reason names it.
 */
export function decideNetAccess(rules: readonly NetRule[], writtenHost: string, port: number): NetDecision {
  const canonical = canonicalizeHost(writtenHost);
  if (!canonical.ok) return { allow: false, code: 'ZB_POLICY_NET_DENIED', reason: `${canonical.reason}.` };
  const host = canonical.value;
  if (!Number.isInteger(port) || port < 1 || port > 65535) return { allow: false, code: 'ZB_POLICY_NET_DENIED', reason: `port ${port} is not a TCP port.` };
  const named = host.kind === 'ipv6' ? `[${host.host}]` : host.host;
  if (rules.length === 0) return { allow: false, code: 'ZB_POLICY_NET_DENIED', reason: `${named}:${port} is not allowed: the agent declares no network access (permissions.net.allow is empty).` };
  const rule = rules.find((r) => ruleCovers(r, host, port));
  if (rule !== undefined) return { allow: true, host: host.host, port, rule };
  const sameHost = rules.filter((r) => r.kind === host.kind && (r.wildcard ? host.host.endsWith(`.${r.host}`) : r.host === host.host));
  if (sameHost.length > 0) {
    return {
      allow: false,
      code: 'ZB_POLICY_NET_DENIED',
      reason: `${named}:${port} is not allowed: permissions.net.allow lists ${named} only for port ${sameHost.map(portsOf).join(', ')}.`,
    };
  }
  return { allow: false, code: 'ZB_POLICY_NET_DENIED', reason: `${named} is not in permissions.net.allow (${rules.map((r) => r.entry).join(', ')}).` };
}
