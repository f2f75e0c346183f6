import test from 'ava';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { requestConsent } from '../../src/host/consent/request-consent.js';
import { receiptPath } from '../../src/host/consent/receipt.js';
import { runCliCaptured } from '../fixtures/cli-harness.js';
import { tempDir } from '../fixtures/temp.js';

async function seed(state: string, digestLetter: string) {
  await requestConsent({
    stateDirectory: state,
    name: 'demo',
    version: '1.0.0',
    contentDigest: `sha256:${digestLetter.repeat(64)}`,
    artifactDigest: undefined,
    permissions: { read: ['/w'], write: [], bash: { mode: 'none', allow: [] }, confinement: 'unconfined' },
    yes: true,
    env: {},
    stdin: new PassThrough(),
    stdout: { write: () => undefined },
    reference: 'demo',
  });
}

test('consent list shows receipts; revoke removes one or all; an unknown action is a usage error', async (t) => {
  const state = tempDir(t, 'zb-consent-cli-');
  await seed(state, 'a');
  await seed(state, 'b');
  const env = { ZOTBOX_HOME: state };
  const listed = await runCliCaptured(['consent', 'list'], { env });
  t.is(listed.status, 0);
  t.is(listed.stdout.trim().split('\n').length, 2);
  t.regex(listed.stdout, /^demo@1\.0\.0 {2}sha256:a{64} {2}approved /);
  const json = JSON.parse((await runCliCaptured(['consent', 'list', 'demo', '--json'], { env })).stdout) as { valid: boolean }[];
  t.is(json.length, 2);
  t.true(json.every((r) => r.valid));
  t.is((await runCliCaptured(['consent', 'revoke', 'demo', `sha256:${'a'.repeat(64)}`], { env })).status, 0);
  t.is((await runCliCaptured(['consent', 'revoke', 'demo'], { env })).stdout, 'revoked 1 receipt for demo\n');
  const none = await runCliCaptured(['consent', 'revoke', 'demo'], { env });
  t.is(none.status, 1);
  t.regex(none.stderr, /ZB_CONSENT_NOT_FOUND/);
  t.is((await runCliCaptured(['consent', 'grant', 'demo'], { env })).status, 2);
});

test('consent list marks receipts this installation did not sign as UNTRUSTED', async (t) => {
  const state = tempDir(t, 'zb-consent-cli-');
  const elsewhere = tempDir(t, 'zb-consent-cli-');
  await seed(state, 'a');
  await seed(elsewhere, 'b');
  const copied = receiptPath(state, 'demo', `sha256:${'b'.repeat(64)}`);
  copyFileSync(receiptPath(elsewhere, 'demo', `sha256:${'b'.repeat(64)}`), copied);
  const forged = receiptPath(state, 'demo', `sha256:${'c'.repeat(64)}`);
  const { mac: _dropped, ...unsigned } = JSON.parse(readFileSync(copied, 'utf8')) as Record<string, unknown>;
  writeFileSync(forged, JSON.stringify({ ...unsigned, digest: `sha256:${'c'.repeat(64)}` }));
  const env = { ZOTBOX_HOME: state };
  const lines = (await runCliCaptured(['consent', 'list'], { env })).stdout.trim().split('\n');
  t.is(lines.length, 3);
  t.regex(lines[0]!, /^demo@1\.0\.0 {2}sha256:a{64} {2}approved /);
  t.is(lines[1], `demo@1.0.0  sha256:${'b'.repeat(64)}  UNTRUSTED  ${copied}`);
  t.is(lines[2], `demo@1.0.0  sha256:${'c'.repeat(64)}  UNTRUSTED  ${forged}`);
  const json = JSON.parse((await runCliCaptured(['consent', 'list', '--json'], { env })).stdout) as { valid: boolean; trusted: boolean }[];
  t.deepEqual(
    json.map((r) => [r.valid, r.trusted]),
    [
      [true, true],
      [true, false],
      [true, false],
    ],
  );
});
