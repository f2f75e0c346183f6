// Per-command approval on a real pseudo-terminal (issue 27 §6): `zotbox run --approve`
// asks on the terminal about a command the gate denies only because its program is
// not allowlisted; once, always (this session) or no. Approved commands run confined
// (bubblewrap), and a command denied for anything else is never asked about. Replayed
// runs; stdout (the NDJSON events) goes to a file, the prompt to the terminal (stderr).
import test, { type ExecutionContext } from 'ava';
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RunEvent } from '../../src/host/run/run-events.js';
import { runCliCaptured } from '../fixtures/cli-harness.js';
import { BIN } from '../fixtures/paths.js';
import { startPty, type PtySession } from '../fixtures/pty.js';
import { tempDir } from '../fixtures/temp.js';

const PROMPT_END = '[N]o:';

/** An agent allowed `ls` only, a workspace with notes.txt, and a replay whose turns each run one command. */
function setUp(t: ExecutionContext, commands: readonly string[], bash: object = { mode: 'allowlist', allow: ['ls'] }) {
  const root = realpathSync(tempDir(t, 'zb-approve-pty-'));
  const agent = path.join(root, 'agent');
  const ws = path.join(root, 'ws');
  mkdirSync(agent);
  mkdirSync(ws);
  writeFileSync(path.join(ws, 'notes.txt'), 'hello\nworld\n');
  writeFileSync(path.join(agent, 'manifest.json'), JSON.stringify({ zotfile: 1, name: 'approver', version: '1.0.0', permissions: { fs: { read: ['${workspace}'] }, bash } }));
  const usage = { input_tokens: 1, output_tokens: 1 };
  const turns = [
    ...commands.map((command, i) => ({ content: [{ type: 'tool_use', id: `t${i}`, name: 'bash', input: { command } }], stop: 'tool_use', usage })),
    { content: [{ type: 'text', text: 'Done.' }], stop: 'end', usage },
  ];
  const transcript = path.join(root, 'replay.json');
  writeFileSync(transcript, JSON.stringify({ zotbox_replay: 1, model: 'claude-sonnet-4-5', turns }));
  const stdoutFile = path.join(root, 'stdout.ndjson');
  const args = ['run', agent, 'go', '--cwd', ws, '--replay', transcript, '-y', '--no-session', '--approve', '--json'];
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ZOTBOX_HOME: path.join(root, 'state') };
  return { root, ws, args, env, stdoutFile };
}

const promptsShown = (pty: PtySession) => pty.raw().split(PROMPT_END).length - 1;
const prompted = (pty: PtySession, n: number) => pty.waitFor(`approval prompt ${n}`, (screen) => promptsShown(pty) >= n && screen.cursorLine().includes(PROMPT_END));
const eventsOf = (file: string) =>
  readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as RunEvent);

test('once runs it confined and the same call asks again; always stops asking for that program; another program asks; no denies; a scope denial never asks', async (t) => {
  const s = setUp(t, ['cat notes.txt', 'cat notes.txt', 'cat notes.txt', 'head -n 1 notes.txt', 'cat /etc/shadow']);
  const pty = startPty(t, [process.execPath, BIN, ...s.args], { cwd: s.root, env: s.env, stdoutFile: s.stdoutFile, rows: 60 });
  await prompted(pty, 1);
  t.true(pty.screen.lines().some((line) => line.includes('command 1: "cat"')));
  t.true(pty.screen.lines().some((line) => line.includes('argument 1: "notes.txt"')));
  pty.press('o\r');
  await prompted(pty, 2);
  pty.press('a\r');
  await prompted(pty, 3);
  t.true(pty.screen.cursorLine().includes('[a]lways head this session'), pty.screen.text());
  pty.press('n\r');
  t.is(await pty.exited, 0, pty.screen.text());
  t.is(promptsShown(pty), 3, 'the third cat and the read of /etc/shadow were never asked about');

  const events = eventsOf(s.stdoutFile);
  const start = events[0] as RunEvent & { type: 'run.start' };
  t.regex(start.confinement, /bubblewrap/);
  const approvals = events.filter((e) => e.type === 'gate.approval');
  t.like(approvals, [
    { program: 'cat', approved: true, approved_by: 'user', scope: 'once' },
    { program: 'cat', approved: true, approved_by: 'user', scope: 'session' },
    { program: 'head', approved: false },
  ]);
  t.false('scope' in approvals[2]!);
  const results = events.filter((e): e is RunEvent & { type: 'tool.result' } => e.type === 'tool.result');
  t.like(results, [{ ok: true, exit_code: 0 }, { ok: true, exit_code: 0 }, { ok: true, exit_code: 0 }, { ok: false }, { ok: false }]);
  t.true(results[0]!.summary.includes('hello'));
  const decisions = events.filter((e): e is RunEvent & { type: 'gate.decision' } => e.type === 'gate.decision');
  t.like(decisions[3], { allowed: false, code: 'ZB_POLICY_SHELL_NOT_ALLOWED' });
  t.regex(decisions[3]!.reason ?? '', /"head" .*declined it at the approval prompt/);
  t.like(decisions[4], { allowed: false, code: 'ZB_POLICY_PATH_OUTSIDE_SCOPE' });
});

