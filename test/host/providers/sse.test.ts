// readServerSentEvents against the HTML specification's event stream rules
// (html.spec.whatwg.org, "Event stream interpretation"): line ends, the BOM,
// split UTF-8, fields, dispatch. The bounds live in untrusted-stream-bounds.test.ts.
import test from 'ava';
import { MAX_EVENT_CHARS, readServerSentEvents, type ServerSentEvent } from '../../../src/host/providers/sse.js';

async function* pieces(chunks: readonly (string | Uint8Array)[]): AsyncGenerator<string | Uint8Array> {
  for (const chunk of chunks) yield chunk;
}

async function read(...chunks: (string | Uint8Array)[]): Promise<ServerSentEvent[]> {
  const events: ServerSentEvent[] = [];
  for await (const event of readServerSentEvents(pieces(chunks))) events.push(event);
  return events;
}

const bytes = (text: string) => new TextEncoder().encode(text);
const message = (data: string) => ({ event: 'message', data });

test('LF, CRLF and CR each end a line', async (t) => {
  t.deepEqual(await read('data: a\n\ndata: b\r\n\r\ndata: c\r\rdata: d\r\n\n'), [message('a'), message('b'), message('c'), message('d')]);
});

test('a CR ending one chunk and an LF starting the next are one line end', async (t) => {
  // Were they two, the LF would be a blank line and dispatch "a" before "b" joined it.
  t.deepEqual(await read('data: a\r', '\ndata: b\r', '\n\r', '\n'), [message('a\nb')]);
});

test('a CR ending a chunk before other text ends its line there', async (t) => {
  t.deepEqual(await read('data: a\r', 'data: b\r', '\r'), [message('a\nb')]);
});

test('a CR ending a chunk followed by an empty chunk still pairs with the LF after it', async (t) => {
  t.deepEqual(await read('data: a\r', '', '\n', '\n'), [message('a')]);
});

test('a UTF-8 byte-order mark at the very start is dropped, also when split across chunks', async (t) => {
  t.deepEqual(await read(bytes('\uFEFFdata: a\n\n')), [message('a')]);
  t.deepEqual(await read(new Uint8Array([0xef, 0xbb]), new Uint8Array([0xbf]), bytes('data: a\n\n')), [message('a')]);
  t.deepEqual(await read('\uFEFFdata: a\n\n'), [message('a')]);
});

test('a byte-order mark after the start is data, not dropped', async (t) => {
  t.deepEqual(await read('data: a\n\ndata: \uFEFFb\n\n'), [message('a'), message('\uFEFFb')]);
});

test('a byte-order mark later in the body is not dropped: before a field name it makes an unknown field', async (t) => {
  t.deepEqual(await read('data: a\n\n\uFEFFdata: b\n\n'), [message('a')]);
});

test('a multi-byte character split across chunks decodes whole', async (t) => {
  const body = bytes('data: h\u00e9llo \u{1F600}\n\n');
  // Cuts inside the two bytes of é (7|8) and the four of the emoji (13..17 cut at 15 and 16).
  const split = [body.slice(0, 8), body.slice(8, 15), body.slice(15, 16), body.slice(16)];
  t.deepEqual(await read(...split), [message('h\u00e9llo \u{1F600}')]);
});

test('comment lines are ignored, also between the data lines of one event', async (t) => {
  t.deepEqual(await read(': ping\n\ndata: a\n:keep-alive\ndata: b\n\n'), [message('a\nb')]);
});

test('one space after the colon is stripped, and only one', async (t) => {
  t.deepEqual(await read('data:a\n\ndata:  b\n\ndata:\tc\n\n'), [message('a'), message(' b'), message('\tc')]);
});

test('a line without a colon is a field with an empty value', async (t) => {
  t.deepEqual(await read('data\n\ndata\ndata\n\n'), [message(''), message('\n')]);
});

test('the event field sets the type of the next dispatch only', async (t) => {
  t.deepEqual(await read('event: delta\ndata: a\n\ndata: b\n\n'), [{ event: 'delta', data: 'a' }, message('b')]);
});

test('an empty event field means "message"', async (t) => {
  t.deepEqual(await read('event:\ndata: a\n\n'), [message('a')]);
});

test('an event without data lines is not dispatched, and its type does not carry over', async (t) => {
  t.deepEqual(await read('event: ping\n\nid: 7\n\nretry: 100\n\ndata: a\n\n'), [message('a')]);
});

test('id, retry and unknown fields are ignored', async (t) => {
  t.deepEqual(await read('id: 1\nretry: 5\nfoo: bar\ndata: a\n\n'), [message('a')]);
});

test('blank lines without fields dispatch nothing', async (t) => {
  t.deepEqual(await read('\n\n\r\n\rdata: a\n\n\n\n'), [message('a')]);
});

test('a field name is matched exactly: case and surrounding spaces matter', async (t) => {
  t.deepEqual(await read('Data: a\n data: b\ndata : c\n\ndata: d\n\n'), [message('d')]);
});

test('an event the body ends in before its blank line is not dispatched (as the spec and both SDKs do)', async (t) => {
  t.deepEqual(await read('data: a\n\ndata: b\n'), [message('a')]);
  t.deepEqual(await read('data: a\n\ndata: b'), [message('a')]);
  t.deepEqual(await read('data: a\n\ndata: b\r'), [message('a')]);
});

test('a chunk may hold many events and an event many chunks', async (t) => {
  t.deepEqual(await read('data: a\n\ndata: b\n\nda', 'ta: ', 'c', '\n', '\n'), [message('a'), message('b'), message('c')]);
});

test('Buffers and strings may be mixed', async (t) => {
  t.deepEqual(await read(Buffer.from('data: a'), '\n\n', bytes('data: b\n\n')), [message('a'), message('b')]);
});

test('a whole line longer than the limit is refused even when it arrives in one chunk', async (t) => {
  const error = await t.throwsAsync(read(`event: ${'x'.repeat(MAX_EVENT_CHARS)}\n`));
  t.like(error, { code: 'ZB_PROVIDER_FAILED' });
});
