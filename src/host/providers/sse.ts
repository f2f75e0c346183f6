// A reader of text/event-stream bodies, per the HTML specification's "event
// stream interpretation" (html.spec.whatwg.org, server-sent events, 9.2.6). The
// stream comes from a model server, so it is untrusted: every line and every
// event is bounded. It knows nothing of what the events mean.
import { ZotboxError } from '../../errors.js';

export interface ServerSentEvent {
  /** The event type: the last `event:` field, or "message" when there was none. */
  readonly event: string;
  /** The `data:` lines, joined with "\n". */
  readonly data: string;
}

/** One server-sent event (or line) longer than this ends the stream: no model API sends one near it. */
export const MAX_EVENT_CHARS = 16 * 1024 * 1024;

/**
 * Parses a text/event-stream body into events. Lines end in CR, LF or CRLF (also
 * when a CRLF is split across chunks); a UTF-8 byte-order mark at the very start
 * is dropped; UTF-8 split across chunks decodes whole. Comments and the fields
 * `id` and `retry` are ignored (zotbox never reconnects with Last-Event-ID).
 *
 * An event the body ends in before its blank line is NOT dispatched. The
 * specification says so, and both official SDKs do the same: openai's and
 * @anthropic-ai/sdk's `_iterSSEMessages` flush the last line (LineDecoder.flush)
 * but their SSEDecoder dispatches only on a blank line.
 */
export async function* readServerSentEvents(body: AsyncIterable<Uint8Array | string>): AsyncGenerator<ServerSentEvent> {
  const lines = new LineSplitter();
  const events = new EventAssembler();
  for await (const chunk of body) {
    for (const line of lines.push(chunk)) {
      const event = events.line(line);
      if (event !== undefined) yield event;
    }
  }
}

/** Text in, complete lines out; remembers a CR at the end of a chunk so that an LF starting the next one ends nothing. */
class LineSplitter {
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  private partial = '';
  private atStart = true;
  private afterCarriageReturn = false;

  push(chunk: Uint8Array | string): string[] {
    let text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    if (this.atStart && text !== '') {
      this.atStart = false;
      if (text.startsWith('\uFEFF')) text = text.slice(1);
    }
    let start = 0;
    if (this.afterCarriageReturn && text !== '') {
      this.afterCarriageReturn = false;
      if (text.startsWith('\n')) start = 1;
    }
    const lines: string[] = [];
    const lineEnd = /\r\n|\r|\n/g;
    lineEnd.lastIndex = start;
    let match: RegExpExecArray | null;
    while ((match = lineEnd.exec(text)) !== null) {
      const line = this.partial + text.slice(start, match.index);
      this.partial = '';
      if (line.length > MAX_EVENT_CHARS) throw eventTooLarge();
      lines.push(line);
      start = lineEnd.lastIndex;
      // A CR that ends this chunk may be the first half of a CRLF.
      if (match[0] === '\r' && start === text.length) this.afterCarriageReturn = true;
    }
    this.partial += text.slice(start);
    // A line without end must not grow the host's memory without bound.
    if (this.partial.length > MAX_EVENT_CHARS) throw eventTooLarge();
    return lines;
  }
}

/** Lines in, events out: the field rules of the specification. */
class EventAssembler {
  private type = '';
  private data: string[] = [];
  private dataChars = 0;

  line(line: string): ServerSentEvent | undefined {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.type = value;
    else if (field === 'data') {
      this.dataChars += value.length;
      if (this.dataChars > MAX_EVENT_CHARS) throw eventTooLarge();
      this.data.push(value);
    }
    // id, retry and unknown fields: ignored, as the specification says for unknown ones.
    return undefined;
  }

  /** A blank line: an event with data is dispatched; either way the type and data start afresh. */
  private dispatch(): ServerSentEvent | undefined {
    const event = this.data.length === 0 ? undefined : { event: this.type === '' ? 'message' : this.type, data: this.data.join('\n') };
    this.type = '';
    this.data = [];
    this.dataChars = 0;
    return event;
  }
}

function eventTooLarge(): ZotboxError {
  return new ZotboxError('ZB_PROVIDER_FAILED', `the model server sent a stream event longer than ${MAX_EVENT_CHARS} characters; zotbox stopped reading it. Check the base URL points at a model API.`);
}