test('a command denied for an argument rule, a never-allowed program or a control character is denied without asking', async (t) => {
  const s = setUp(t, ['sh -c id', 'sudo ls', 'cat "a\u001b[31mred"', 'ls']);
  const pty = startPty(t, [process.execPath, BIN, ...s.args], { cwd: s.root, env: s.env, stdoutFile: s.stdoutFile });
  t.is(await pty.exited, 0, pty.screen.text());
  t.is(promptsShown(pty), 0, pty.screen.text());
  const decisions = eventsOf(s.stdoutFile).filter((e): e is RunEvent & { type: 'gate.decision' } => e.type === 'gate.decision');
  t.deepEqual(
    decisions.map((d) => d.code ?? 'allowed'),
    ['ZB_POLICY_SHELL_ARGUMENT', 'ZB_POLICY_SHELL_NOT_ALLOWED', 'ZB_POLICY_SHELL_CONSTRUCT', 'allowed'],
  );
});

test('without a terminal --approve is refused before anything runs, --json too', async (t) => {
  const s = setUp(t, ['cat notes.txt']);
  for (const args of [s.args, s.args.filter((a) => a !== '--json')]) {
    const piped = await runCliCaptured(args, { env: s.env, cwd: s.root });
    t.is(piped.status, 2);
    t.regex(piped.stdout + piped.stderr, /ZB_APPROVE_NO_TERMINAL/);
    t.false((piped.stdout + piped.stderr).includes('run.start'));
  }
});

/** The exit status, or -1 as soon as a prompt shows instead (a run that asks would wait for an answer forever). */
const refusedOrAsked = (pty: PtySession) =>
  Promise.race([
    pty.exited,
    pty
      .waitFor('an approval prompt', (screen) => screen.text().includes(PROMPT_END))
      .then(
        () => -1,
        () => pty.exited,
      ),
  ]);

test('--approve is refused for an agent in bash mode none, and with --confine off', async (t) => {
  const none = setUp(t, ['cat notes.txt'], { mode: 'none' });
  const first = startPty(t, [process.execPath, BIN, ...none.args], { cwd: none.root, env: none.env, stdoutFile: none.stdoutFile });
  t.is(await refusedOrAsked(first), 2, first.screen.text());
  t.true(first.screen.text().includes('ZB_APPROVE_BASH_MODE'), first.screen.text());
  const off = setUp(t, ['cat notes.txt']);
  const second = startPty(t, [process.execPath, BIN, ...off.args, '--confine', 'off'], { cwd: off.root, env: off.env, stdoutFile: off.stdoutFile });
  t.is(await refusedOrAsked(second), 2, second.screen.text());
  t.true(second.screen.text().includes('ZB_APPROVE_UNCONFINED'), second.screen.text());
});

