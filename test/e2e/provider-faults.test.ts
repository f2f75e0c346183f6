// Whole runs against loopback model servers that misbehave the way real ones do:
// a connection that breaks mid-answer (the partial text is kept and the session
// continues), a stream that breaks before any output (sent again), a pause_turn
// (continued), a refusal (its own status). No test touches the network.
import test from 'ava';
import type { ServerResponse } from 'node:http';
import { readSession } from '../../src/host/run/sessions.js';
import type { RunEvent } from '../../src/host/run/run-events.js';
import { usageLine } from '../../src/cli/run-text.js';
import { agentFixture, anthropicStream, run, serve } from '../fixtures/model-servers.js';

type RunEnd = RunEvent & { type: 'run.end' };

/** One run of the fixture agent, prompt "hi", against the Anthropic-format server at `base`. */
function runHi(fixture: { agent: string; ws: string; state: string }, base: string): Promise<RunEvent[]> {
  return run({
    reference: fixture.agent,
    cwd: fixture.ws,
    prompt: 'hi',
    yes: true,
    env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: base },
    stateDirectory: fixture.state,
    confine: 'off',
    model: 'claude-sonnet-4-5',
  });
}
const endOf = (events: RunEvent[]) => events.at(-1) as RunEnd;

/** Anthropic events up to some text, then the connection is destroyed: the answer broke off. */
function breakAfterText(res: ServerResponse, text: string): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const send = (type: string, data: object) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  send('message_start', { message: { id: 'msg_x', usage: { input_tokens: 5, output_tokens: 1 } } });
  send('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
  res.write(`event: content_block_delta\ndata: ${JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } })}\n\n`, () => res.socket?.destroy());
}

/** One Anthropic answer with a given stop reason and text. */
function answerWithStop(res: ServerResponse, text: string, stopReason: string): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const send = (type: string, data: object) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  send('message_start', { message: { id: 'msg_s', usage: { input_tokens: 5, output_tokens: 1, cache_read_input_tokens: 7 } } });
  send('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
  send('content_block_delta', { index: 0, delta: { type: 'text_delta', text } });
  send('content_block_stop', { index: 0 });
  send('message_delta', { delta: { stop_reason: stopReason }, usage: { output_tokens: 3 } });
  send('message_stop', {});
  res.end();
}

test('a connection that breaks mid-answer: failed with ZB_PROVIDER_INTERRUPTED, turns and text completed so far, the partial text in the session, which continues', async (t) => {
  const { agent, ws, state } = agentFixture(t);
  let count = 0;
  const server = await serve(t, (_body, _req, res) => {
    count++;
    if (count === 1) anthropicStream(res, { text: 'Listing.', tool: { name: 'read', input: { path: 'notes.md' } } }, count);
    else if (count === 2) breakAfterText(res, 'Half an ans');
    else anthropicStream(res, { text: 'All done.' }, count);
  });
  const options = {
    reference: agent,
    cwd: ws,
    yes: true,
    env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.base },
    stateDirectory: state,
    confine: 'off' as const,
    model: 'claude-sonnet-4-5',
  };
  const events = await run({ ...options, prompt: 'Look around.' });
  t.like(endOf(events), { status: 'failed', turns: 1, final_text: 'Listing.', error: { code: 'ZB_PROVIDER_INTERRUPTED' } });
  t.true(events.some((e) => e.type === 'assistant.delta' && e.text === 'Half an ans'));
  t.is(count, 2, 'an answer that had begun is not asked for again');

  const start = events[0] as RunEvent & { type: 'run.start' };
  const recorded = readSession(start.session!.file).messages;
  t.deepEqual(recorded.at(-1), { role: 'assistant', content: [{ type: 'text', text: 'Half an ans' }] });

  const continued = await run({ ...options, prompt: 'Go on.', session: 'continue' });
  t.like(endOf(continued), { status: 'completed', final_text: 'All done.' });
  const sent = server.requests[2]!.body.messages;
  t.deepEqual(sent.slice(-2), [
    { role: 'assistant', content: [{ type: 'text', text: 'Half an ans' }] },
    { role: 'user', content: [{ type: 'text', text: 'Go on.' }] },
  ]);
});

