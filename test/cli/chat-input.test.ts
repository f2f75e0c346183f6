// Interactive chat on a terminal: with no prompt, `zotbox run` shows the agent's
// greeting, reads each message with readline, continues the same conversation
// after each answer, and ends on /exit; tool calls and denials show as they happen.
import test from 'ava';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { runCli } from '../../src/cli.js';
import { latestSessionFile } from '../../src/host/run/session-catalog.js';
import { readSession } from '../../src/host/run/sessions.js';
import { anthropicStream, serve } from '../fixtures/model-servers.js';
import { REPO_ROOT } from '../fixtures/paths.js';
import { tempDir } from '../fixtures/temp.js';
import { agentSessionsDirectory } from '../../src/host/consent/agent-directory.js';

test('a terminal with no prompt is a chat: greeting, one conversation across messages, /exit ends it', async (t) => {
  const root = realpathSync(tempDir(t, 'zb-chat-'));
  const agent = path.join(root, 'agent');
  mkdirSync(agent);
  writeFileSync(
    path.join(agent, 'manifest.json'),
    JSON.stringify({ zotfile: 1, name: 'chatter', version: '1.0.0', permissions: { fs: { read: ['${workspace}'] } }, entry: { greeting: 'Hello! Ask me about this project.' } }),
  );
  const steps = [{ tool: { name: 'read', input: { path: '/etc/passwd' } } }, { text: 'I may not read that.' }, { text: 'Second answer.' }];
  let count = 0;
  const server = await serve(t, (_body, _req, res) => anthropicStream(res, steps[count++]!, count));

  const inputs = ['  ', 'What is in /etc/passwd?', 'And now?', '/exit'];
  const stdin = Object.assign(new PassThrough(), { isTTY: true });
  let out = '';
  let prompts = 0;
  // A terminal-like stdout: a real stream (readline draws on it) that says it is a TTY.
  const stdout = Object.assign(
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        const text = chunk.toString();
        out += text;
        // Answer each prompt as a user would: only once it is shown.
        for (const _ of text.matchAll(/› /g)) {
          const next = inputs[prompts++];
          if (next !== undefined) setImmediate(() => stdin.write(`${next}\n`));
        }
        done();
      },
    }),
    { isTTY: true, columns: 120 },
  );
  const state = path.join(root, 'state');
  const status = await runCli(['run', agent, '-y', '--confine', 'off', '--model', 'claude-sonnet-4-5'], {
    stdout,
    stderr: { write: (chunk: string) => (out += chunk) },
    stdin,
    env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.base, ZOTBOX_HOME: state },
    cwd: root,
  });
  t.is(status, 0, out);
  t.true(out.includes('Hello! Ask me about this project.'));
  // The line starts where the status line was erased (this stdout says it is a terminal 120 columns wide).
  t.regex(out, /\r\u001b\[2K {2}✘ read \/etc\/passwd — denied: read denied: .*outside the read scopes/);
  t.true(out.includes('I may not read that.') && out.includes('Second answer.'));
  t.is(server.requests.length, 3);
  const texts = server.requests[2]!.body.messages.map((m: { content: { type: string; text?: string }[] }) => m.content[0]!.text ?? m.content[0]!.type);
  t.deepEqual(texts, ['What is in /etc/passwd?', 'tool_use', 'tool_result', 'I may not read that.', 'And now?']);
  const sessionDir = agentSessionsDirectory(state, { name: 'chatter', source: { kind: 'local', path: realpathSync(agent) } });
  t.is(readSession(latestSessionFile(sessionDir)!).messages.length, 6);
});

test('without a terminal and without a prompt the run still refuses, naming the fix', async (t) => {
  const root = realpathSync(tempDir(t, 'zb-chat-'));
  const agent = path.join(root, 'agent');
  mkdirSync(agent);
  writeFileSync(path.join(agent, 'manifest.json'), JSON.stringify({ zotfile: 1, name: 'chatter', version: '1.0.0', permissions: {} }));
  let err = '';
  const transcript = path.join(REPO_ROOT, 'examples', 'transcripts', 'code-reviewer.json');
  const status = await runCli(['run', agent, '-y', '--replay', transcript], {
    stdout: { write: () => true },
    stderr: { write: (chunk: string) => (err += chunk) },
    stdin: new PassThrough(),
    env: { ZOTBOX_HOME: path.join(root, 'state') },
    cwd: root,
  });
  t.is(status, 1);
  t.regex(err, /ZB_RUN_NO_PROMPT/);
});
