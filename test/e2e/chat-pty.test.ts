// Interactive chat in a real pseudo-terminal (issue 13, item 1): the built CLI
// runs on a pty and the tests read its screen as a user would. Every answer stays
// on screen above the next prompt; Ctrl-C during an answer cancels only that answer
// (the session keeps what was said and the chat goes on); Ctrl-C at the prompt,
// Ctrl-C twice during an answer, or Ctrl-D at an empty prompt end the chat.
import test, { type ExecutionContext } from 'ava';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { latestSessionFile } from '../../src/host/run/session-catalog.js';
import { readSession } from '../../src/host/run/sessions.js';
import { holdModelServer, type HeldRequest } from '../fixtures/held-model-server.js';
import { anthropicStream } from '../fixtures/model-servers.js';
import { BIN } from '../fixtures/paths.js';
import { startPty, type PtySession } from '../fixtures/pty.js';
import { tempDir } from '../fixtures/temp.js';
import type { VtScreen } from '../fixtures/vt-screen.js';
import { agentSessionsDirectory } from '../../src/host/consent/agent-directory.js';

interface Chat {
  readonly root: string;
  readonly agent: string;
  readonly state: string;
}

function chatAgent(t: ExecutionContext): Chat {
  const root = realpathSync(tempDir(t, 'zb-chat-pty-'));
  const agent = path.join(root, 'agent');
  mkdirSync(agent);
  writeFileSync(
    path.join(agent, 'manifest.json'),
    JSON.stringify({ zotfile: 1, name: 'chatter', version: '1.0.0', permissions: { fs: { read: ['${workspace}'] } }, entry: { greeting: 'Hello! Ask me anything.' } }),
  );
  writeFileSync(path.join(root, 'notes.txt'), 'a note\n');
  return { root, agent, state: path.join(root, 'state') };
}

function startChat(t: ExecutionContext, chat: Chat, extraArgs: readonly string[], env: Record<string, string> = {}): PtySession {
  return startPty(t, [process.execPath, BIN, 'run', chat.agent, '-y', '--confine', 'off', ...extraArgs], {
    cwd: chat.root,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ZOTBOX_HOME: chat.state, ...env },
  });
}

/** The input prompt is drawn and waiting: the cursor sits after "› " on an otherwise empty line. */
const atPrompt = (screen: VtScreen) => screen.cursorLine() === '›' && screen.cursor().column === 2;
/** A fresh prompt below the line where `message` was typed. */
const promptAfter = (message: string) => (screen: VtScreen) => atPrompt(screen) && screen.lines().indexOf(`› ${message}`) >= 0 && screen.lines().indexOf(`› ${message}`) < screen.cursor().row;

const usage = { input_tokens: 1, output_tokens: 1 };

test('in a real terminal every streamed answer stays on screen, above the next prompt; Ctrl-D at an empty prompt ends the chat', async (t) => {
  const chat = chatAgent(t);
  const transcript = path.join(chat.root, 'chat.json');
  const turns = [
    { content: [{ type: 'text', text: 'First answer, without a newline at its end.' }], stop: 'end', usage },
    {
      content: [
        { type: 'text', text: 'Let me look.' },
        { type: 'tool_use', id: 't1', name: 'read', input: { path: 'notes.txt' } },
      ],
      stop: 'tool_use',
      usage,
    },
    { content: [{ type: 'text', text: 'Second answer, also unterminated.' }], stop: 'end', usage },
  ];
  writeFileSync(transcript, JSON.stringify({ zotbox_replay: 1, model: 'replay', turns }));
  const pty = startChat(t, chat, ['--replay', transcript]);

  await pty.waitFor('the first prompt', atPrompt);
  t.true(pty.screen.lines().includes('Hello! Ask me anything.'), 'the greeting is shown');
  pty.press('hello\r');
  await pty.waitFor('the prompt after the first answer', promptAfter('hello'));
  const first = pty.screen.lines();
  const answerRow = first.indexOf('First answer, without a newline at its end.');
  t.true(answerRow > first.indexOf('› hello') && answerRow < pty.screen.cursor().row, `the answer is on screen between its message and the prompt\n${pty.screen.text()}`);

  pty.press('again\r');
  await pty.waitFor('the prompt after the second answer', promptAfter('again'));
  const lines = pty.screen.lines();
  const order = ['› hello', 'First answer, without a newline at its end.', '› again', 'Let me look.', 'Second answer, also unterminated.'].map((line) => lines.indexOf(line));
  t.deepEqual(
    order.map((row) => row >= 0),
    [true, true, true, true, true],
    pty.screen.text(),
  );
  t.deepEqual(
    [...order].sort((a, b) => a - b),
    order,
    'in the order they happened',
  );
  t.true(
    lines.some((line) => line === '  ✔ read notes.txt (7 B)'),
    'the tool call shows',
  );

  pty.press('\u0004');
  t.is(await pty.exited, 0);
  t.true(pty.screen.lines().includes('Second answer, also unterminated.'), 'the last answer is still there after the chat ends');
});

