// An agent made by `zotbox init` opens a chat when run with no prompt on a terminal
// (issue 27, item 5): its greeting, then the input prompt, on a real pseudo-terminal.
import test from 'ava';
import { realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCliCaptured } from '../fixtures/cli-harness.js';
import { BIN } from '../fixtures/paths.js';
import { startPty } from '../fixtures/pty.js';
import { tempDir } from '../fixtures/temp.js';

test('zotbox run on an init agent with no prompt, on a terminal, is a chat: greeting, then the prompt; Ctrl-D ends it', async (t) => {
  const root = realpathSync(tempDir(t, 'zb-init-chat-'));
  t.is((await runCliCaptured(['init', 'agent'], { cwd: root })).status, 0);
  const transcript = path.join(root, 'replay.json');
  // No turn is replayed: a chat asks the user first, and this one ends before any message.
  writeFileSync(
    transcript,
    JSON.stringify({ zotbox_replay: 1, model: 'claude-sonnet-4-5', turns: [{ content: [{ type: 'text', text: 'unused' }], stop: 'end', usage: { input_tokens: 1, output_tokens: 1 } }] }),
  );
  const pty = startPty(t, [process.execPath, BIN, 'run', path.join(root, 'agent'), '--replay', transcript, '-y', '--no-session'], {
    cwd: root,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ZOTBOX_HOME: path.join(root, 'state') },
  });
  await pty.waitFor('the chat prompt', (screen) => screen.cursorLine() === '›' && screen.cursor().column === 2);
  t.true(pty.screen.lines().includes('Hi! Ask me about the files in this workspace.'), pty.screen.text());
  pty.press('\u0004');
  t.is(await pty.exited, 0, pty.screen.text());
  t.false(pty.raw().includes('Describe what this workspace contains'), 'no default prompt was sent');
  // Nothing was asked, so no total line of zeros.
  t.false(pty.raw().includes('0 turns'), pty.screen.text());
});
