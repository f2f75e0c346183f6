// The SOCKS5 parser (issue 24 §1): greetings and requests as RFC 1928 writes them,
// read only when complete, bounded, and closed: only CONNECT without
// authentication, only the three address types; everything else is refused
// with the reply code a client understands.
import test from 'ava';
import { MAX_SOCKS_HANDSHAKE, parseSocksGreeting, parseSocksRequest, socksFailureReply, socksReply } from '../../../src/host/net/socks5.js';

const bytes = (...values: number[]) => Buffer.from(values);
const name = (text: string) => [text.length, ...Buffer.from(text, 'latin1')];

test('a greeting offering "no authentication" is accepted once complete; one without it is refused', (t) => {
  t.deepEqual(parseSocksGreeting(bytes(5)), { done: false });
  t.deepEqual(parseSocksGreeting(bytes(5, 2, 2)), { done: false }, 'two methods announced, one came');
  t.deepEqual(parseSocksGreeting(bytes(5, 2, 2, 0)), { done: true, consumed: 4, ok: true });
  t.like(parseSocksGreeting(bytes(5, 1, 2)), { done: true, consumed: 3, ok: false });
  t.like(parseSocksGreeting(bytes(5, 0)), { done: true, consumed: 2, ok: false }, 'no method at all');
  t.like(parseSocksGreeting(bytes(4, 1, 0, 80, 127, 0, 0, 1, 0)), { done: true, ok: false, reason: 'SOCKS version 4 is not understood; only SOCKS5 is' });
});

test('CONNECT to a name, an IPv4 and an IPv6 address gives the host as the proxy writes it, and the port', (t) => {
  t.deepEqual(parseSocksRequest(bytes(5, 1, 0, 3, ...name('upstream.test'), 0x1f, 0x90)), { done: true, consumed: 4 + 14 + 2, ok: true, host: 'upstream.test', port: 8080 });
  t.deepEqual(parseSocksRequest(bytes(5, 1, 0, 1, 93, 184, 216, 34, 1, 187)), { done: true, consumed: 10, ok: true, host: '93.184.216.34', port: 443 });
  const v6 = [0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1];
  t.deepEqual(parseSocksRequest(bytes(5, 1, 0, 4, ...v6, 0, 80)), { done: true, consumed: 22, ok: true, host: '[2001:db8::1]', port: 80 });
});

test('a request is read only when whole: every shorter prefix asks for more', (t) => {
  const whole = bytes(5, 1, 0, 3, ...name('a.example'), 0, 80);
  for (let length = 0; length < whole.length; length++) t.deepEqual(parseSocksRequest(whole.subarray(0, length)), { done: false }, `prefix of ${length}`);
  t.like(parseSocksRequest(Buffer.concat([whole, bytes(1, 2, 3)])), { done: true, consumed: whole.length, ok: true }, 'what follows is not consumed');
});

test('BIND and UDP ASSOCIATE are refused as commands not supported, naming the command and where it pointed', (t) => {
  t.deepEqual(parseSocksRequest(bytes(5, 3, 0, 1, 0, 0, 0, 0, 0, 0)), {
    done: true,
    consumed: 10,
    ok: false,
    reply: 7,
    reason: 'SOCKS5 UDP ASSOCIATE is not proxied: only CONNECT, one TCP connection decided like any other',
    host: '0.0.0.0',
    port: 0,
  });
  t.like(parseSocksRequest(bytes(5, 2, 0, 3, ...name('x.test'), 0, 21)), { ok: false, reply: 7, host: 'x.test', port: 21 });
  t.like(parseSocksRequest(bytes(5, 9, 0, 1, 1, 2, 3, 4, 0, 1)), { ok: false, reply: 7, reason: 'SOCKS5 command 9 is not proxied: only CONNECT, one TCP connection decided like any other' });
});

test('an unknown address type or version is refused at once, without waiting for bytes it cannot size', (t) => {
  t.like(parseSocksRequest(bytes(5, 1, 0, 2)), { done: true, consumed: 4, ok: false, reply: 8 });
  t.like(parseSocksRequest(bytes(4, 1, 0, 1)), { done: true, ok: false, reply: 1 });
});

test('a name is passed on byte for byte (the decision refuses what is not ASCII); an empty one too', (t) => {
  t.like(parseSocksRequest(bytes(5, 1, 0, 3, ...name('a\u0000b.test'), 0, 80)), { ok: true, host: 'a\u0000b.test' });
  t.like(parseSocksRequest(bytes(5, 1, 0, 3, 0, 0, 80)), { ok: true, host: '', port: 80 });
});

test('replies: ten bytes, the code second, the bound address never disclosed; upstream failures map to their codes', (t) => {
  t.deepEqual([...socksReply(2)], [5, 2, 0, 1, 0, 0, 0, 0, 0, 0]);
  t.is(socksFailureReply(Object.assign(new Error('x'), { code: 'ECONNREFUSED' })), 5);
  t.is(socksFailureReply(Object.assign(new Error('x'), { code: 'EHOSTUNREACH' })), 4);
  t.is(socksFailureReply(Object.assign(new Error('x'), { code: 'ENETUNREACH' })), 3);
  t.is(socksFailureReply(Object.assign(new Error('x'), { code: 'ETIMEDOUT' })), 1);
});

test('the handshake is decided within MAX_SOCKS_HANDSHAKE bytes: the longest greeting and request are complete at that length', (t) => {
  const greeting = Buffer.from([5, 255, ...Array.from({ length: 255 }, (_, i) => i)]);
  const request = Buffer.from([5, 1, 0, 3, 255, ...Buffer.alloc(255, 0x61), 0, 80]);
  t.is(greeting.length + request.length, MAX_SOCKS_HANDSHAKE);
  t.like(parseSocksGreeting(greeting), { done: true, consumed: greeting.length, ok: true });
  t.like(parseSocksRequest(request), { done: true, consumed: request.length, ok: true, host: 'a'.repeat(255) });
});
