// Finding: what a decoder keeps of one answer has no bound while it streams. Each
// SSE event is capped (MAX_EVENT_CHARS), but text and tool input accumulate over
// any number of events; the only cap on the turn (MESSAGE_LIMITS.modelTurn,
// checked in model-server.ts) applies after the stream ended, so a server that
// never ends its answer grows the host's memory until it dies, taking every run
// of the process with it. A turn larger than the port takes is refused anyway: the
// decoder can refuse it as soon as it is, with a stream error.
import test from 'ava';
import { isZotboxError } from '../../src/errors.js';
import { AnthropicStreamDecoder } from '../../src/host/providers/anthropic-stream.js';
import { OpenAiStreamDecoder } from '../../src/host/providers/openai-stream.js';
import type { ServerSentEvent } from '../../src/host/providers/sse.js';
import type { StreamDecoder } from '../../src/host/providers/stream-decoder.js';
import { MAX_MESSAGE_BYTES } from '../../src/policy/message-limits.js';

const MiB = 'x'.repeat(1024 * 1024);
/** Enough 1 MiB pieces to pass the largest turn the model port takes, and then some. */
const PIECES = Math.ceil(MAX_MESSAGE_BYTES / MiB.length) + 4;

/** Pushes events until the decoder refuses one; the number pushed, or undefined when it took them all. */
function pushUntilRefused(decoder: StreamDecoder, events: Iterable<ServerSentEvent>): { refusedAt: number | undefined; code: string | undefined } {
  let pushed = 0;
  for (const event of events) {
    try {
      decoder.push(event);
    } catch (error) {
      return { refusedAt: pushed, code: isZotboxError(error) ? error.code : 'not a ZotboxError' };
    }
    pushed++;
  }
  return { refusedAt: undefined, code: undefined };
}

const data = (value: object): ServerSentEvent => ({ event: 'message', data: JSON.stringify(value) });

function* anthropicEndless(block: 'text' | 'tool_use'): Generator<ServerSentEvent> {
  yield data({ type: 'message_start', message: { usage: { input_tokens: 1, output_tokens: 1 } } });
  yield data({ type: 'content_block_start', index: 0, content_block: block === 'text' ? { type: 'text', text: '' } : { type: 'tool_use', id: 'toolu_1', name: 'write', input: {} } });
  for (let i = 0; i < PIECES; i++) {
    yield data({ type: 'content_block_delta', index: 0, delta: block === 'text' ? { type: 'text_delta', text: MiB } : { type: 'input_json_delta', partial_json: MiB } });
  }
}

function* openaiEndless(kind: 'text' | 'tool'): Generator<ServerSentEvent> {
  if (kind === 'tool') yield data({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'write', arguments: '' } }] } }] });
  for (let i = 0; i < PIECES; i++) {
    yield data({ choices: [{ index: 0, delta: kind === 'text' ? { content: MiB } : { tool_calls: [{ index: 0, function: { arguments: MiB } }] } }] });
  }
}

const options = { model: 'm', contextWindow: 200_000, onText: () => undefined };

for (const block of ['text', 'tool_use'] as const) {
  test(`anthropic: an answer whose ${block} grows past the largest turn the port takes is refused while it streams`, (t) => {
    const outcome = pushUntilRefused(new AnthropicStreamDecoder(options), anthropicEndless(block));
    t.not(outcome.refusedAt, undefined, `all ${PIECES} MiB were held in memory`);
    t.is(outcome.code, 'ZB_PROVIDER_FAILED');
  });
}

for (const kind of ['text', 'tool'] as const) {
  test(`openai: an answer whose ${kind === 'text' ? 'text' : 'tool arguments'} grow past the largest turn the port takes is refused while it streams`, (t) => {
    const outcome = pushUntilRefused(new OpenAiStreamDecoder(options), openaiEndless(kind));
    t.not(outcome.refusedAt, undefined, `all ${PIECES} MiB were held in memory`);
    t.is(outcome.code, 'ZB_PROVIDER_FAILED');
  });
}
