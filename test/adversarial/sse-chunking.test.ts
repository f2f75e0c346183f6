// Held: the SSE reader gives the same events however the body is cut into chunks
// (CR | LF pairs, UTF-8 sequences and the byte-order mark split anywhere), and the
// same events as a whole-body reading of the HTML specification written here
// independently of sse.ts.
import test from 'ava';
import fc from 'fast-check';
import { readServerSentEvents, type ServerSentEvent } from '../../src/host/providers/sse.js';

/** The specification's event stream interpretation, over the whole body at once. */
function referenceEvents(bytes: Uint8Array): ServerSentEvent[] {
  let text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  const lines = text.split(/\r\n|\r|\n/);
  lines.pop(); // the piece after the last line end is not a line
  const events: ServerSentEvent[] = [];
  let type = '';
  let data: string[] = [];
  for (const line of lines) {
    if (line === '') {
      if (data.length > 0) events.push({ event: type === '' ? 'message' : type, data: data.join('\n') });
      type = '';
      data = [];
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') type = value;
    if (field === 'data') data.push(value);
  }
  return events;
}

async function zotboxEvents(chunks: readonly Uint8Array[]): Promise<ServerSentEvent[]> {
  async function* body() {
    for (const chunk of chunks) yield chunk;
  }
  const events: ServerSentEvent[] = [];
  for await (const event of readServerSentEvents(body())) events.push({ event: event.event, data: event.data });
  return events;
}

const EOL = fc.constantFrom('\n', '\r', '\r\n');
const piece = fc.constantFrom('data', 'data:', 'data: ', 'event: ', 'event:x', 'id: 1', 'retry: 5', ':', ': c', 'x', '{"a":1}', 'é', '😀', '\uFEFF', ' ', 'DATA', '[DONE]');
const line = fc.tuple(fc.array(piece, { maxLength: 4 }), EOL).map(([parts, eol]) => parts.join('') + eol);
const bodyText = fc.tuple(fc.boolean(), fc.array(line, { maxLength: 20 }), fc.array(piece, { maxLength: 2 })).map(([bom, lines, tail]) => (bom ? '\uFEFF' : '') + lines.join('') + tail.join(''));

function cut(bytes: Uint8Array, points: readonly number[]): Uint8Array[] {
  const sorted = [...new Set(points.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const point of [...sorted, bytes.length]) {
    chunks.push(bytes.slice(start, point));
    start = point;
  }
  return chunks;
}

test('any chunking of any body gives the events of a whole-body reading of the specification', async (t) => {
  await fc.assert(
    fc.asyncProperty(bodyText, fc.array(fc.nat(), { maxLength: 12 }), async (text, points) => {
      const bytes = new TextEncoder().encode(text);
      t.deepEqual(await zotboxEvents(cut(bytes, points)), referenceEvents(bytes));
    }),
    { numRuns: 3000 },
  );
});
