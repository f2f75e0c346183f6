import test from 'ava';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { requestConsent } from '../../src/host/consent/request-consent.js';
import { receiptPath, type ConsentSummary } from '../../src/host/consent/receipt.js';
import { runCliCaptured } from '../fixtures/cli-harness.js';
import { tempDir } from '../fixtures/temp.js';

const SOURCE = { kind: 'local', path: '/agents/demo' } as const;
const DEMO = { name: 'demo', source: SOURCE };
const PERMISSIONS: ConsentSummary = { read: ['/w'], write: [], bash: { mode: 'none', allow: [] }, confinement: 'unconfined' };

async function seed(state: string, digestLetter: string, workspace = '/w') {
  await requestConsent({
    stateDirectory: state,
    name: 'demo',
    source: SOURCE,
    version: '1.0.0',
    contentDigest: `sha256:${digestLetter.repeat(64)}`,
    artifactDigest: undefined,
    permissions: { ...PERMISSIONS, read: [workspace] },
    workspace,
    yes: true,
    remember: true,
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
  const copied = receiptPath(state, DEMO, `sha256:${'b'.repeat(64)}`, PERMISSIONS, '/w');
  copyFileSync(receiptPath(elsewhere, DEMO, `sha256:${'b'.repeat(64)}`, PERMISSIONS, '/w'), copied);
  const forged = receiptPath(state, DEMO, `sha256:${'c'.repeat(64)}`, PERMISSIONS, '/w');
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

test('consent list shows the workspace each receipt was approved in; two workspaces keep a receipt each', async (t) => {
  const state = tempDir(t, 'zb-consent-cli-');
  await seed(state, 'a', '/zb-nowhere/one');
  await seed(state, 'a', '/zb-nowhere/two');
  const env = { ZOTBOX_HOME: state };
  const lines = (await runCliCaptured(['consent', 'list'], { env })).stdout.trim().split('\n').sort();
  t.is(lines.length, 2);
  t.regex(lines[0]!, /^demo@1\.0\.0 {2}sha256:a{64} {2}approved \S+ {2}workspace \/zb-nowhere\/one {2}from \/agents\/demo$/);
  t.regex(lines[1]!, /^demo@1\.0\.0 {2}sha256:a{64} {2}approved \S+ {2}workspace \/zb-nowhere\/two {2}from \/agents\/demo$/);
  const json = JSON.parse((await runCliCaptured(['consent', 'list', '--json'], { env })).stdout) as { workspace: string }[];
  t.deepEqual(json.map((r) => r.workspace).sort(), ['/zb-nowhere/one', '/zb-nowhere/two']);
});

test('consent revoke NAME DIGEST removes that digest in every workspace; --workspace only the one approved there', async (t) => {
  const state = tempDir(t, 'zb-consent-cli-');
  await seed(state, 'a', '/zb-nowhere/one');
  await seed(state, 'a', '/zb-nowhere/two');
  await seed(state, 'b', '/zb-nowhere/one');
  const env = { ZOTBOX_HOME: state };
  const one = await runCliCaptured(['consent', 'revoke', 'demo', '--workspace', '/zb-nowhere/one', `sha256:${'a'.repeat(64)}`], { env });
  t.is(one.stdout, 'revoked 1 receipt for demo\n');
  t.is((await runCliCaptured(['consent', 'revoke', 'demo', `sha256:${'b'.repeat(64)}`], { env })).stdout, 'revoked 1 receipt for demo\n');
  const left = JSON.parse((await runCliCaptured(['consent', 'list', '--json'], { env })).stdout) as { workspace: string; digest: string }[];
  t.deepEqual(
    left.map((r) => [r.digest, r.workspace]),
    [[`sha256:${'a'.repeat(64)}`, '/zb-nowhere/two']],
  );
  t.is((await runCliCaptured(['consent', 'list', '--workspace', '/w'], { env })).status, 2, '--workspace belongs to revoke');
});

test('a state directory that is a file is an error for consent list and revoke (exit 1, ZB_IO_FAILED), also with --json', async (t) => {
  const file = path.join(tempDir(t, 'zb-consent-cli-'), 'a-file');
  writeFileSync(file, 'x');
  const env = { ZOTBOX_HOME: file };
  for (const args of [
    ['consent', 'list'],
    ['consent', 'list', 'demo'],
    ['consent', 'revoke', 'demo'],
  ]) {
    const result = await runCliCaptured(args, { env });
    t.is(result.status, 1, args.join(' '));
    t.regex(result.stderr, /error\[ZB_IO_FAILED\]: the zotbox state directory .* is not a directory; it is \$ZOTBOX_HOME/, args.join(' '));
    t.is(result.stdout, '');
  }
  const json = await runCliCaptured(['consent', 'list', '--json'], { env });
  t.like(JSON.parse(json.stdout), { type: 'error', code: 'ZB_IO_FAILED', details: { path: file, origin: 'ZOTBOX_HOME' } });
});

test('an agent name that is not one (a path trick) is refused with exit 2 and touches nothing', async (t) => {
  const root = tempDir(t, 'zb-consent-cli-');
  const state = path.join(root, 'state');
  await seed(state, 'a');
  // What "../../x" would reach: <state>/agents/../../x/consents, outside the state directory.
  mkdirSync(path.join(root, 'x', 'consents'), { recursive: true });
  writeFileSync(path.join(root, 'x', 'consents', 'precious.json'), '{}');
  for (const args of [
    ['consent', 'revoke', '../../x'],
    ['consent', 'list', '../../x'],
  ]) {
    const result = await runCliCaptured(args, { env: { ZOTBOX_HOME: state } });
    t.is(result.status, 2, args.join(' '));
    t.regex(result.stderr, /ZB_OPTION_INVALID/);
  }
  t.true(existsSync(path.join(root, 'x', 'consents', 'precious.json')));
});
