// prepareRun's state directory (issue 13): it follows the `env` it is given, not
// process.env, so a library run writes where the caller's environment says; and
// `yes` consents for one run while `remember` saves the receipt.
import test, { type ExecutionContext } from 'ava';
import { mkdirSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { listReceipts } from '../../../src/host/consent/receipt.js';
import { prepareRun, type PrepareRunOptions } from '../../../src/host/run/run-plan.js';
import { tempDir } from '../../fixtures/temp.js';

function agentFixture(t: ExecutionContext): { root: string; options: PrepareRunOptions } {
  const root = realpathSync(tempDir(t, 'zb-plan-'));
  const agent = path.join(root, 'helper');
  mkdirSync(agent);
  writeFileSync(path.join(agent, 'manifest.json'), JSON.stringify({ zotfile: 1, name: 'helper', version: '1.0.0', permissions: { fs: { read: ['${workspace}'] } } }));
  const transcript = path.join(root, 'hello.json');
  writeFileSync(transcript, JSON.stringify({ zotbox_replay: 1, model: 'replay', turns: [{ content: [{ type: 'text', text: 'Hello.' }], stop: 'end', usage: { input_tokens: 1, output_tokens: 1 } }] }));
  return { root, options: { reference: agent, cwd: root, replayFile: transcript, confine: 'off' } };
}

const noTerminal = () => Object.assign(new PassThrough(), { isTTY: false });

test('the state directory comes from env: ZOTBOX_HOME, else XDG_STATE_HOME/zotbox; with remember the receipt goes there', async (t) => {
  const { root, options } = agentFixture(t);
  const home = path.join(root, 'zotbox-home');
  const plan = await prepareRun({ ...options, env: { ZOTBOX_HOME: home }, yes: true, remember: true });
  t.is(plan.stateDirectory, home);
  t.is(listReceipts(home, 'helper').length, 1);
  const xdg = path.join(root, 'xdg');
  t.is((await prepareRun({ ...options, env: { XDG_STATE_HOME: xdg }, yes: true })).stateDirectory, path.join(xdg, 'zotbox'));
});

test('yes consents for this run only; remember saves a receipt the next plan uses', async (t) => {
  const { root, options } = agentFixture(t);
  const env = { ZOTBOX_HOME: path.join(root, 'state') };
  t.is((await prepareRun({ ...options, env, yes: true })).consent, 'flag');
  t.deepEqual(listReceipts(env.ZOTBOX_HOME), []);
  await t.throwsAsync(prepareRun({ ...options, env, stdin: noTerminal(), stdout: { write: () => true } }), { code: 'ZB_CONSENT_REQUIRED' } as never);
  t.is((await prepareRun({ ...options, env, yes: true, remember: true })).consent, 'flag');
  t.is((await prepareRun({ ...options, env, stdin: noTerminal(), stdout: { write: () => true } })).consent, 'receipt');
  t.like(listReceipts(env.ZOTBOX_HOME)[0]?.receipt, { workspace: root });
});

test('a stateDirectory option that is a file is ZB_IO_FAILED naming the option, and nothing is created', async (t) => {
  const { root, options } = agentFixture(t);
  const file = path.join(root, 'state-file');
  writeFileSync(file, 'x');
  const error = await t.throwsAsync(prepareRun({ ...options, stateDirectory: file, yes: true }), { code: 'ZB_IO_FAILED' } as never);
  t.like((error as unknown as { details: unknown }).details, { path: file, origin: 'the stateDirectory option' });
  t.deepEqual(readdirSync(root).sort(), ['hello.json', 'helper', 'state-file']);
});

test('an agent with net.allow is refused under --confine off, before consent, naming its hosts; confined, consent binds the hosts', async (t) => {
  const { root, options } = agentFixture(t);
  const agent = path.join(root, 'fetcher');
  mkdirSync(agent);
  writeFileSync(path.join(agent, 'manifest.json'), JSON.stringify({ zotfile: 1, name: 'fetcher', permissions: { fs: { read: ['${workspace}'] }, net: { allow: ['api.github.com'] } } }));
  const env = { ZOTBOX_HOME: path.join(root, 'state') };
  const error = await t.throwsAsync(prepareRun({ ...options, reference: agent, env, yes: true, remember: true }));
  t.is((error as { code?: string }).code, 'ZB_CONFINEMENT_NET_UNCONFINED');
  t.regex(error.message, /api\.github\.com/);
  t.deepEqual(listReceipts(env.ZOTBOX_HOME), []);
  const confined = await prepareRun({ ...options, reference: agent, env, yes: true, remember: true, confine: 'required' });
  t.deepEqual(confined.permissions.net, ['api.github.com']);
  t.deepEqual(
    listReceipts(env.ZOTBOX_HOME).map((r) => r.receipt?.permissions.net),
    [['api.github.com']],
  );
});

test.serial('without env, the state directory follows process.env.ZOTBOX_HOME (issue 27), and with env only env counts', async (t) => {
  const { root, options } = agentFixture(t);
  const home = path.join(root, 'exported-home');
  const before = process.env['ZOTBOX_HOME'];
  process.env['ZOTBOX_HOME'] = home;
  try {
    t.is((await prepareRun({ ...options, yes: true })).stateDirectory, home);
    const other = path.join(root, 'passed-home');
    t.is((await prepareRun({ ...options, env: { ZOTBOX_HOME: other }, yes: true })).stateDirectory, other);
  } finally {
    if (before === undefined) delete process.env['ZOTBOX_HOME'];
    else process.env['ZOTBOX_HOME'] = before;
  }
});
