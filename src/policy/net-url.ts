// A URL a command names (curl, wget, a git remote, a registry), decided against
// net.allow (issue 24 §1): http and https only, no credentials, and a host read
// twice, from the text as written and by the WHATWG parser, that must agree. A
// numeric spelling (http://0x7f.1/) or a name in another script is refused from
// the text, before any parser turns it into something else. Pure.
import { decideNetAccess, type NetDecision, type NetRule } from './net-allow.js';

const SCHEME_PORTS: Readonly<Record<string, number>> = { 'http:': 80, 'https:': 443 };

const deny = (reason: string): NetDecision => ({ allow: false, code: 'ZB_POLICY_NET_DENIED', reason });

/** The (host, port) a URL connects to, decided against the rules; the reason quotes the URL. */
export function decideNetUrl(rules: readonly NetRule[], text: string): NetDecision {
  const quoted = JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text);
  const written = /^(https?):\/\/([^/?#]*)(?:[/?#]|$)/.exec(text);
  if (written === null) return deny(`${quoted} is not an http:// or https:// URL (lower-case scheme); only those go through zotbox's proxy.`);
  const authority = written[2]!;
  if (authority.includes('@')) return deny(`${quoted} holds credentials ("@" before the host); they are refused, because URL parsers disagree on where such a host starts.`);
  const match = /^(\[[^\]]*\]|[^:]*)(?::([0-9]*))?$/.exec(authority);
  if (match === null) return deny(`${quoted} has a host and port zotbox cannot read.`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return deny(`${quoted} is not a valid URL.`);
  }
  const port = match[2] === undefined || match[2] === '' ? SCHEME_PORTS[url.protocol]! : Number(match[2]);
  if (match[2] !== undefined && match[2] !== '' && !/^[1-9][0-9]{0,4}$/.test(match[2])) return deny(`${quoted} has the port ${JSON.stringify(match[2])}; write it in decimal without leading zeros.`);
  const decision = decideNetAccess(rules, match[1]!, port);
  if (!decision.allow) return deny(`${quoted}: ${decision.reason}`);
  // The parser a client uses must read the same host: a disagreement is a way around the list.
  const parsed = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname.replace(/\.$/, '');
  if (parsed !== decision.host || (url.port === '' ? SCHEME_PORTS[url.protocol] : Number(url.port)) !== port) {
    return deny(`${quoted}: the host reads as ${JSON.stringify(decision.host)} from the text but ${JSON.stringify(url.hostname)} to a URL parser; write the URL plainly.`);
  }
  return decision;
}
