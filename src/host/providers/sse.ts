// A reader of text/event-stream bodies (server-sent events). The stream comes
// from a model server, so it is untrusted: every line and event is bounded.
import { ZotboxError } from '../../errors.js';

export interface ServerSentEvent {
  readonly event: string;
  readonly data: string;
}

/** Parses a text/event-stream body into events (fields "event" and "data"; comments ignored). */
export async function* readServerSentEvents(body: AsyncIterable<Buffer | string>): AsyncGenerator<ServerSentEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  let event = 'message';
  let data: string[] = [];
  let eventChars = 0;
  for await (const chunk of body) {
    buffer += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = buffer.indexOf('\n')) !== -1) {
      const line = buffer.slice(0, newline).replace(/\r$/, '');
      buffer = buffer.slice(newline + 1);
      if (line === '') {
        eventChars = 0;
        if (data.length > 0) yield { event, data: data.join('\n') };
        event = 'message';
        data = [];
      } else if (line.startsWith(':')) {
        continue;
      } else {
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = value;
        else if (field === 'data') {
          eventChars += value.length;
          if (eventChars > MAX_EVENT_CHARS) throw eventTooLarge();
          data.push(value);
        }
      }
    }
    // A server's stream is untrusted: a line or an event without end must not grow the host's memory without bound.
    if (buffer.length > MAX_EVENT_CHARS) throw eventTooLarge();
  }
  if (data.length > 0) yield { event, data: data.join('\n') };
}

/** One server-sent event (or line) longer than this ends the stream: no model API sends one near it. */
export const MAX_EVENT_CHARS = 16 * 1024 * 1024;

function eventTooLarge(): ZotboxError {
  return new ZotboxError('ZB_PROVIDER_FAILED', `the model server sent a stream event longer than ${MAX_EVENT_CHARS} characters; zotbox stopped reading it. Check the base URL points at a model API.`);
}
