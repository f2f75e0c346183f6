// The integrity check of a consent receipt: HMAC-SHA256, keyed by the
// installation's secret (receipt-key.ts), over a canonical serialization of
// every other field. Canonical means the same bytes for the same values: object
// keys sorted, no whitespace, so key order in the file can never change the mac.
import { createHmac, timingSafeEqual } from 'node:crypto';

const MAC_PREFIX = 'hmac-sha256:';
const MAC_PATTERN = /^hmac-sha256:[0-9a-f]{64}$/;
/** Domain separation: this key signs nothing else, but the mac says what it is over. */
const MAC_CONTEXT = 'zotbox consent receipt\n';

/** JSON with object keys in code-unit order and no whitespace; only JSON values are accepted. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' && Number.isFinite(value)) return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  throw new TypeError(`canonicalJson: ${typeof value} is not a JSON value`);
}

function macBytes(key: Buffer, fields: Readonly<Record<string, unknown>>): Buffer {
  return createHmac('sha256', key).update(MAC_CONTEXT).update(canonicalJson(fields)).digest();
}

/** "hmac-sha256:<hex>" over `fields` (every field of the receipt except the mac). */
export function computeReceiptMac(key: Buffer, fields: Readonly<Record<string, unknown>>): string {
  return `${MAC_PREFIX}${macBytes(key, fields).toString('hex')}`;
}

/** Whether `mac` is the mac of `fields` under `key`; compared in constant time. */
export function isReceiptMacValid(key: Buffer, fields: Readonly<Record<string, unknown>>, mac: string | undefined): boolean {
  if (mac === undefined || !MAC_PATTERN.test(mac)) return false;
  return timingSafeEqual(Buffer.from(mac.slice(MAC_PREFIX.length), 'hex'), macBytes(key, fields));
}
