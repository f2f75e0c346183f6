import test from 'ava';
import { canonicalJson, computeReceiptMac, isReceiptMacValid } from '../../../src/host/consent/receipt-mac.js';

const KEY = Buffer.from(Array.from({ length: 32 }, (_, i) => i));

test('canonical JSON sorts object keys at every depth, keeps array order, and has no whitespace', (t) => {
  t.is(canonicalJson({ b: [1, { d: null, c: 'x' }], a: true }), '{"a":true,"b":[1,{"c":"x","d":null}]}');
  t.is(canonicalJson({ Z: 1, a: 2, _: 3 }), '{"Z":1,"_":3,"a":2}', 'code-unit order, not locale order');
  t.is(canonicalJson('é\u001b'), '"é\\u001b"');
});

test('canonical JSON refuses what is not a JSON value', (t) => {
  for (const value of [undefined, Number.NaN, Infinity, () => 1, new Date(0), 1n]) t.throws(() => canonicalJson(value), { instanceOf: TypeError }, String(value));
});

test('the mac is HMAC-SHA256 over a context line and the canonical JSON (vector computed with openssl)', (t) => {
  // printf 'zotbox consent receipt\n{"a":1,"b":["x",null]}' | openssl dgst -sha256 -mac HMAC -macopt hexkey:000102...1f
  const expected = 'hmac-sha256:8430e6ce3193f3ceef65976736f2cde3280843870da7ccfc85ed1af51ee354f5';
  t.is(computeReceiptMac(KEY, { b: ['x', null], a: 1 }), expected);
  t.true(isReceiptMacValid(KEY, { a: 1, b: ['x', null] }, expected), 'key order in the file does not matter');
});

test('a mac verifies only for the same fields under the same key', (t) => {
  const fields = { a: 1, b: ['x', null] };
  const mac = computeReceiptMac(KEY, fields);
  const otherKey = Buffer.alloc(32, 7);
  t.false(isReceiptMacValid(otherKey, fields, mac));
  t.false(isReceiptMacValid(KEY, { a: 2, b: ['x', null] }, mac));
  t.false(isReceiptMacValid(KEY, { a: 1, b: [null, 'x'] }, mac));
  t.false(isReceiptMacValid(KEY, { a: 1, b: ['x', null], c: 0 }, mac));
});

test('a missing or malformed mac never verifies', (t) => {
  const fields = { a: 1 };
  const hex = computeReceiptMac(KEY, fields).slice('hmac-sha256:'.length);
  for (const mac of [undefined, '', hex, `hmac-sha256:${hex.toUpperCase()}`, `hmac-sha256:${hex.slice(2)}`, `hmac-sha256:${hex}00`, `hmac-sha1:${hex}`, `HMAC-SHA256:${hex}`]) {
    t.false(isReceiptMacValid(KEY, fields, mac), String(mac));
  }
});
