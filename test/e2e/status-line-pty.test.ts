// The status line of `zotbox run` (issue 27, item 5), on a real pseudo-terminal:
// while the model is asked, a line says so, and it is erased when the answer comes;
// on a pipe, and with --json, nothing of it is written. The model server holds each
// request until the test answers, so every wait is for something on screen.
import test, { type ExecutionContext } from 'ava';
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { holdModelServer, type HeldModelServer } from '../fixtures/held-model-server.js';
import { anthropicStream } from '../fixtures/model-servers.js';
import { BIN } from '../fixtures/paths.js';
import { startPty, type PtySession } from '../fixtures/pty.js';
import { tempDir } from '../fixtures/temp.js';

function startRun(t: ExecutionContext, server: HeldModelServer, extra: readonly string[], stdoutFile?: string): PtySession {
  const root = realpathSync(tempDir(t, 'zb-status-'));
  const agent = path.join(root, 'agent');
  mkdirSync(agent);
  writeFileSync(path.join(agent, 'manifest.json'), JSON.stringify({ zotfile: 1, name: 'waiter', version: '1.0.0', permissions: { fs: { read: ['${workspace}'] } } }));
  return startPty(t, [process.execPath, BIN, 'run', agent, 'hello', '-y', '--no-session', '--model', 'claude-sonnet-4-5', ...extra], {
    cwd: root,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ZOTBOX_HOME: path.join(root, 'state'), ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.base },
    ...(stdoutFile === undefined ? {} : { stdoutFile }),
  });
}

const WAITING = 'waiting for claude-sonnet-4-5';

test('on a terminal a status line says the model is asked, and the answer replaces it', async (t) => {
  const server = await holdModelServer(t);
  const pty = startRun(t, server, []);
  const request = await server.request(0);
  await pty.waitFor('the status line', (screen) => screen.lines().some((line) => line.endsWith(WAITING)));
  const row = pty.screen.lines().findIndex((line) => line.endsWith(WAITING));
  t.true(pty.screen.lines()[row - 1]!.startsWith('▶ waiter@1.0.0'), 'it is the line below the start line');
  anthropicStream(request.res, { text: 'Hi there.' }, 1);
  t.is(await pty.exited, 0, pty.screen.text());
  const lines = pty.screen.lines();
  t.is(lines[row], 'Hi there.', `the answer is drawn where the status line was\n${pty.screen.text()}`);
  t.false(
    lines.some((line) => line.includes('waiting for')),
    'and the status line is gone',
  );
});

test('with stdout on a pipe, or with --json, no status line is written', async (t) => {
  for (const extra of [[], ['--json']]) {
    const server = await holdModelServer(t);
    const out = path.join(tempDir(t, 'zb-status-out-'), 'stdout');
    const pty = startRun(t, server, extra, out);
    anthropicStream((await server.request(0)).res, { text: 'Hi there.' }, 1);
    t.is(await pty.exited, 0, pty.screen.text());
    const written = readFileSync(out, 'utf8');
    t.true(written.includes('Hi there.'), written);
    t.false(written.includes('waiting for'), `${extra.join(' ')}: ${written}`);
    t.false(written.includes('\u001b'), 'no escape sequence at all');
    t.false(pty.raw().includes('waiting for'), 'nor on the terminal (stderr)');
  }
});

test('--json on a terminal writes only its JSON lines', async (t) => {
  const server = await holdModelServer(t);
  const pty = startRun(t, server, ['--json']);
  anthropicStream((await server.request(0)).res, { text: 'Hi there.' }, 1);
  t.is(await pty.exited, 0, pty.screen.text());
  // The raw bytes, not the screen: a JSON line wider than the terminal wraps there.
  // Warnings (zotbox running as root) go to stderr, the same terminal: only stdout's lines are looked at.
  const lines = pty
    .raw()
    .trimEnd()
    .split('\r\n')
    .filter((line) => !line.includes(' WARNING '));
  t.true(lines.length > 2);
  for (const line of lines) t.notThrows(() => JSON.parse(line) as unknown, line);
  t.false(pty.raw().includes('waiting for'));
});
