// zotbox run against loopback servers speaking the Anthropic and OpenAI
// streaming formats: a multi-turn tool loop with an allowed write, a denied read
// outside the workspace and a denied bash command. No test touches the network.
import test, { type ExecutionContext } from 'ava';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { RunEvent } from '../../src/host/run/run-events.js';
import type { ChatMessage } from '../../src/policy/model-protocol.js';
import { type AnthropicRequestBody, type OpenAIMessage, type OpenAIRequestBody, SCRIPT, agentFixture, anthropicStream, openaiStream, run, serve } from '../fixtures/model-servers.js';

function assertLoop(t: ExecutionContext, events: RunEvent[], ws: string, streamed = true): void {
  t.like(events.at(-1), { type: 'run.end', status: 'completed', turns: 4, final_text: 'Done: notes written; the other two calls were denied.' });
  t.is(readFileSync(path.join(ws, 'notes.md'), 'utf8'), 'hello from the model\n');
  const decisions = events.filter((e): e is RunEvent & { type: 'gate.decision' } => e.type === 'gate.decision');
  t.deepEqual(
    decisions.map((d) => [d.tool, d.allowed, d.code ?? null]),
    [
      ['write', true, null],
      ['read', false, 'ZB_POLICY_PATH_OUTSIDE_SCOPE'],
      ['bash', false, 'ZB_POLICY_SHELL_NOT_ALLOWED'],
    ],
  );
  if (streamed)
    t.true(
      events.some((e) => e.type === 'assistant.delta' && e.text === 'Writing '),
      'text streamed in pieces',
    );
}

/** The text of the tool result a message carries, or a description of what it carries instead (which no pattern below matches). */
function toolResultText(message: ChatMessage | OpenAIMessage | undefined): string {
  if (message?.role === 'tool') return message.content;
  const block = message?.role === 'user' && typeof message.content !== 'string' ? message.content[0] : undefined;
  return block?.type === 'tool_result' ? block.content : `no tool result in ${JSON.stringify(message)}`;
}

for (const provider of ['anthropic', 'openai'] as const) {
  test(`${provider}: a streamed multi-turn tool loop with an allowed write and denied read and bash`, async (t) => {
    const { agent, ws, state } = agentFixture(t);
    let count = 0;
    const server = await serve<AnthropicRequestBody | OpenAIRequestBody>(t, (_body, _req, res) => {
      const step = SCRIPT[count] ?? SCRIPT.at(-1)!;
      count++;
      (provider === 'anthropic' ? anthropicStream : openaiStream)(res, step, count);
    });
    const env = provider === 'anthropic' ? { ANTHROPIC_API_KEY: 'sk-test-a', ANTHROPIC_BASE_URL: server.base } : { OPENAI_API_KEY: 'sk-test-o', OPENAI_BASE_URL: `${server.base}/v1` };
    const events = await run({
      reference: agent,
      cwd: ws,
      prompt: 'Write some notes.',
      yes: true,
      env,
      stateDirectory: state,
      confine: 'off',
      model: provider === 'anthropic' ? 'claude-sonnet-4-5' : 'gpt-4.1',
    });
    assertLoop(t, events, ws);
    // What the provider saw: the key from the host, the tool results, the denials as errors.
    const headers = server.requests[0]!.headers;
    if (provider === 'anthropic') {
      const [firstBody, secondBody, thirdBody] = server.requests.map((request) => request.body as AnthropicRequestBody);
      t.is(headers['x-api-key'], 'sk-test-a');
      t.like(firstBody, { model: 'claude-sonnet-4-5', stream: true });
      t.is(firstBody!.tools.map((tool) => tool.name).join(','), 'read,write,edit,bash');
      t.like(secondBody!.messages.at(-1), { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', is_error: false }] });
      t.like(thirdBody!.messages.at(-1), { role: 'user', content: [{ type: 'tool_result', is_error: true }] });
      t.regex(toolResultText(thirdBody!.messages.at(-1)), /ZB_POLICY_PATH_OUTSIDE_SCOPE/);
    } else {
      const [firstBody, secondBody, thirdBody] = server.requests.map((request) => request.body as OpenAIRequestBody);
      t.is(headers['authorization'], 'Bearer sk-test-o');
      t.like(firstBody!.messages[0], { role: 'system' });
      t.like(secondBody!.messages.at(-1), { role: 'tool', tool_call_id: 'call_1' });
      t.regex(toolResultText(thirdBody!.messages.at(-1)), /^error: ZB_POLICY_PATH_OUTSIDE_SCOPE/);
    }
  });
}

test('429 and 5xx are retried honouring retry-after; a bad key is ZB_PROVIDER_AUTH', async (t) => {
  const { agent, ws, state } = agentFixture(t);
  let count = 0;
  const flaky = await serve(t, (_body, _req, res) => {
    count++;
    if (count === 1) res.writeHead(429, { 'retry-after': '0' }).end('slow down');
    else if (count === 2) res.writeHead(503).end('busy');
    else anthropicStream(res, { text: 'ok' }, count);
  });
  const events = await run({
    reference: agent,
    cwd: ws,
    prompt: 'hi',
    yes: true,
    env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: flaky.base },
    stateDirectory: state,
    confine: 'off',
    model: 'claude-sonnet-4-5',
  });
  t.like(events.at(-1), { type: 'run.end', status: 'completed', final_text: 'ok' });
  t.is(count, 3);
  const denied = await serve(t, (_body, _req, res) => res.writeHead(401).end('{"error":"invalid x-api-key"}'));
  const failed = await run({
    reference: agent,
    cwd: ws,
    prompt: 'hi',
    yes: true,
    env: { ANTHROPIC_API_KEY: 'wrong', ANTHROPIC_BASE_URL: denied.base },
    stateDirectory: state,
    confine: 'off',
    model: 'claude-sonnet-4-5',
  });
  t.like(failed.at(-1), { type: 'run.end', status: 'failed', error: { code: 'ZB_PROVIDER_AUTH' } });
});

test('a stream that ends without a finish reason, after text, is interrupted (never guessed complete); a malformed one fails', async (t) => {
  const { agent, ws, state } = agentFixture(t);
  const truncated = await serve(t, (_body, _req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end('data: {"choices":[{"delta":{"content":"partial"}}]}\n\n'); // no finish_reason, no [DONE]
  });
  const options = { reference: agent, cwd: ws, prompt: 'hi', yes: true, stateDirectory: state, confine: 'off' as const, model: 'gpt-4.1' };
  const events = await run({ ...options, env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: `${truncated.base}/v1` } });
  t.like(events.at(-1), { type: 'run.end', status: 'failed', error: { code: 'ZB_PROVIDER_INTERRUPTED' } });
  t.is(truncated.requests.length, 1, 'output had begun: not sent again');
  const malformed = await serve(t, (_body, _req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end('data: {"choices":[{"delta":{"content":5}}]}\n\ndata: [DONE]\n\n');
  });
  const failed = await run({ ...options, env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: `${malformed.base}/v1` } });
  t.like(failed.at(-1), { type: 'run.end', status: 'failed', error: { code: 'ZB_PROVIDER_FAILED' } });
});

