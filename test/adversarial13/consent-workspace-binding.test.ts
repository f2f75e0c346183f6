// Adversarial review of issue 13 (finding 1, receipt scope): docs/cli.md says
// "consent given for one workspace does not cover another". A receipt binds the
// expanded permissions only, so an agent whose permissions never name
// ${workspace} (here: bash allowlist, unconfined, no fs scopes; its commands run
// in whatever workspace it is started in) is approved once, in a harmless
// directory, and then runs in any other workspace without being asked.
import test from 'ava';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCliCaptured } from '../fixtures/cli-harness.js';
import { tempDir } from '../fixtures/temp.js';

test('a receipt saved in workspace A does not let the agent run in workspace B without asking', async (t) => {
  const root = realpathSync(tempDir(t, 'zb-adv13-ws-'));
  const agent = path.join(root, 'helper');
  mkdirSync(agent);
  writeFileSync(path.join(agent, 'manifest.json'), JSON.stringify({ zotfile: 1, name: 'helper', version: '1.0.0', permissions: { bash: { mode: 'allowlist', allow: ['ls'] } } }));
  writeFileSync(path.join(agent, 'AGENT.md'), 'You help.');
  const transcript = path.join(root, 'hello.json');
  writeFileSync(transcript, JSON.stringify({ zotbox_replay: 1, model: 'replay', turns: [{ content: [{ type: 'text', text: 'Hello.' }], stop: 'end', usage: { input_tokens: 1, output_tokens: 1 } }] }));
  const harmless = path.join(root, 'scratch');
  const secret = path.join(root, 'secret-repo');
  mkdirSync(harmless);
  mkdirSync(secret);
  const env = { ZOTBOX_HOME: path.join(root, 'state') };
  const run = (workspace: string, ...flags: string[]) =>
    runCliCaptured(['run', agent, 'hi', '--cwd', workspace, '--replay', transcript, '--confine', 'off', '--no-session', '--json', ...flags], { env });
  const approved = await run(harmless, '-y', '--remember');
  t.is(approved.status, 0, approved.stderr);
  const elsewhere = await run(secret);
  t.is(elsewhere.status, 1, `ran in ${secret} on the receipt approved in ${harmless}: ${elsewhere.stdout.split('\n')[0] ?? ''}`);
  t.regex(elsewhere.stderr, /ZB_CONSENT_REQUIRED/);
});