test('in a chat the prompt comes after the answer streamed so far, on lines of its own; always covers the rest of the chat', async (t) => {
  const root = realpathSync(tempDir(t, 'zb-approve-chat-'));
  const agent = path.join(root, 'agent');
  mkdirSync(agent);
  writeFileSync(path.join(root, 'notes.txt'), 'hello\n');
  writeFileSync(
    path.join(agent, 'manifest.json'),
    JSON.stringify({ zotfile: 1, name: 'chatter', version: '1.0.0', permissions: { fs: { read: ['${workspace}'] }, bash: { mode: 'allowlist', allow: ['ls'] } } }),
  );
  const usage = { input_tokens: 1, output_tokens: 1 };
  const look = (text: string, id: string) => ({
    content: [
      { type: 'text', text },
      { type: 'tool_use', id, name: 'bash', input: { command: 'cat notes.txt' } },
    ],
    stop: 'tool_use',
    usage,
  });
  const turns = [
    look('Let me look, unterminated', 't1'),
    { content: [{ type: 'text', text: 'First done.' }], stop: 'end', usage },
    look('Again', 't2'),
    { content: [{ type: 'text', text: 'Second done.' }], stop: 'end', usage },
  ];
  const transcript = path.join(root, 'chat.json');
  writeFileSync(transcript, JSON.stringify({ zotbox_replay: 1, model: 'claude-sonnet-4-5', turns }));
  const pty = startPty(t, [process.execPath, BIN, 'run', agent, '-y', '--approve', '--replay', transcript], {
    cwd: root,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ZOTBOX_HOME: path.join(root, 'state') },
    rows: 60,
  });
  const atInput = () => pty.screen.cursorLine() === '›';
  await pty.waitFor('the chat prompt', atInput);
  pty.press('look\r');
  await prompted(pty, 1);
  const lines = pty.screen.lines();
  const said = lines.findIndex((line) => line.startsWith('Let me look, unterminated'));
  const frame = lines.findIndex((line) => line.startsWith('┌─ zotbox: approve a command'));
  t.true(said >= 0 && frame > said, pty.screen.text());
  t.is(lines[said], 'Let me look, unterminated', 'the model text ends its line before the prompt');
  pty.press('a\r');
  await pty.waitFor('the first answer', (screen) => screen.lines().some((line) => line.startsWith('First done.')) && atInput());
  pty.press('again\r');
  await pty.waitFor('the second answer', (screen) => screen.lines().some((line) => line.startsWith('Second done.')) && atInput());
  t.is(promptsShown(pty), 1, 'cat was approved for the session');
  pty.press('\u0004');
  t.is(await pty.exited, 0, pty.screen.text());
});

// fix27 (adv27 type-ahead): "a" and Enter typed as the run starts, long before any prompt, wait in the
// terminal's input queue; the prompt discards them (tcflush), so only the key pressed once it is on
// screen answers. Pressed before the command has even started, they cannot arrive after the prompt.
test('keys typed before the approval prompt opened are discarded: the answer is the one typed at the prompt', async (t) => {
  const s = setUp(t, ['head -n 1 notes.txt']);
  const pty = startPty(t, [process.execPath, BIN, ...s.args], { cwd: s.root, env: s.env, stdoutFile: s.stdoutFile, rows: 60 });
  pty.press('a\r');
  await prompted(pty, 1);
  pty.press('o\r');
  t.is(await pty.exited, 0, pty.screen.text());
  t.like(
    eventsOf(s.stdoutFile).filter((e) => e.type === 'gate.approval'),
    [{ program: 'head', approved: true, scope: 'once' }],
  );
});

// fix27 (adv27 keys): Up (ESC [ A) at the prompt, then Enter, is no answer but the default, No; it echoes nothing.
test('Up then Enter at the approval prompt denies: an escape sequence is not an answer', async (t) => {
  const s = setUp(t, ['head -n 1 notes.txt']);
  const pty = startPty(t, [process.execPath, BIN, ...s.args], { cwd: s.root, env: s.env, stdoutFile: s.stdoutFile, rows: 60 });
  await prompted(pty, 1);
  pty.press('\u001b[A\r');
  t.is(await pty.exited, 0, pty.screen.text());
  t.like(
    eventsOf(s.stdoutFile).filter((e) => e.type === 'gate.approval'),
    [{ program: 'head', approved: false }],
  );
  t.false(
    pty.screen.lines().some((line) => line.includes(`${PROMPT_END} A`)),
    pty.screen.text(),
  );
});
