// Adversarial review of issue 13 (finding 4, hang): `zotbox run AGENT -` reads
// the prompt from stdin even when stdin is the terminal (the user types it and
// presses Ctrl-D). Consent is then asked and its answer read from that same
// stdin, which has already ended: no 'end' event comes again, so the run waits
// forever instead of refusing (or asking where an answer can still be read).
import test from 'ava';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { runCli } from '../../src/cli.js';
import { tempDir } from '../fixtures/temp.js';

test('run AGENT - on a terminal stdin ends (refused or asked anew), never waits for an answer from an ended stdin', async (t) => {
  const root = realpathSync(tempDir(t, 'zb-adv13-dash-'));
  const agent = path.join(root, 'helper');
  mkdirSync(agent);
  writeFileSync(path.join(agent, 'manifest.json'), JSON.stringify({ zotfile: 1, name: 'helper', version: '1.0.0', permissions: {} }));
  writeFileSync(path.join(agent, 'AGENT.md'), 'You help.');
  const transcript = path.join(root, 'hello.json');
  writeFileSync(transcript, JSON.stringify({ zotbox_replay: 1, model: 'replay', turns: [{ content: [{ type: 'text', text: 'Hello.' }], stop: 'end', usage: { input_tokens: 1, output_tokens: 1 } }] }));
  // The terminal: the user types the prompt, then Ctrl-D.
  const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => undefined });
  stdin.end('look around\n');
  let stdout = '';
  let asked: () => void = () => undefined;
  const question = new Promise<void>((resolve) => (asked = resolve));
  const progress = { settled: false };
  const running = runCli(['run', agent, '-', '--cwd', root, '--replay', transcript, '--confine', 'off', '--no-session'], {
    stdin,
    stdout: {
      isTTY: true,
      write: (chunk: string) => {
        stdout += chunk;
        if (stdout.includes('Allow? [y/N]')) asked();
        return true;
      },
    },
    stderr: { write: () => true },
    env: { ZOTBOX_HOME: path.join(root, 'state') },
    cwd: root,
  }).finally(() => {
    progress.settled = true;
    asked();
  });
  await question;
  // Once the question is out, an ended stdin has nothing more to say: give the run a few turns of the event loop to notice.
  for (let turn = 0; turn < 50 && !progress.settled; turn++) await new Promise((resolve) => setImmediate(resolve));
  t.true(progress.settled, 'the run is still waiting for a consent answer from a stdin that has ended');
  if (progress.settled) t.not(await running, 0);
});
