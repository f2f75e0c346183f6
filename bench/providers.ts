// npm run bench -- providers
// What the model providers add to every turn, against the least any client
// must do with the same bytes, measured in the same run:
//  - building and checking a request body (the history reshaped, every API
//    rule checked) against JSON.stringify of that body, which sending it costs
//    anyway; target: at most 0.5×;
//  - reading a streamed answer (SSE lines, zod on every event, the decoder)
//    against JSON.parse of each event's data alone; target: at most 3×.
import { buildAnthropicRequestBody, checkAnthropicRequestBody } from '../src/host/providers/anthropic-request.js';
import { AnthropicStreamDecoder } from '../src/host/providers/anthropic-stream.js';
import { buildOpenAiRequestBody, checkOpenAiRequestBody } from '../src/host/providers/openai-request.js';
import { OpenAiStreamDecoder } from '../src/host/providers/openai-stream.js';
import type { ModelTurnRequest } from '../src/host/providers/provider.js';
import { readServerSentEvents } from '../src/host/providers/sse.js';
import type { StreamDecoder } from '../src/host/providers/stream-decoder.js';
import type { ChatMessage } from '../src/policy/model-protocol.js';
import { toolsFor } from '../src/worker/tools.js';
import { formatTable, measurePair } from './harness.js';

/** A long session: 400 tool rounds, each a 500-character answer and a 10 KB result (about 4 MB). */
function longConversation(): ModelTurnRequest {
  const messages: ChatMessage[] = [{ role: 'user', content: [{ type: 'text', text: 'Review the project.' }] }];
  for (let i = 0; i < 400; i++) {
    messages.push({
      role: 'assistant',
      content: [
        { type: 'text', text: 'x'.repeat(500) },
        { type: 'tool_use', id: `toolu_${i}`, name: 'read', input: { path: `src/f${i}.ts` } },
      ],
    });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: 'y'.repeat(10_000), is_error: false }] });
  }
  return { system: 's'.repeat(5_000), messages, tools: toolsFor({ bashAvailable: true, hasSkills: true }) };
}

const sse = (data: object, event?: string) => `${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`;

/** An Anthropic answer of 2,000 text deltas and a tool call, in 64 KiB chunks as a socket gives them. */
function anthropicAnswer(): string[] {
  const parts = [sse({ type: 'message_start', message: { id: 'm', usage: { input_tokens: 9, output_tokens: 1 } } }, 'message_start')];
  parts.push(sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start'));
  for (let i = 0; i < 2_000; i++) parts.push(sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'word ' } }, 'content_block_delta'));
  parts.push(sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop'));
  parts.push(sse({ type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_1', name: 'write', input: {} } }, 'content_block_start'));
  for (let i = 0; i < 200; i++)
    parts.push(sse({ type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: i === 0 ? '{"path":"a","content":"' : 'aaaaaaaa' } }, 'content_block_delta'));
  parts.push(sse({ type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '"}' } }, 'content_block_delta'));
  parts.push(sse({ type: 'content_block_stop', index: 1 }, 'content_block_stop'));
  parts.push(sse({ type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 2_300 } }, 'message_delta'));
  parts.push(sse({ type: 'message_stop' }, 'message_stop'));
  return chunked(parts.join(''));
}

/** The same answer in Chat Completions chunks. */
function openAiAnswer(): string[] {
  const chunk = (delta: object, finish: string | null = null) => sse({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] });
  const parts = [chunk({ role: 'assistant', content: '' })];
  for (let i = 0; i < 2_000; i++) parts.push(chunk({ content: 'word ' }));
  parts.push(chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'write', arguments: '{"path":"a","content":"' } }] }));
  for (let i = 0; i < 200; i++) parts.push(chunk({ tool_calls: [{ index: 0, function: { arguments: 'aaaaaaaa' } }] }));
  parts.push(chunk({ tool_calls: [{ index: 0, function: { arguments: '"}' } }] }));
  parts.push(chunk({}, 'tool_calls'));
  parts.push(sse({ id: 'c', choices: [], usage: { prompt_tokens: 9, completion_tokens: 2_300 } }));
  parts.push('data: [DONE]\n\n');
  return chunked(parts.join(''));
}

function chunked(text: string): string[] {
  const chunks: string[] = [];
  for (let at = 0; at < text.length; at += 65_536) chunks.push(text.slice(at, at + 65_536));
  return chunks;
}

async function* asStream(chunks: readonly string[]): AsyncGenerator<Buffer> {
  for (const chunk of chunks) yield Buffer.from(chunk);
}

async function decode(chunks: readonly string[], decoder: StreamDecoder): Promise<void> {
  for await (const event of readServerSentEvents(asStream(chunks))) {
    decoder.push(event);
    if (decoder.complete) break;
  }
  decoder.finish();
}

/** The floor: split the same bytes at "data: " lines and JSON.parse each (no validation, no state). */
async function parseOnly(chunks: readonly string[]): Promise<void> {
  let text = '';
  for await (const chunk of asStream(chunks)) text += chunk.toString('utf8');
  for (const line of text.split('\n')) if (line.startsWith('data: {')) JSON.parse(line.slice(6));
}

const ms = (value: number) => `${value.toFixed(2)} ms`;

export async function runProvidersBench(): Promise<void> {
  const request = longConversation();
  const rows: string[][] = [];
  const options = { warmup: 5, samples: 31 };
  for (const [wire, build] of [
    ['anthropic', () => checkAnthropicRequestBody(buildAnthropicRequestBody({ model: 'm', maxTokens: 8192 }, request))],
    ['openai', () => checkOpenAiRequestBody(buildOpenAiRequestBody({ model: 'm' }, request))],
  ] as const) {
    const body = wire === 'anthropic' ? buildAnthropicRequestBody({ model: 'm', maxTokens: 8192 }, request) : buildOpenAiRequestBody({ model: 'm' }, request);
    const pair = await measurePair({ name: 'stringify', fn: () => JSON.stringify(body) }, { name: 'build+check', fn: build }, options);
    rows.push([wire, 'request body (4 MB history): build + check vs JSON.stringify', ms(pair.b.medianMs), ms(pair.a.medianMs), `${pair.speedup.toFixed(2)}×`, '≤ 0.5×']);
  }
  for (const [wire, chunks, decoder] of [
    ['anthropic', anthropicAnswer(), () => new AnthropicStreamDecoder({ model: 'm', contextWindow: 200_000, onText: () => {} })],
    ['openai', openAiAnswer(), () => new OpenAiStreamDecoder({ model: 'm', contextWindow: 128_000, onText: () => {} })],
  ] as const) {
    const pair = await measurePair({ name: 'parse only', fn: () => parseOnly(chunks) }, { name: 'decode', fn: () => decode(chunks, decoder()) }, options);
    rows.push([wire, 'stream of 2,200 events: SSE + zod + decoder vs JSON.parse per event', ms(pair.b.medianMs), ms(pair.a.medianMs), `${pair.speedup.toFixed(2)}×`, '≤ 3×']);
  }
  process.stdout.write(formatTable(['wire', 'task', 'zotbox median', 'baseline median', 'zotbox ÷ baseline', 'target'], rows));
}
