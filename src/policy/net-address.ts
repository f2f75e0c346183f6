// Which IP addresses a net.allow connection may reach (issue 24 §1): only
// globally routable unicast, unless net.allow names that very address and port
// (or localhost with that port, for a loopback address). Private, loopback,
// link-local (169.254.169.254, the cloud metadata service), CGNAT, multicast,
// unique-local (fc00::/7), documentation and reserved ranges are refused,
// including when they hide inside IPv6 (::ffff:a.b.c.d, 64:ff9b::/96, 2002::/16).
// Pure: the proxy resolves names and passes the addresses here.
import { ipv6Groups, isUnspecifiedAddress, parseIpv4, formatIpv6, type NetRule } from './net-allow.js';

/** [base address as a number, prefix length, what the range is] */
const IPV4_SPECIAL: readonly (readonly [number, number, string])[] = [
  [0x00000000, 8, 'this network (0.0.0.0/8)'],
  [0x0a000000, 8, 'private (10.0.0.0/8)'],
  [0x64400000, 10, 'shared address space / CGNAT (100.64.0.0/10)'],
  [0x7f000000, 8, 'loopback (127.0.0.0/8)'],
  [0xa9fe0000, 16, 'link-local, the cloud metadata service among them (169.254.0.0/16)'],
  [0xac100000, 12, 'private (172.16.0.0/12)'],
  [0xc0000000, 24, 'IETF protocol assignments (192.0.0.0/24)'],
  [0xc0000200, 24, 'documentation (192.0.2.0/24)'],
  [0xc0586300, 24, '6to4 relay anycast (192.88.99.0/24)'],
  [0xc0a80000, 16, 'private (192.168.0.0/16)'],
  [0xc6120000, 15, 'benchmarking (198.18.0.0/15)'],
  [0xc6336400, 24, 'documentation (198.51.100.0/24)'],
  [0xcb007100, 24, 'documentation (203.0.113.0/24)'],
  [0xe0000000, 4, 'multicast (224.0.0.0/4)'],
  [0xf0000000, 4, 'reserved and broadcast (240.0.0.0/4)'],
];

export type AddressClass = { readonly routable: true; readonly address: string } | { readonly routable: false; readonly address: string; readonly range: string };

function ipv4Number(address: string): number {
  return address.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);
}

function classifyIpv4(address: string): AddressClass {
  const n = ipv4Number(address);
  for (const [base, bits, range] of IPV4_SPECIAL) {
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    if ((n & mask) >>> 0 === base) return { routable: false, address, range };
  }
  return { routable: true, address };
}

function embeddedIpv4(high: number, low: number): string {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

function classifyIpv6(groups: readonly number[], address: string): AddressClass {
  const special = (range: string): AddressClass => ({ routable: false, address, range });
  const zeroPrefix = groups.slice(0, 5).every((g) => g === 0);
  if (zeroPrefix && groups[5] === 0xffff) {
    const inner = classifyIpv4(embeddedIpv4(groups[6]!, groups[7]!));
    return inner.routable ? special('IPv4-mapped (::ffff:0:0/96); name the IPv4 address') : special(`IPv4-mapped ${inner.range}`);
  }
  if (groups.slice(0, 6).every((g) => g === 0)) return special(groups[7] === 1 && groups[6] === 0 ? 'loopback (::1)' : 'unspecified or IPv4-compatible (::/96)');
  if (groups[0] === 0x64 && groups[1] === 0xff9b) {
    if (groups[2] !== 0 || groups.slice(3, 6).some((g) => g !== 0)) return special('local-use NAT64 (64:ff9b:1::/48)');
    const inner = classifyIpv4(embeddedIpv4(groups[6]!, groups[7]!));
    return inner.routable ? { routable: true, address } : special(`NAT64 of ${inner.range}`);
  }
  const first = groups[0]!;
  if ((first & 0xfe00) === 0xfc00) return special('unique local (fc00::/7)');
  if ((first & 0xffc0) === 0xfe80) return special('link-local (fe80::/10)');
  if ((first & 0xffc0) === 0xfec0) return special('site-local (fec0::/10)');
  if ((first & 0xff00) === 0xff00) return special('multicast (ff00::/8)');
  if ((first & 0xe000) !== 0x2000) return special('outside global unicast (2000::/3)');
  if (first === 0x2001 && groups[1] === 0x0db8) return special('documentation (2001:db8::/32)');
  if (first === 0x2001 && groups[1]! < 0x0200) return special('IETF protocol assignments, Teredo among them (2001::/23)');
  if (first === 0x2002) {
    const inner = classifyIpv4(embeddedIpv4(groups[1]!, groups[2]!));
    return inner.routable ? { routable: true, address } : special(`6to4 of ${inner.range}`);
  }
  return { routable: true, address };
}

/** Whether an address (as a resolver returns it) is globally routable unicast; anything not understood is not. */
export function classifyAddress(address: string): AddressClass {
  if (parseIpv4(address) !== undefined) return classifyIpv4(address);
  const groups = address.includes('%') ? undefined : ipv6Groups(address);
  if (groups === undefined) return { routable: false, address, range: 'not an IP address zotbox understands' };
  return classifyIpv6(groups, formatIpv6(groups));
}

/** The canonical text of an address (IPv6 per RFC 5952), or undefined. */
export function canonicalAddress(address: string): string | undefined {
  if (parseIpv4(address) !== undefined) return address;
  const groups = address.includes('%') ? undefined : ipv6Groups(address);
  return groups === undefined ? undefined : formatIpv6(groups);
}

export type AddressDecision = { readonly allow: true; readonly address: string } | { readonly allow: false; readonly reason: string };

/**
 * Whether a connection for an allowed request may go to `address`:`port`. A
 * routable address may; any other only when a rule names that literal address
 * and port, or, for a loopback address, when the request named localhost and a
 * localhost rule covers the port.
 */
export function decideAddress(rules: readonly NetRule[], requestKind: NetRule['kind'], address: string, port: number): AddressDecision {
  const canonical = canonicalAddress(address);
  if (canonical === undefined) return { allow: false, reason: `${JSON.stringify(address)} is not an IP address zotbox understands` };
  const cls = classifyAddress(canonical);
  if (cls.routable) return { allow: true, address: canonical };
  const kind = canonical.includes(':') ? 'ipv6' : 'ipv4';
  // Never a destination, whatever a rule names: the kernel connects 0.0.0.0 and :: to this machine's loopback.
  if (isUnspecifiedAddress(kind, canonical)) {
    const written = kind === 'ipv6' ? `[${canonical}]` : canonical;
    return {
      allow: false,
      reason: `${written} is the unspecified address (${cls.range}), which connects to this machine's own loopback; it is never a destination (name localhost:${port} in permissions.net.allow for a service on this machine)`,
    };
  }
  if (rules.some((r) => r.kind === kind && r.host === canonical && r.port === port)) return { allow: true, address: canonical };
  const loopback = cls.range.startsWith('loopback');
  if (loopback && requestKind === 'localhost' && rules.some((r) => r.kind === 'localhost' && r.port === port)) return { allow: true, address: canonical };
  const written = kind === 'ipv6' ? `[${canonical}]` : canonical;
  return { allow: false, reason: `${written} is ${cls.range}, which is refused unless permissions.net.allow names "${written}:${port}"` };
}