test('a connection that breaks before any output is sent again, and the run completes', async (t) => {
  const { agent, ws, state } = agentFixture(t);
  let count = 0;
  const server = await serve(t, (_body, _req, res) => {
    count++;
    if (count === 1) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': warming up\n\n', () => res.socket?.destroy());
    } else anthropicStream(res, { text: 'Fine.' }, count);
  });
  const events = await runHi({ agent, ws, state }, server.base);
  t.like(endOf(events), { status: 'completed', final_text: 'Fine.', turns: 1 });
  t.is(server.requests.length, 2);
});

test('pause_turn is continued: the paused text is sent back as the last assistant message, and both halves are one answer', async (t) => {
  const { agent, ws, state } = agentFixture(t);
  let count = 0;
  const server = await serve(t, (_body, _req, res) => {
    count++;
    if (count === 1) answerWithStop(res, 'First half, ', 'pause_turn');
    else answerWithStop(res, 'second half.', 'end_turn');
  });
  const events = await runHi({ agent, ws, state }, server.base);
  t.like(endOf(events), { status: 'completed', final_text: 'First half, second half.', turns: 2 });
  // The API refuses a final assistant message ending in whitespace: it is sent trimmed.
  t.deepEqual(server.requests[1]!.body.messages.at(-1), { role: 'assistant', content: [{ type: 'text', text: 'First half,' }] });
  t.deepEqual(
    events.filter((e) => e.type === 'usage').map((e) => e.cache_read_input_tokens),
    [7, 7],
  );
});

test('a refusal ends the run as refused, keeping the refusal text', async (t) => {
  const { agent, ws, state } = agentFixture(t);
  const server = await serve(t, (_body, _req, res) => answerWithStop(res, 'I will not help with that.', 'refusal'));
  const events = await runHi({ agent, ws, state }, server.base);
  t.like(endOf(events), { status: 'refused', final_text: 'I will not help with that.', turns: 1 });
  t.is(server.requests.length, 1);
});

test('model_context_window_exceeded fails the run with ZB_MODEL_CONTEXT_EXCEEDED naming the window', async (t) => {
  const { agent, ws, state } = agentFixture(t);
  const server = await serve(t, (_body, _req, res) => answerWithStop(res, 'Partial', 'model_context_window_exceeded'));
  const events = await runHi({ agent, ws, state }, server.base);
  const end = endOf(events);
  t.like(end, { status: 'failed', error: { code: 'ZB_MODEL_CONTEXT_EXCEEDED' } });
  t.regex(end.error!.message, /claude-sonnet-4-5's context window \(200,000 tokens\)/);
  t.is(server.requests.length, 1);
});

test("run.end totals the usage of every turn and prices it at the model's list prices; text mode prints the total", async (t) => {
  const { agent, ws, state } = agentFixture(t);
  let count = 0;
  const server = await serve(t, (_body, _req, res) => {
    count++;
    if (count === 1) anthropicStream(res, { text: 'Reading.', tool: { name: 'read', input: { path: 'notes.md' } } }, count);
    else answerWithStop(res, 'Done.', 'end_turn');
  });
  const events = await runHi({ agent, ws, state }, server.base);
  const end = endOf(events);
  // Turn 1: 101 in, 20 out (anthropicStream); turn 2: 5 in, 3 out, 7 read from the cache (answerWithStop).
  t.deepEqual(end.usage, { input_tokens: 106, output_tokens: 23, cache_creation_input_tokens: 0, cache_read_input_tokens: 7 });
  // 106 × $3 + 23 × $15 + 7 × $0.30 per million = $0.0006651, rounded to a millionth.
  t.is(end.cost_usd, 0.000665);
  t.is(usageLine(end), '· 2 turns · 106 tokens in (cache: 7 read, 0 written) · 23 out · $0.0007');
});
