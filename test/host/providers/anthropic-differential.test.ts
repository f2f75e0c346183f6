// Differential test (issue 12, item 7): every corpus stream is served from a
// loopback server to the official SDK's streaming helper and fed, in the same
// pieces, to zotbox's SSE reader and Anthropic decoder. Zotbox must match the
// case's hand-written expectation, and the SDK must agree or differ exactly as
// the case documents.
import Anthropic from '@anthropic-ai/sdk';
import test from 'ava';
import type { AssistantTurn, StopReason } from '../../../src/policy/model-protocol.js';
import { ANTHROPIC_STREAM_CASES, type AnthropicStreamCase, type SdkOutcome } from '../../fixtures/streams/anthropic-corpus.js';
import { decodeAnthropicStream } from '../../fixtures/streams/anthropic-decode.js';
import { holdModelServer, type HeldModelServer } from '../../fixtures/held-model-server.js';

/** The SDK's stop reasons in zotbox's words, by hand from the API reference. */
const SDK_STOP_IN_ZOTBOX_TERMS: Readonly<Record<string, StopReason>> = {
  end_turn: 'end',
  stop_sequence: 'end',
  tool_use: 'tool_use',
  max_tokens: 'max_tokens',
  pause_turn: 'pause_turn',
  refusal: 'refusal',
};

interface SdkResult {
  readonly outcome: SdkOutcome;
  readonly usage: Readonly<Record<string, number>> | undefined;
}

/** Serves the case's pieces to `messages.stream(...).finalMessage()`. */
async function runSdk(server: HeldModelServer, chunks: AnthropicStreamCase['chunks']): Promise<SdkResult> {
  const client = new Anthropic({ baseURL: server.base, apiKey: 'k', maxRetries: 0, logLevel: 'off' });
  const final = client.messages.stream({ model: 'claude-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
  const { res } = await server.request(0);
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const chunk of chunks) res.write(chunk);
  res.end();
  try {
    const message = await final;
    const text = message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
    const toolCalls = message.content.flatMap((block) => (block.type === 'tool_use' ? [{ id: block.id, name: block.name, input: block.input }] : []));
    const usage = Object.fromEntries(
      (['input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'] as const).flatMap((field) => {
        const value: unknown = message.usage[field];
        return typeof value === 'number' ? [[field, value]] : [];
      }),
    );
    return { outcome: { text, toolCalls, stop: message.stop_reason }, usage };
  } catch {
    return { outcome: 'refused', usage: undefined };
  }
}

/** Zotbox's turn in the SDK outcome's form, with the SDK's stop mapped into zotbox's words for comparison. */
function zotboxOutcome(turn: AssistantTurn | undefined): { text: string; toolCalls: { id: string; name: string; input: unknown }[]; stop: string } | 'refused' {
  if (turn === undefined) return 'refused';
  const text = turn.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
  const toolCalls = turn.content.flatMap((block) => (block.type === 'tool_use' ? [{ id: block.id, name: block.name, input: block.input }] : []));
  return { text, toolCalls, stop: turn.stop };
}

function inZotboxTerms(outcome: SdkOutcome): SdkOutcome {
  if (outcome === 'refused') return outcome;
  const stop = outcome.stop === null ? null : (SDK_STOP_IN_ZOTBOX_TERMS[outcome.stop] ?? `unmapped:${outcome.stop}`);
  return { ...outcome, stop };
}

for (const streamCase of ANTHROPIC_STREAM_CASES) {
  test(`zotbox and the SDK on: ${streamCase.name}`, async (t) => {
    const zotbox = await decodeAnthropicStream(streamCase.chunks);
    if ('turn' in streamCase.zotbox) {
      t.is(zotbox.error, undefined, zotbox.error?.message);
      t.deepEqual(zotbox.turn, streamCase.zotbox.turn);
    } else {
      t.is(zotbox.error?.code, streamCase.zotbox.error, zotbox.error?.message);
      if (streamCase.zotbox.retryable !== undefined) t.is(zotbox.error?.details?.retryable, streamCase.zotbox.retryable);
    }

    const sdk = await runSdk(await holdModelServer(t), streamCase.chunks);
    if (streamCase.sdk === 'agree') {
      t.deepEqual(inZotboxTerms(sdk.outcome), zotboxOutcome(zotbox.turn), 'the SDK does not agree');
      if (zotbox.turn !== undefined) t.deepEqual(sdk.usage, zotbox.turn.usage, 'the SDK counts usage differently');
    } else {
      t.deepEqual(sdk.outcome, streamCase.sdk.outcome, 'the SDK no longer does what the documented difference says');
      t.notDeepEqual(inZotboxTerms(sdk.outcome), zotboxOutcome(zotbox.turn), 'documented as a difference, but the SDK and zotbox now agree');
    }
  });
}

test('the corpus names every case once', (t) => {
  const names = ANTHROPIC_STREAM_CASES.map((streamCase) => streamCase.name);
  t.is(new Set(names).size, names.length);
});
