// A replayed run whose model writes OSC 52 (clipboard), clear-screen, cursor and
// title sequences, and reads a file full of them: text output shows none of them
// (colour survives on a terminal only); --json carries the text unchanged.
import test, { type ExecutionContext } from 'ava';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { runCli } from '../../src/cli.js';
import type { RunEvent } from '../../src/host/run/run-events.js';
import { runCliCaptured } from '../fixtures/cli-harness.js';
import { EXAMPLES_DIR } from '../fixtures/paths.js';
import { tempDir } from '../fixtures/temp.js';

const reviewer = path.join(EXAMPLES_DIR, 'code-reviewer');
const E = '\u001b';
const OSC52 = `${E}]52;c;cm0gLXJmIH4=\u0007`;
const FIRST_TEXT = `Reading.${OSC52}${E}[2J${E}[H${E}]0;owned${E}\\\n`;
const FINAL_TEXT = `Done ${E}[31mred${E}[0m${E}]52;c;Zm9v${E}\\ end\u009b2J.\r\n`;

function setUp(t: ExecutionContext): { workspace: string; transcript: string; home: string } {
  const workspace = tempDir(t, 'zb-term-ws-');
  writeFileSync(path.join(workspace, 'notes.txt'), `note${E}]0;title\u0007 ${E}[1A\u009b2J body\n`);
  const transcript = path.join(tempDir(t, 'zb-term-tr-'), 'run.json');
  const turns = [
    {
      content: [
        { type: 'text', text: FIRST_TEXT },
        { type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'notes.txt' } },
        { type: 'tool_use', id: 'toolu_2', name: 'read', input: { path: '../\u202eevil\u009b2J.txt' } },
      ],
      stop: 'tool_use',
      usage: { input_tokens: 10, output_tokens: 10 },
    },
    { content: [{ type: 'text', text: FINAL_TEXT }], stop: 'end', usage: { input_tokens: 10, output_tokens: 10 } },
  ];
  writeFileSync(transcript, JSON.stringify({ zotbox_replay: 1, model: 'claude-sonnet-4-5', turns }));
  return { workspace, transcript, home: tempDir(t, 'zb-term-home-') };
}

const runArgs = (s: { workspace: string; transcript: string }, ...extra: string[]) => ['run', reviewer, 'Review', '--cwd', s.workspace, '--replay', s.transcript, '-y', ...extra];

const ANY_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

test('piped text output has no escape sequence, control character or bidi override at all', async (t) => {
  const setup = setUp(t);
  const result = await runCliCaptured(runArgs(setup), { env: { ZOTBOX_HOME: setup.home } });
  t.is(result.status, 0, result.stderr);
  t.false(ANY_CONTROL.test(result.stdout), JSON.stringify(result.stdout));
  t.regex(result.stdout, /Reading\.\n/);
  // A tool line shows what the call acted on, each control escaped, so it cannot fake the lines after it.
  t.regex(result.stdout, /\n {2}✔ read notes\.txt \(\d+ B\)\n/, 'the read is one line with its size, never its content');
  t.false(result.stdout.includes('title'), 'what the file holds is not printed');
  t.regex(result.stdout, /✘ read \.\.\/\\u202eevil\\u009b2J\.txt — denied: read denied: "\.\.\/\\u202eevil\\u009b2J\.txt"/, 'the call and its denial show the path with its controls escaped');
  t.regex(result.stdout, /Done red end\.\n/);
});

test('on a terminal, colour survives and nothing else does', async (t) => {
  const setup = setUp(t);
  let out = '';
  const status = await runCli(runArgs(setup), {
    stdout: { write: (chunk: string) => (out += chunk), isTTY: true },
    stderr: { write: () => true },
    stdin: Readable.from([]),
    env: { ZOTBOX_HOME: setup.home },
    cwd: setup.workspace,
  });
  t.is(status, 0);
  t.true(out.includes(`Done ${E}[31mred${E}[0m end.\n`), JSON.stringify(out));
  t.false(ANY_CONTROL.test(out.replaceAll(`${E}[31m`, '').replaceAll(`${E}[0m`, '')), JSON.stringify(out));
});

test('--print prints the final answer sanitized', async (t) => {
  const setup = setUp(t);
  const result = await runCliCaptured(runArgs(setup, '--print'), { env: { ZOTBOX_HOME: setup.home } });
  t.is(result.status, 0, result.stderr);
  t.is(result.stdout, 'Done red end.\n\n');
});

test('--json carries the model text unchanged: JSON escapes it', async (t) => {
  const setup = setUp(t);
  const result = await runCliCaptured(runArgs(setup, '--json'), { env: { ZOTBOX_HOME: setup.home } });
  t.is(result.status, 0, result.stderr);
  t.false(result.stdout.includes(E), 'no raw ESC on the wire');
  const events = result.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as RunEvent);
  const text = events.flatMap((e) => (e.type === 'assistant.delta' ? [e.text] : [])).join('');
  t.is(text, FIRST_TEXT + FINAL_TEXT);
});
