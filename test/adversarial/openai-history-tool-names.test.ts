// Finding: the Chat Completions request repeats the model's tool call names as
// they were, though OpenAI refuses a name outside ^[a-zA-Z0-9_-]+$ anywhere in
// messages[].tool_calls[].function.name (400 invalid_value, e.g. mcp-use/mcp-use
// issue 90). Models do call tools that do not exist ("multi_tool_use.parallel",
// "functions.read", "read file"): the gate refuses the call, the history keeps
// it, and every later request of the run, and of the session continued, fails.
// The Anthropic builder rewrites such names; the OpenAI builder and its check don't.
import test from 'ava';
import type { ServerResponse } from 'node:http';
import { buildOpenAiRequestBody } from '../../src/host/providers/openai-request.js';
import type { ChatMessage } from '../../src/policy/model-protocol.js';
import { endOf, openaiChunk, openaiText, runAgainst } from './harness.js';

/** OpenAI's rule for a function name, wherever one appears in a request. */
const OPENAI_FUNCTION_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

interface WireBody {
  messages: { role: string; tool_calls?: { function: { name: string } }[] }[];
}

function badNames(body: WireBody): string[] {
  return body.messages.flatMap((message) => (message.tool_calls ?? []).map((call) => call.function.name)).filter((name) => !OPENAI_FUNCTION_NAME.test(name));
}

for (const name of ['multi_tool_use.parallel', 'functions.read', 'read file', 'écrire']) {
  test(`openai request: a history tool call named ${JSON.stringify(name)} is sent under a name OpenAI takes`, (t) => {
    const messages: ChatMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name, input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: 'error: ZB_GATE_UNKNOWN_TOOL', is_error: true }] },
    ];
    const body = buildOpenAiRequestBody({ model: 'gpt-4.1' }, { system: 's', messages, tools: [] }) as WireBody;
    t.deepEqual(badNames(body), []);
  });
}

test('openai run: a call to a tool that does not exist, named as OpenAI models sometimes do, does not make the next request fail', async (t) => {
  const { events } = await runAgainst<WireBody>(t, 'openai', (n, res: ServerResponse, body) => {
    const bad = badNames(body);
    if (bad.length > 0) {
      // What api.openai.com answers.
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: {
            message: `Invalid 'messages[2].tool_calls[0].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
            type: 'invalid_request_error',
            param: 'messages[2].tool_calls[0].function.name',
            code: 'invalid_value',
          },
        }),
      );
      return;
    }
    if (n > 0) return openaiText(res, 'Done.');
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(openaiChunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'multi_tool_use.parallel', arguments: '{}' } }] }));
    res.end(`${openaiChunk({}, 'tool_calls')}data: [DONE]\n\n`);
  });
  t.true(events.some((e) => e.type === 'tool.call' && e.tool === 'multi_tool_use.parallel'));
  t.like(endOf(events), { status: 'completed', final_text: 'Done.' });
});