/** Starts an Anthropic stream on a held request and sends `text`, leaving the answer open. */
function startAnswer(request: HeldRequest, text: string): void {
  const send = (type: string, data: object) => request.res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  request.res.writeHead(200, { 'content-type': 'text/event-stream' });
  send('message_start', { message: { id: 'msg_1', usage: { input_tokens: 10, output_tokens: 1 } } });
  send('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
  send('content_block_delta', { index: 0, delta: { type: 'text_delta', text } });
}

const closed = (request: HeldRequest) => new Promise<void>((resolve) => request.res.once('close', () => resolve()));

interface SentMessage {
  role: string;
  content: { type: string; text?: string }[];
}

test('Ctrl-C during an answer cancels that answer and returns to the prompt; the session keeps what was said; Ctrl-C at the prompt ends the chat', async (t) => {
  const chat = chatAgent(t);
  const server = await holdModelServer(t);
  const pty = startChat(t, chat, ['--model', 'claude-sonnet-4-5'], { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.base });

  await pty.waitFor('the first prompt', atPrompt);
  pty.press('tell me a long story\r');
  const first = await server.request(0);
  const firstClosed = closed(first);
  startAnswer(first, 'Once upon a time');
  await pty.waitFor('the start of the answer', (screen) => screen.lines().includes('Once upon a time'));
  pty.press('\u0003');
  await pty.waitFor('the prompt after the cancelled answer', promptAfter('tell me a long story'));
  await firstClosed; // the model request was aborted: its connection is gone
  const lines = pty.screen.lines();
  t.true(lines.includes('Once upon a time'), 'what was said stays on screen');
  t.true(
    lines.some((line) => line.includes('answer cancelled')),
    pty.screen.text(),
  );
  t.false(
    lines.some((line) => line.includes('error[ZB_GATE_CANCELLED]')),
    'the run goes on',
  );

  pty.press('a short one then\r');
  const second = await server.request(1);
  anthropicStream(second.res, { text: 'The end.' }, 2);
  await pty.waitFor('the prompt after the second answer', promptAfter('a short one then'));
  const sent = (second.body.messages as unknown as SentMessage[]).map((m) => [m.role, m.content.map((b) => b.text ?? b.type).join('')]);
  t.is(sent.length, 3);
  t.deepEqual(sent[0], ['user', 'tell me a long story']);
  t.is(sent[1]![0], 'assistant');
  t.true(sent[1]![1]!.startsWith('Once upon a time'), 'the model is sent what it had said');
  t.deepEqual(sent[2], ['user', 'a short one then']);

  pty.press('\u0003');
  t.is(await pty.exited, 0, pty.screen.text());
  const session = readSession(latestSessionFile(agentSessionsDirectory(chat.state, { name: 'chatter', source: { kind: 'local', path: realpathSync(chat.agent) } }))!);
  t.deepEqual(
    session.messages.map((m) => m.role),
    ['user', 'assistant', 'user', 'assistant'],
  );
  t.true(JSON.stringify(session.messages[1]).includes('Once upon a time'), 'the session keeps the cancelled answer as far as it went');
});

test('Ctrl-C twice during one answer ends the chat: the run is cancelled', async (t) => {
  const chat = chatAgent(t);
  const server = await holdModelServer(t);
  const pty = startChat(t, chat, ['--model', 'claude-sonnet-4-5'], { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.base });
  await pty.waitFor('the first prompt', atPrompt);
  pty.press('go\r');
  startAnswer(await server.request(0), 'Working on it');
  await pty.waitFor('the start of the answer', (screen) => screen.lines().includes('Working on it'));
  pty.press('\u0003\u0003');
  t.is(await pty.exited, 1);
  t.true(
    // A run that does not complete ends with its one-line error (on stderr, which the terminal shows too).
    pty.screen.lines().some((line) => line.startsWith('zotbox: error[ZB_GATE_CANCELLED]: the run was cancelled')),
    pty.screen.text(),
  );
  t.is(server.requests.length, 1, 'nothing more was asked');
});

test('turns are counted honestly: a chat of three answers, two of them cancelled, ends with 1 turn and no zero line', async (t) => {
  const chat = chatAgent(t);
  const server = await holdModelServer(t);
  const pty = startChat(t, chat, ['--model', 'claude-sonnet-4-5'], { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.base });
  await pty.waitFor('the first prompt', atPrompt);
  for (const [index, message] of ['one', 'two'].entries()) {
    pty.press(`${message}\r`);
    startAnswer(await server.request(index), `Answer ${message}`);
    await pty.waitFor(`answer ${message}`, (screen) => screen.lines().includes(`Answer ${message}`));
    pty.press('\u0003');
    await pty.waitFor(`the prompt after answer ${message}`, promptAfter(message));
  }
  pty.press('three\r');
  anthropicStream((await server.request(2)).res, { text: 'Answer three.' }, 3);
  await pty.waitFor('the prompt after the third answer', promptAfter('three'));
  pty.press('\u0004');
  t.is(await pty.exited, 0, pty.screen.text());
  const totals = pty.screen.lines().filter((line) => line.startsWith('· '));
  t.is(totals.length, 1, pty.screen.text());
  t.regex(totals[0]!, /^· 1 turn · /, 'the two cancelled answers are not turns');
});
