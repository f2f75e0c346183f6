// entry.pre end to end: a startup command goes through the gate like any bash
// call and its output reaches the model with the first prompt; a refused or
// failing command stops the run before the model is asked anything; text is the
// first user turn, answered before the prompt.
import test, { type ExecutionContext } from 'ava';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RunEvent } from '../../src/host/run/run-events.js';
import type { ChatMessage } from '../../src/policy/model-protocol.js';
import { type AnthropicRequestBody, anthropicStream, run, serve } from '../fixtures/model-servers.js';
import { tempDir } from '../fixtures/temp.js';

async function setup(t: ExecutionContext, pre: string) {
  const root = realpathSync(tempDir(t, 'zb-pre-'));
  const agent = path.join(root, 'agent');
  mkdirSync(agent);
  writeFileSync(
    path.join(agent, 'manifest.json'),
    JSON.stringify({ zotfile: 1, name: 'starter', version: '1.0.0', permissions: { fs: { read: ['${workspace}'] }, bash: { mode: 'allowlist', allow: ['printf', 'ls'] } }, entry: { pre } }),
  );
  let count = 0;
  const server = await serve(t, (_body, _req, res) => anthropicStream(res, { text: `answer ${++count}` }, count));
  const options = {
    reference: agent,
    cwd: root,
    prompt: 'What now?',
    yes: true,
    env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.base },
    stateDirectory: tempDir(t, 'zb-pre-state-'), // beside the workspace: unconfined, no command may run in a directory holding it
    confine: 'off' as const,
    model: 'claude-sonnet-4-5',
  };
  return { server, options };
}

/** The text a message opens with, or a description of what it opens with instead (which no expectation below matches). */
const openingText = (message: ChatMessage | undefined): string => {
  const block = message?.content[0];
  return block?.type === 'text' ? block.text : `no text in ${JSON.stringify(message)}`;
};
const firstUserText = (body: AnthropicRequestBody) => openingText(body.messages[0]);
const end = (events: RunEvent[]) => events.at(-1) as RunEvent & { type: 'run.end' };

test('"!command" runs through the gate before the first turn, and the model gets its output with the prompt', async (t) => {
  const { server, options } = await setup(t, '  !printf streamed-pre  ');
  const events = await run(options);
  t.like(end(events), { status: 'completed', final_text: 'answer 1' });
  t.like(
    events.find((e) => e.type === 'gate.decision'),
    { id: 0, tool: 'bash', allowed: true, argv: [['printf', 'streamed-pre']] },
  );
  t.like(
    events.find((e) => e.type === 'tool.result'),
    { id: 0, ok: true },
  );
  t.regex(firstUserText(server.requests[0]!.body), /`printf streamed-pre` \(entry\.pre\) printed:\nstreamed-pre\n\nWhat now\?$/);
});

for (const [label, pre, pattern] of [
  ['refused by the gate', '!curl http://example.com', /entry\.pre: "curl http:\/\/example\.com" was refused by the gate \(ZB_POLICY_SHELL_NOT_ALLOWED/],
  ['failing', '!ls no-such-directory', /entry\.pre: "ls no-such-directory" failed \(exit 2\): ls: cannot access/],
] as const) {
  test(`a ${label} startup command stops the run with ZB_RUN_PRE_FAILED before any model call`, async (t) => {
    const { server, options } = await setup(t, pre);
    const events = await run(options);
    t.like(end(events), { status: 'failed', error: { code: 'ZB_RUN_PRE_FAILED' } });
    t.regex(end(events).error!.message, pattern);
    t.is(server.requests.length, 0);
  });
}

test('text is the first user turn, answered before the prompt; whitespace is nothing', async (t) => {
  const { server, options } = await setup(t, 'Read the README first.');
  const events = await run(options);
  t.like(end(events), { status: 'completed', final_text: 'answer 2', turns: 2 });
  t.is(firstUserText(server.requests[0]!.body), 'Read the README first.');
  t.deepEqual(server.requests[1]!.body.messages.map(openingText), ['Read the README first.', 'answer 1', 'What now?']);

  const blank = await setup(t, ' \n\t ');
  await run(blank.options);
  t.is(firstUserText(blank.server.requests[0]!.body), 'What now?');
});
