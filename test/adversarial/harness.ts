// Adversarial review of issue 12 (model providers): loopback model servers that
// misbehave on purpose, and whole runs against them. Owns nothing in src/; must
// never touch the network (every server listens on 127.0.0.1).
import type { ExecutionContext } from 'ava';
import type { ServerResponse } from 'node:http';
import { ModelEndpoints } from '../../src/host/providers/model-endpoints.js';
import type { RunEvent } from '../../src/host/run/run-events.js';
import { agentFixture, run, serve } from '../fixtures/model-servers.js';

export type Provider = 'anthropic' | 'openai';

/** One Anthropic SSE event, as the API writes it (event line, then data). */
export function anthropicEvent(type: string, data: object): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

/** One Chat Completions chunk for choice 0. */
export function openaiChunk(delta: object | null, finish: string | null = null, extra: object = {}): string {
  return `data: ${JSON.stringify({ id: 'chatcmpl-x', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
}

/** A finished Anthropic answer holding only text. */
export function anthropicText(res: ServerResponse, text: string): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write(anthropicEvent('message_start', { message: { id: 'm', usage: { input_tokens: 5, output_tokens: 1 } } }));
  res.write(anthropicEvent('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }));
  res.write(anthropicEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text } }));
  res.write(anthropicEvent('content_block_stop', { index: 0 }));
  res.write(anthropicEvent('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 3 } }));
  res.end(anthropicEvent('message_stop', {}));
}

/** A finished Chat Completions answer holding only text. */
export function openaiText(res: ServerResponse, text: string): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write(openaiChunk({ role: 'assistant', content: text }));
  res.end(`${openaiChunk({}, 'stop')}data: [DONE]\n\n`);
}

/** Endpoints whose own retries wait a millisecond, so a test of five attempts takes no time. */
export function fastEndpoints(t: ExecutionContext): ModelEndpoints {
  const endpoints = new ModelEndpoints({ backoff: { baseMs: 1, maxBackoffMs: 2 } });
  t.teardown(() => endpoints.close());
  return endpoints;
}

/**
 * A whole run of the fixture agent (read, write, edit, bash; bash allows ls)
 * against a loopback server; `answer` writes the response to request n (0-based).
 */
export async function runAgainst<Body = { messages: unknown[] }>(
  t: ExecutionContext,
  provider: Provider,
  answer: (n: number, res: ServerResponse, body: Body) => void,
  options: { prompt?: string; maxTurns?: number } = {},
): Promise<{ events: RunEvent[]; requests: { body: Body }[]; ws: string }> {
  const { agent, ws, state } = agentFixture(t);
  let count = 0;
  const server = await serve<Body>(t, (body, _req, res) => answer(count++, res, body));
  const env = provider === 'anthropic' ? { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.base } : { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: `${server.base}/v1` };
  const events = await run({
    reference: agent,
    cwd: ws,
    prompt: options.prompt ?? 'Go.',
    yes: true,
    env,
    stateDirectory: state,
    confine: 'off',
    model: provider === 'anthropic' ? 'claude-sonnet-4-5' : 'gpt-4.1',
    modelEndpoints: fastEndpoints(t),
    ...(options.maxTurns === undefined ? {} : { maxTurns: options.maxTurns }),
  });
  return { events, requests: server.requests, ws };
}

export function endOf(events: readonly RunEvent[]): Extract<RunEvent, { type: 'run.end' }> {
  const end = events.at(-1);
  if (end?.type !== 'run.end') throw new Error(`the run did not end with run.end: ${JSON.stringify(end)}`);
  return end;
}