test('--record writes a transcript that replays the same run offline', async (t) => {
  const { agent, ws, state, root } = agentFixture(t);
  let count = 0;
  const server = await serve(t, (_body, _req, res) => anthropicStream(res, SCRIPT[count++] ?? SCRIPT.at(-1)!, count));
  const file = path.join(root, 'recorded.json');
  await run({
    reference: agent,
    cwd: ws,
    prompt: 'Write some notes.',
    yes: true,
    env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.base },
    stateDirectory: state,
    confine: 'off',
    model: 'claude-sonnet-4-5',
    recordFile: file,
  });
  const replayed = await run({ reference: agent, cwd: ws, prompt: 'Write some notes.', yes: true, env: {}, stateDirectory: state, confine: 'off', replayFile: file });
  assertLoop(t, replayed, ws, false);
});

test('a tool call cut off by the output limit is dropped, never guessed at, and the model is told to go on', async (t) => {
  for (const provider of ['anthropic', 'openai'] as const) {
    const { agent, ws, state } = agentFixture(t);
    let count = 0;
    const server = await serve<AnthropicRequestBody | OpenAIRequestBody>(t, (_body, _req, res) => {
      count++;
      if (count > 1) return (provider === 'anthropic' ? anthropicStream : openaiStream)(res, { text: 'Done after the cut.' }, count);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (provider === 'anthropic') {
        const send = (type: string, data: object) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
        send('message_start', { message: { id: 'm1', usage: { input_tokens: 10, output_tokens: 1 } } });
        send('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 'toolu_cut', name: 'write', input: {} } });
        send('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '{"path":"big.txt","content":"aaaa' } });
        send('content_block_stop', { index: 0 });
        send('message_delta', { delta: { stop_reason: 'max_tokens' }, usage: { output_tokens: 8192 } });
        send('message_stop', {});
      } else {
        const chunk = (data: object) => res.write(`data: ${JSON.stringify(data)}\n\n`);
        chunk({
          choices: [
            { index: 0, delta: { tool_calls: [{ index: 0, id: 'call_cut', type: 'function', function: { name: 'write', arguments: '{"path":"big.txt","content":"aaaa' } }] }, finish_reason: null },
          ],
        });
        chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'length' }] });
        res.write('data: [DONE]\n\n');
      }
      res.end();
    });
    const env = provider === 'anthropic' ? { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.base } : { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: `${server.base}/v1` };
    const events = await run({
      reference: agent,
      cwd: ws,
      prompt: 'Write a big file.',
      yes: true,
      env,
      stateDirectory: state,
      confine: 'off',
      model: provider === 'anthropic' ? 'claude-sonnet-4-5' : 'gpt-4.1',
    });
    t.like(events.at(-1), { type: 'run.end', status: 'completed', final_text: 'Done after the cut.' }, provider);
    t.false(
      events.some((e) => e.type === 'tool.call'),
      `${provider}: the unfinished call never reached the gate`,
    );
    t.regex(JSON.stringify(server.requests[1]!.body.messages.at(-1)), /cut off at the output token limit/, provider);
  }
});
