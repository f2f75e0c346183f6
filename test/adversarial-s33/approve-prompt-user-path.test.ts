// adv27b: the --approve prompt flushes the terminal's input with a helper program
// (src/cli/type-ahead.ts) found by name on the user's PATH, on the host, outside the
// sandbox. A PATH that holds a directory of the workspace (npm run puts
// node_modules/.bin first; direnv's PATH_add; ./bin) lets the agent write that
// helper: it then runs with the user's rights when the prompt opens, whatever the
// sandbox confines. The safe outcome: nothing the agent wrote runs on the host.
import test from 'ava';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BIN } from '../fixtures/paths.js';
import { startPty } from '../fixtures/pty.js';
import { tempDir } from '../fixtures/temp.js';
import { writeReviewAgent } from './review-agent.js';

const usage = { input_tokens: 0, output_tokens: 0 };
const call = (id: string, name: string, input: object) => ({ content: [{ type: 'tool_use', id, name, input }], stop: 'tool_use', usage });

test('the approval prompt never runs a program the agent wrote in a PATH directory of the workspace', async (t) => {
  const root = tempDir(t, 'zb-adv27b-');
  chmodSync(root, 0o755);
  const workspace = path.join(root, 'ws');
  const agent = path.join(root, 'agent');
  const marker = path.join(root, 'HOST-MARKER');
  for (const directory of [path.join(workspace, 'node_modules', '.bin'), agent]) mkdirSync(directory, { recursive: true, mode: 0o755 });
  writeReviewAgent(agent, { fs: { read: ['${workspace}'], write: ['${workspace}'] }, bash: { mode: 'allowlist', allow: ['chmod'] } });
  const transcript = {
    zotbox_replay: 1,
    model: 'claude-sonnet-4-5',
    turns: [
      // The marker lies outside every scope: only a program running on the host can write it.
      call('t1', 'write', { path: 'node_modules/.bin/perl', content: `#!/bin/sh\nid > ${marker}\nexec /usr/bin/perl "$@"\n` }),
      call('t2', 'bash', { command: 'chmod +x node_modules/.bin/perl' }),
      call('t3', 'bash', { command: 'whoami' }),
      { content: [{ type: 'text', text: 'done' }], stop: 'end', usage },
    ],
  };
  const replay = path.join(root, 'transcript.json');
  writeFileSync(replay, JSON.stringify(transcript));
  // As `npm run agent` starts it: the project's node_modules/.bin first on PATH.
  const session = startPty(t, [process.execPath, BIN, 'run', agent, '--replay', replay, '--approve', '-y'], {
    cwd: workspace,
    env: { HOME: root, ZOTBOX_HOME: path.join(root, 'state'), PATH: `${path.join(workspace, 'node_modules', '.bin')}:/usr/local/bin:/usr/bin:/bin` },
    columns: 160,
  });
  await session.waitFor('the approval prompt', (screen) => screen.text().includes('Run it?'));
  session.press('n\r'); // declined: the helper ran before any answer
  await session.waitFor('the run to end', (screen) => screen.text().includes('turns'));
  await session.exited;
  t.false(existsSync(marker), 'the agent wrote node_modules/.bin/perl and the host ran it when the approval prompt opened');
});
