// Differential test: every body of the OpenAI stream corpus is served from a
// loopback server to the official SDK's streaming helper, and fed, in the same
// pieces, to readServerSentEvents + OpenAiStreamDecoder. zotbox must give the
// case's hand-written outcome, and the SDK must agree or differ as documented.
import test from 'ava';
import OpenAI from 'openai';
import { ZotboxError } from '../../../src/errors.js';
import { OpenAiStreamDecoder } from '../../../src/host/providers/openai-stream.js';
import { readServerSentEvents } from '../../../src/host/providers/sse.js';
import type { Usage } from '../../../src/policy/model-protocol.js';
import { holdModelServer, type HeldModelServer } from '../../fixtures/held-model-server.js';
import { OPENAI_STREAM_CORPUS, type ExpectedTurn, type OpenAiStreamCase, type SdkResult } from '../../fixtures/streams/openai-corpus.js';

type ZotboxOutcome = ExpectedTurn | { readonly error: string };
interface SdkReading extends SdkResult {
  readonly refused: boolean;
  readonly usage: Usage;
}

async function* pieces(chunks: OpenAiStreamCase['chunks']): AsyncGenerator<string | Uint8Array> {
  for (const chunk of chunks) yield chunk;
}

/** What zotbox makes of the body, read as the streaming driver reads it: until the body ends or the decoder is complete. */
async function zotboxOutcome(chunks: OpenAiStreamCase['chunks']): Promise<{ outcome: ZotboxOutcome; streamed: string }> {
  let streamed = '';
  const decoder = new OpenAiStreamDecoder({ model: 'gpt-4.1', contextWindow: 128_000, onText: (delta) => (streamed += delta) });
  try {
    for await (const event of readServerSentEvents(pieces(chunks))) {
      decoder.push(event);
      if (decoder.complete) break;
    }
    const turn = decoder.finish();
    const text = turn.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
    const toolCalls = turn.content.flatMap((b) => (b.type === 'tool_use' ? [{ id: b.id, name: b.name, input: b.input }] : []));
    return { outcome: { text, toolCalls, stop: turn.stop, usage: turn.usage }, streamed };
  } catch (error) {
    if (error instanceof ZotboxError) return { outcome: { error: error.code }, streamed };
    throw error;
  }
}

/** What the SDK's finalChatCompletion() gives for the body, or 'refuses' with its reason. */
async function sdkOutcome(server: HeldModelServer, chunks: OpenAiStreamCase['chunks']): Promise<SdkReading | { refuses: string }> {
  const client = new OpenAI({ baseURL: server.base, apiKey: 'k', maxRetries: 0 });
  // The earlier assistant message is for the SDK's own sake: when a completion has no choice 0, its
  // _emitFinal throws outside any promise (an unhandled rejection, and finalChatCompletion never
  // settles) unless some assistant message exists. finalChatCompletion() is what this test reads.
  const messages = [
    { role: 'user', content: 'hi' },
    { role: 'assistant', content: 'earlier' },
    { role: 'user', content: 'go on' },
  ] as const;
  const stream = client.chat.completions.stream({ model: 'gpt-4.1', messages: [...messages] });
  const final = stream.finalChatCompletion();
  const { res } = await server.request(0);
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const chunk of chunks) await new Promise<void>((resolve) => res.write(chunk, () => resolve()));
  res.end();
  try {
    const completion = await final;
    // Typed as the API documents it; at run time the fields are what the server sent (null included).
    const sent = completion.usage as { prompt_tokens?: number | null; completion_tokens?: number | null; prompt_tokens_details?: { cached_tokens?: number | null } | null } | null | undefined;
    const usage = { input_tokens: sent?.prompt_tokens ?? 0, output_tokens: sent?.completion_tokens ?? 0 };
    const cached = sent?.prompt_tokens_details?.cached_tokens;
    const choice = completion.choices[0];
    if (choice === undefined) return { text: '', toolCalls: [], finish: null, refused: false, usage };
    const message = choice.message;
    const toolCalls = (message.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments }));
    return {
      text: (message.content ?? '') + (message.refusal ?? ''),
      toolCalls,
      finish: choice.finish_reason,
      refused: (message.refusal ?? '') !== '',
      usage: cached === undefined || cached === null ? usage : { ...usage, cache_read_input_tokens: cached },
    };
  } catch (error) {
    return { refuses: error instanceof Error ? `${error.name}: ${error.message.slice(0, 200)}` : String(error) };
  }
}

/** How an SDK user reads finish_reason (refusal text wins; "stop" with tool calls asks for tools), written by hand for this test. */
function sdkStop(reading: SdkReading): string {
  if (reading.refused) return 'refusal';
  switch (reading.finish) {
    case 'stop':
      return reading.toolCalls.length > 0 ? 'tool_use' : 'end';
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'length':
      return 'max_tokens';
    case 'content_filter':
      return 'content_filter';
    default:
      return `unknown finish_reason ${String(reading.finish)}`;
  }
}

/** The SDK's reading in zotbox's terms, or undefined when its arguments are not JSON (zotbox never returns such a call). */
function sdkAsTurn(reading: SdkReading): ExpectedTurn | undefined {
  try {
    const toolCalls = reading.toolCalls.map((c) => ({ id: c.id, name: c.name, input: JSON.parse(c.arguments === '' ? '{}' : c.arguments) as Record<string, unknown> }));
    return { text: reading.text, toolCalls, stop: sdkStop(reading) as ExpectedTurn['stop'], usage: reading.usage };
  } catch {
    // Arguments that are not JSON: no turn zotbox could agree with.
    return undefined;
  }
}

function agrees(zotbox: ZotboxOutcome, sdk: SdkReading | { refuses: string }): boolean {
  if ('error' in zotbox || 'refuses' in sdk) return 'error' in zotbox && 'refuses' in sdk;
  return JSON.stringify(sdkAsTurn(sdk)) === JSON.stringify(zotbox);
}

for (const streamCase of OPENAI_STREAM_CORPUS) {
  test(`corpus: ${streamCase.name}`, async (t) => {
    const { outcome, streamed } = await zotboxOutcome(streamCase.chunks);
    t.deepEqual(outcome, streamCase.zotbox, 'zotbox gives the hand-written outcome');
    if (!('error' in outcome)) t.is(streamed, outcome.text, 'the text reached onText as it arrived');
    const sdk = await sdkOutcome(await holdModelServer(t), streamCase.chunks);
    if ('refuses' in sdk) t.log(`the SDK refuses: ${sdk.refuses}`);
    if (streamCase.sdk === 'agree') {
      if ('error' in outcome) t.true('refuses' in sdk, 'both refuse');
      else t.deepEqual('refuses' in sdk ? sdk : sdkAsTurn(sdk), outcome, 'the SDK reads the same turn');
      return;
    }
    const { sdk: documented } = streamCase.sdk;
    if (documented === 'refuses') t.true('refuses' in sdk, 'the SDK refuses, as documented');
    else t.deepEqual('refuses' in sdk ? sdk : { text: sdk.text, toolCalls: sdk.toolCalls, finish: sdk.finish }, documented, 'the SDK gives the documented outcome');
    t.false(agrees(outcome, sdk), 'the documented difference is real');
  });
}

test('corpus case names are unique (each names one ava test)', (t) => {
  t.is(new Set(OPENAI_STREAM_CORPUS.map((c) => c.name)).size, OPENAI_STREAM_CORPUS.length);
});
