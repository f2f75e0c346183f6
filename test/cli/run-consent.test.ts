// Consent through `zotbox run` (issue 13): -y covers one run, --remember saves a
// receipt, each workspace keeps its own, and an unusable state directory stops
// the run before anything is asked or written.
import test, { type ExecutionContext } from 'ava';
import { mkdirSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RunEvent } from '../../src/host/run/run-events.js';
import { runCliCaptured, type CliResult } from '../fixtures/cli-harness.js';
import { tempDir } from '../fixtures/temp.js';

interface World {
  readonly root: string;
  readonly agent: string;
  readonly transcript: string;
  readonly repoA: string;
  readonly repoB: string;
  readonly env: Record<string, string>;
}

function world(t: ExecutionContext): World {
  const root = realpathSync(tempDir(t, 'zb-run-consent-'));
  const agent = path.join(root, 'helper');
  mkdirSync(agent);
  writeFileSync(path.join(agent, 'manifest.json'), JSON.stringify({ zotfile: 1, name: 'helper', version: '1.0.0', permissions: { fs: { read: ['${workspace}'] } } }));
  writeFileSync(path.join(agent, 'AGENT.md'), 'You help.');
  const transcript = path.join(root, 'hello.json');
  writeFileSync(transcript, JSON.stringify({ zotbox_replay: 1, model: 'replay', turns: [{ content: [{ type: 'text', text: 'Hello.' }], stop: 'end', usage: { input_tokens: 1, output_tokens: 1 } }] }));
  const repoA = path.join(root, 'repo-a');
  const repoB = path.join(root, 'repo-b');
  mkdirSync(repoA);
  mkdirSync(repoB);
  return { root, agent, transcript, repoA, repoB, env: { ZOTBOX_HOME: path.join(root, 'state') } };
}

const run = (w: World, workspace: string, ...flags: string[]): Promise<CliResult> =>
  runCliCaptured(['run', w.agent, 'hi', '--cwd', workspace, '--replay', w.transcript, '--confine', 'off', '--no-session', '--json', ...flags], { env: w.env });

const consentOf = (result: CliResult) => (JSON.parse(result.stdout.split('\n')[0]!) as RunEvent & { type: 'run.start' }).consent;

test('-y consents for this run only: no receipt is saved, and the next run without -y is refused', async (t) => {
  const w = world(t);
  const approved = await run(w, w.repoA, '-y');
  t.is(approved.status, 0, approved.stderr);
  t.is(consentOf(approved), 'flag');
  t.regex((await runCliCaptured(['consent', 'list'], { env: w.env })).stdout, /^no consent receipts in /);
  const next = await run(w, w.repoA);
  t.is(next.status, 1);
  t.regex(next.stderr, /ZB_CONSENT_REQUIRED/);
});

test('-y --remember saves a receipt per workspace: approving a second workspace keeps the first', async (t) => {
  const w = world(t);
  t.is((await run(w, w.repoA, '-y', '--remember')).status, 0);
  t.is((await run(w, w.repoB, '-y', '--remember')).status, 0);
  for (const workspace of [w.repoA, w.repoB]) {
    const later = await run(w, workspace);
    t.is(later.status, 0, later.stderr);
    t.is(consentOf(later), 'receipt', workspace);
  }
  const listed = (await runCliCaptured(['consent', 'list'], { env: w.env })).stdout.trim().split('\n').sort();
  t.is(listed.length, 2);
  t.true(listed[0]!.includes(`workspace ${w.repoA}  from `), listed[0]);
  t.true(listed[1]!.includes(`workspace ${w.repoB}  from `), listed[1]);
});

test('--remember without -y (or ZOTBOX_AGENT_CONSENT=1) is a usage error; with the variable it saves', async (t) => {
  const w = world(t);
  const alone = await run(w, w.repoA, '--remember');
  t.is(alone.status, 2);
  t.regex(alone.stderr, /ZB_CLI_USAGE.*--remember saves the consent that -y gives/);
  const viaEnv = await runCliCaptured(['run', w.agent, 'hi', '--cwd', w.repoA, '--replay', w.transcript, '--confine', 'off', '--no-session', '--json', '--remember'], {
    env: { ...w.env, ZOTBOX_AGENT_CONSENT: '1' },
  });
  t.is(viaEnv.status, 0, viaEnv.stderr);
  t.is(consentOf(await run(w, w.repoA)), 'receipt');
});

test('a state directory that is a file stops the run with ZB_IO_FAILED, before consent, leaving nothing behind', async (t) => {
  const w = world(t);
  const file = path.join(w.root, 'state-file');
  writeFileSync(file, 'x');
  const before = readdirSync(w.root).sort();
  const result = await runCliCaptured(['run', w.agent, 'hi', '--cwd', w.repoA, '--replay', w.transcript, '-y'], { env: { ZOTBOX_HOME: file } });
  t.is(result.status, 1);
  t.regex(result.stderr, /error\[ZB_IO_FAILED\]: the zotbox state directory .*state-file is not a directory; it is \$ZOTBOX_HOME.* Fix: point ZOTBOX_HOME at a directory/);
  t.notRegex(result.stderr, /\n\s+at /, 'no stack trace');
  t.deepEqual(readdirSync(w.root).sort(), before);
  const under = await runCliCaptured(['run', w.agent, 'hi', '--cwd', w.repoA, '--replay', w.transcript, '-y'], { env: { ZOTBOX_HOME: path.join(file, 'below') } });
  t.regex(under.stderr, /ZB_IO_FAILED.*is not reachable/);
  const checked = await runCliCaptured(['check', w.agent, 'read', 'x', '--cwd', w.repoA], { env: { ZOTBOX_HOME: file } });
  t.is(checked.status, 1);
  t.regex(checked.stderr, /ZB_IO_FAILED.*state directory/);
});
