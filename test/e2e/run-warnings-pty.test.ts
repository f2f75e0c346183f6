// Loud security signals (issue 27, item 5): --confine off, and zotbox running as
// root, each put a warning in run.start and, on a terminal, a coloured WARNING line
// on stderr; on a pipe stderr stays quiet and the event carries them.
import test, { type ExecutionContext } from 'ava';
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RunEvent } from '../../src/host/run/run-events.js';
import { runCliCaptured } from '../fixtures/cli-harness.js';
import { BIN } from '../fixtures/paths.js';
import { startPty } from '../fixtures/pty.js';
import { tempDir } from '../fixtures/temp.js';

function setUp(t: ExecutionContext) {
  const root = realpathSync(tempDir(t, 'zb-warn-'));
  const agent = path.join(root, 'agent');
  mkdirSync(agent);
  writeFileSync(
    path.join(agent, 'manifest.json'),
    JSON.stringify({ zotfile: 1, name: 'lister', version: '1.0.0', permissions: { fs: { read: ['${workspace}'] }, bash: { mode: 'allowlist', allow: ['ls'] } } }),
  );
  const transcript = path.join(root, 'replay.json');
  writeFileSync(
    transcript,
    JSON.stringify({ zotbox_replay: 1, model: 'claude-sonnet-4-5', turns: [{ content: [{ type: 'text', text: 'Done.' }], stop: 'end', usage: { input_tokens: 1, output_tokens: 1 } }] }),
  );
  const args = ['run', agent, 'go', '--replay', transcript, '-y', '--no-session', '--confine', 'off'];
  return { root, args, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ZOTBOX_HOME: path.join(root, 'state') } };
}

const asRoot = process.getuid?.() === 0;

test('--confine off on a terminal: a red WARNING line on stderr, and run.start carries the warning', async (t) => {
  const s = setUp(t);
  const out = path.join(s.root, 'stdout.ndjson');
  const pty = startPty(t, [process.execPath, BIN, ...s.args, '--json'], { cwd: s.root, env: s.env, stdoutFile: out });
  t.is(await pty.exited, 0, pty.screen.text());
  const warningLines = pty.screen.lines().filter((line) => line.startsWith(' WARNING '));
  t.true(
    warningLines.some((line) => line.includes('commands run UNCONFINED (--confine off)')),
    pty.screen.text(),
  );
  t.is(
    warningLines.some((line) => line.includes('running as root')),
    asRoot,
  );
  t.true(pty.raw().includes('\u001b[1;97;41m WARNING \u001b[0m \u001b[1;31mcommands run UNCONFINED'), 'in colour');
  const start = JSON.parse(readFileSync(out, 'utf8').split('\n')[0]!) as RunEvent & { type: 'run.start' };
  t.deepEqual(
    start.warnings?.map((w) => w.code),
    asRoot ? ['unconfined', 'root'] : ['unconfined'],
  );
});

test('on a pipe stderr carries no warning; without --confine off there is no unconfined warning', async (t) => {
  const s = setUp(t);
  const piped = await runCliCaptured(s.args, { env: s.env, cwd: s.root });
  t.is(piped.status, 0, piped.stderr);
  t.is(piped.stderr, '');
  const confined = await runCliCaptured([...s.args.slice(0, -2), '--json'], { env: s.env, cwd: s.root });
  const start = JSON.parse(confined.stdout.split('\n')[0]!) as RunEvent & { type: 'run.start' };
  t.false((start.warnings ?? []).some((w) => w.code === 'unconfined'));
});
