import test, { type ExecutionContext } from 'ava';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { formatConsentText, readConsentKey, requestConsent, summarizePermissions, type ConsentRequest } from '../../../src/host/consent/request-consent.js';
import { ensureAgentDirectory } from '../../../src/host/consent/agent-directory.js';
import { receiptKeyPath } from '../../../src/host/consent/receipt-key.js';
import { listReceipts, receiptPath, revokeReceipts, type ConsentSummary } from '../../../src/host/consent/receipt.js';
import { tempDir } from '../../fixtures/temp.js';

const DIGEST = `sha256:${'a'.repeat(64)}`;
const permissions: ConsentSummary = { read: ['/home/u/proj'], write: [], bash: { mode: 'none', allow: [] }, confinement: 'unconfined' };
const SOURCE = { kind: 'local', path: '/agents/demo' } as const;
const DEMO = { name: 'demo', source: SOURCE };

async function answer(bytes: number[] | string, end = false) {
  const input = new PassThrough();
  let echoed = '';
  const result = readConsentKey(input, (text) => (echoed += text));
  input.write(typeof bytes === 'string' ? Buffer.from(bytes) : Buffer.from(bytes));
  if (end) input.end();
  return { result: await result, echoed };
}

// Spec B §9.1 vectors (zot's consent key tests), with Part A's default: a bare Enter is No.
const key = test.macro(async (t, bytes: number[] | string, expected: 'yes' | 'no' | 'interrupted', end?: boolean) => {
  t.is((await answer(bytes, end)).result, expected);
});
test('y CR is yes', key, 'y\r', 'yes');
test('Y LF is yes', key, 'Y\n', 'yes');
test('n CR is no', key, 'n\r', 'no');
test('N LF is no', key, 'N\n', 'no');
test('the first answer is kept: n y CR is no', key, 'ny\r', 'no');
test('y DEL n CR is no', key, [0x79, 0x7f, 0x6e, 0x0d], 'no');
test('n BS y CR is yes', key, [0x6e, 0x08, 0x79, 0x0d], 'yes');
test('DEL y CR is yes', key, [0x7f, 0x79, 0x0d], 'yes');
test('unrelated keys are ignored: x ESC [A y CR is yes', key, 'x\u001b[Ay\r', 'yes');
test('Enter with no answer is No (Part A default; zot waits)', key, '\r', 'no');
test('Ctrl-C interrupts', key, [0x78, 0x03, 0x79], 'interrupted');
test('end of input without Enter is No', key, 'y', 'no', true);

test('the answer is echoed, Backspace erases it, and the line ends', async (t) => {
  t.is((await answer([0x79, 0x7f, 0x6e, 0x0d])).echoed, 'y\b \bn\r\n');
});

function request(t: ExecutionContext, overrides: Partial<ConsentRequest> & { input?: string } = {}): { request: ConsentRequest; output: () => string; state: string } {
  const state = overrides.stateDirectory ?? tempDir(t, 'zb-consent-');
  const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => undefined });
  let written = '';
  if (overrides.input !== undefined) setImmediate(() => stdin.write(overrides.input));
  return {
    state,
    output: () => written,
    request: {
      stateDirectory: state,
      name: 'demo',
      source: SOURCE,
      version: '1.0.0',
      contentDigest: DIGEST,
      artifactDigest: undefined,
      permissions,
      yes: false,
      env: {},
      stdin,
      stdout: { write: (text: string) => (written += text), isTTY: true },
      reference: 'demo.zot',
      ...overrides,
    },
  };
}

const code = (error: unknown) => (error as { code?: string }).code;
const noTerminal = () => Object.assign(new PassThrough(), { isTTY: false });

test('on a terminal, y allows and writes a verified receipt (0600, in a 0700 directory)', async (t) => {
  const { request: r, output, state } = request(t, { input: 'y\r' });
  t.is(await requestConsent(r), 'prompt');
  t.regex(output(), /^Agent demo@1\.0\.0 wants to run\.\n[\s\S]*fs read: {2}\/home\/u\/proj\n[\s\S]*Allow\? \[y\/N\] y\r\n$/);
  const file = receiptPath(state, DEMO, DIGEST, permissions);
  t.is(statSync(file).mode & 0o777, 0o600);
  t.is(statSync(path.dirname(file)).mode & 0o777, 0o700);
  t.like(JSON.parse(readFileSync(file, 'utf8')), { receipt: 2, digest: DIGEST, name: 'demo', version: '1.0.0', permissions });
  const again = request(t, { stateDirectory: state });
  t.is(await requestConsent(again.request), 'receipt');
  t.is(again.output(), '', 'nothing is asked twice');
});

test('on a terminal, n and Enter refuse and write nothing', async (t) => {
  for (const input of ['n\r', '\r']) {
    const { request: r, state } = request(t, { input });
    t.is(code(await t.throwsAsync(requestConsent(r))), 'ZB_CONSENT_REFUSED');
    t.false(existsSync(receiptPath(state, DEMO, DIGEST, permissions)));
  }
});

test('without a terminal, consent is refused with how to review and approve', async (t) => {
  const { request: r } = request(t);
  const error = await t.throwsAsync(requestConsent({ ...r, stdin: Object.assign(new PassThrough(), { isTTY: false }) }));
  t.is(code(error), 'ZB_CONSENT_REQUIRED');
  t.regex(error.message, /zotbox inspect demo\.zot.*-y\/--yes or ZOTBOX_AGENT_CONSENT=1/);
});

test('stdin a terminal and stdout not (redirected or piped): the question goes to the terminal, and nothing to stdout', async (t) => {
  let onTerminal = '';
  let closed = false;
  const { request: r, output } = request(t, { input: 'y\r' });
  const openTerminal = () => ({ write: (text: string) => (onTerminal += text), close: () => (closed = true) });
  t.is(await requestConsent({ ...r, stdout: { write: (text: string) => (r.stdout.write(text), true), isTTY: false }, openTerminal }), 'prompt');
  t.regex(onTerminal, /^Agent demo@1\.0\.0 wants to run\.\n[\s\S]*Allow\? \[y\/N\] y\r\n$/);
  t.is(output(), '', 'stdout carries none of it');
  t.true(closed, 'the terminal is closed after the answer');
});

test('stdin a terminal, stdout not, and no controlling terminal to open: consent is required, naming why', async (t) => {
  const { request: r, output } = request(t);
  const error = await t.throwsAsync(requestConsent({ ...r, stdout: { write: () => true, isTTY: false }, openTerminal: () => undefined }));
  t.is(code(error), 'ZB_CONSENT_REQUIRED');
  t.regex(error.message, /controlling terminal/);
  t.is(output(), '');
});

test('stdout a terminal and stdin not: nothing to read the answer from, so consent is required', async (t) => {
  const { request: r, output } = request(t);
  let opened = false;
  const error = await t.throwsAsync(requestConsent({ ...r, stdin: noTerminal(), openTerminal: () => ((opened = true), undefined) }));
  t.is(code(error), 'ZB_CONSENT_REQUIRED');
  t.regex(error.message, /standard input/);
  t.false(opened);
  t.is(output(), '', 'no question is asked that cannot be answered');
});

test('-y and ZOTBOX_AGENT_CONSENT=1 allow this run without asking and save nothing: the next run without them is asked again', async (t) => {
  // Issue 13: -y used to save a receipt silently, so later runs skipped a prompt the user never saw.
  const flag = request(t, { yes: true });
  t.is(await requestConsent({ ...flag.request, stdin: noTerminal() }), 'flag');
  const env = request(t, { stateDirectory: flag.state, env: { ZOTBOX_AGENT_CONSENT: '1' } });
  t.is(await requestConsent(env.request), 'environment');
  t.false(existsSync(receiptPath(flag.state, DEMO, DIGEST, permissions)));
  t.deepEqual(listReceipts(flag.state), []);
  await t.throwsAsync(requestConsent({ ...flag.request, yes: false, stdin: noTerminal() }), { code: 'ZB_CONSENT_REQUIRED' } as never);
  const wrong = request(t, { env: { ZOTBOX_AGENT_CONSENT: 'yes' } });
  t.is(code(await t.throwsAsync(requestConsent({ ...wrong.request, stdin: noTerminal() }))), 'ZB_CONSENT_REQUIRED');
});

test('with remember, -y and ZOTBOX_AGENT_CONSENT=1 save a receipt (recording the workspace) that the next run uses', async (t) => {
  for (const given of [{ yes: true }, { env: { ZOTBOX_AGENT_CONSENT: '1' } }]) {
    const first = request(t, { ...given, remember: true, workspace: '/home/u/proj' });
    await requestConsent({ ...first.request, stdin: noTerminal() });
    t.like(JSON.parse(readFileSync(receiptPath(first.state, DEMO, DIGEST, permissions, '/home/u/proj'), 'utf8')), { digest: DIGEST, workspace: '/home/u/proj' });
    t.is(await requestConsent({ ...first.request, yes: false, env: {}, stdin: noTerminal() }), 'receipt');
  }
});

test('-y --remember with a matching receipt leaves it as it is; another workspace (other permissions) gets a receipt of its own beside it', async (t) => {
  const first = request(t, { yes: true, remember: true, workspace: '/home/u/proj' });
  await requestConsent(first.request);
  const file = receiptPath(first.state, DEMO, DIGEST, permissions, '/home/u/proj');
  const written = readFileSync(file, 'utf8');
  utimesSync(file, new Date(0), new Date(0));
  t.is(await requestConsent(first.request), 'flag');
  t.is(statSync(file).mtimeMs, 0, 'not rewritten');
  t.is(readFileSync(file, 'utf8'), written);
  // Issue 13: approving a second workspace replaced the first one's receipt.
  const other: ConsentSummary = { ...permissions, read: ['/home/u/other'] };
  await requestConsent({ ...first.request, permissions: other, workspace: '/home/u/other' });
  t.is(readFileSync(file, 'utf8'), written, 'the first workspace keeps its receipt');
  t.is(await requestConsent({ ...first.request, yes: false, stdin: noTerminal() }), 'receipt');
  t.is(await requestConsent({ ...first.request, yes: false, stdin: noTerminal(), permissions: other, workspace: '/home/u/other' }), 'receipt');
  // Each receipt counts only where it was approved, even for the same permissions (an agent's permissions need not name its workspace).
  await t.throwsAsync(requestConsent({ ...first.request, yes: false, stdin: noTerminal(), workspace: '/home/u/other' }), { code: 'ZB_CONSENT_REQUIRED' } as never);
  t.deepEqual(
    listReceipts(first.state)
      .map((r) => r.receipt?.workspace)
      .sort(),
    ['/home/u/other', '/home/u/proj'],
  );
});

test('a receipt saved before issue 13 (one per digest, at <digest>.json) is not used: the run is asked again', async (t) => {
  const first = request(t, { yes: true, remember: true });
  await requestConsent(first.request);
  const legacy = path.join(path.dirname(receiptPath(first.state, DEMO, DIGEST, permissions)), `${'a'.repeat(64)}.json`);
  renameSync(receiptPath(first.state, DEMO, DIGEST, permissions), legacy);
  await t.throwsAsync(requestConsent({ ...first.request, yes: false, stdin: noTerminal() }), { code: 'ZB_CONSENT_REQUIRED' } as never);
});

test('consent to an agent from one folder does not cover an agent of the same name and content from another (issue 21)', async (t) => {
  const trusted = request(t, { yes: true, remember: true });
  await requestConsent(trusted.request);
  t.is(await requestConsent({ ...trusted.request, yes: false, stdin: noTerminal() }), 'receipt');
  const stranger = { ...trusted.request, source: { kind: 'local', path: '/home/stranger/demo' } as const, yes: false, stdin: noTerminal() };
  await t.throwsAsync(requestConsent(stranger), { code: 'ZB_CONSENT_REQUIRED' } as never);
  const fromGitHub = { ...stranger, source: { kind: 'github', owner: 'acme', repo: 'agents', path: 'demo' } as const };
  await t.throwsAsync(requestConsent(fromGitHub), { code: 'ZB_CONSENT_REQUIRED' } as never);
});

test('a tampered receipt, or one for other permissions or another digest, does not count', async (t) => {
  const first = request(t, { yes: true, remember: true });
  await requestConsent(first.request);
  const file = receiptPath(first.state, DEMO, DIGEST, permissions);
  const noTty = Object.assign(new PassThrough(), { isTTY: false });
  // Other permissions (e.g. another workspace): asked again.
  await t.throwsAsync(requestConsent({ ...first.request, yes: false, stdin: noTty, permissions: { ...permissions, read: ['/other'] } }), { code: 'ZB_CONSENT_REQUIRED' } as never);
  // Tampered: not JSON, or edited fields.
  writeFileSync(file, '{"receipt":1');
  await t.throwsAsync(requestConsent({ ...first.request, yes: false, stdin: Object.assign(new PassThrough(), { isTTY: false }) }), { code: 'ZB_CONSENT_REQUIRED' } as never);
  writeFileSync(file, JSON.stringify({ receipt: 1, digest: `sha256:${'b'.repeat(64)}`, artifact_digest: null, name: 'demo', version: '1', permissions, approved_at: 'x' }));
  await t.throwsAsync(requestConsent({ ...first.request, yes: false, stdin: Object.assign(new PassThrough(), { isTTY: false }) }), { code: 'ZB_CONSENT_REQUIRED' } as never);
});

test('bash "ask" mode never uses or writes a receipt', async (t) => {
  const ask: ConsentSummary = { ...permissions, bash: { mode: 'ask', allow: [] } };
  const first = request(t, { yes: true, remember: true, permissions: ask });
  t.is(await requestConsent(first.request), 'flag');
  t.false(existsSync(receiptPath(first.state, DEMO, DIGEST, ask)));
  const prompt = request(t, { stateDirectory: first.state, permissions: ask, input: 'y\r' });
  t.is(await requestConsent(prompt.request), 'prompt');
  t.false(existsSync(receiptPath(first.state, DEMO, DIGEST, ask)));
  t.regex(formatConsentText({ ...prompt.request }), /bash: {5}ask — ANY command/);
});

test('receipts can be listed and revoked, all or by digest', async (t) => {
  const a = request(t, { yes: true, remember: true });
  await requestConsent(a.request);
  await requestConsent({ ...a.request, contentDigest: `sha256:${'c'.repeat(64)}` });
  t.is(listReceipts(a.state).length, 2);
  t.is(revokeReceipts(a.state, 'demo', `sha256:${'c'.repeat(64)}`).length, 1);
  t.is(listReceipts(a.state, 'demo').length, 1);
  t.is(revokeReceipts(a.state, 'demo').length, 1);
  t.is(code(t.throws(() => revokeReceipts(a.state, 'demo'))), 'ZB_CONSENT_NOT_FOUND');
});

/** What an attacker who can write the consents directory, but not read the key, would write. */
function forgeReceipt(state: string, extra: Record<string, unknown> = {}) {
  const file = receiptPath(state, DEMO, DIGEST, permissions);
  ensureAgentDirectory(state, DEMO);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(
    file,
    JSON.stringify({ receipt: 2, digest: DIGEST, artifact_digest: null, name: 'demo', version: '1.0.0', permissions, approved_at: new Date().toISOString(), source: SOURCE.path, ...extra }),
  );
}

test('a forged receipt (well-formed, written without the key) is ignored: the prompt is asked again', async (t) => {
  for (const extra of [{}, { mac: `hmac-sha256:${'0'.repeat(64)}` }]) {
    const { request: r, output, state } = request(t, { input: 'y\r' });
    forgeReceipt(state, extra);
    t.is(await requestConsent(r), 'prompt');
    t.regex(output(), /Allow\? \[y\/N\] y\r\n$/);
    t.is(await requestConsent(request(t, { stateDirectory: state }).request), 'receipt', 'the answer replaced the forgery with a signed receipt');
  }
});

test('a forged receipt next to genuine ones is ignored: without a terminal, consent is required', async (t) => {
  const { request: r, state } = request(t, { yes: true, remember: true });
  await requestConsent({ ...r, contentDigest: `sha256:${'c'.repeat(64)}` }); // the installation now has a key and a genuine receipt
  forgeReceipt(state);
  await t.throwsAsync(requestConsent({ ...r, yes: false, stdin: noTerminal() }), { code: 'ZB_CONSENT_REQUIRED' } as never);
});

test('a receipt copied from another state directory is ignored', async (t) => {
  const a = request(t, { yes: true, remember: true });
  await requestConsent(a.request);
  const b = request(t, { yes: true, remember: true });
  await requestConsent({ ...b.request, contentDigest: `sha256:${'c'.repeat(64)}` });
  copyFileSync(receiptPath(a.state, DEMO, DIGEST, permissions), receiptPath(b.state, DEMO, DIGEST, permissions));
  await t.throwsAsync(requestConsent({ ...b.request, yes: false, stdin: noTerminal() }), { code: 'ZB_CONSENT_REQUIRED' } as never);
  t.is(await requestConsent({ ...a.request, yes: false, stdin: noTerminal() }), 'receipt', 'still good where it was made');
});

test('consent to a confined run does not cover an unconfined one', async (t) => {
  const confined = request(t, { yes: true, remember: true, permissions: { ...permissions, confinement: 'bubblewrap' } });
  await requestConsent(confined.request);
  t.is(await requestConsent({ ...confined.request, yes: false, stdin: noTerminal() }), 'receipt');
  const unconfined = { ...confined.request, yes: false, stdin: noTerminal(), permissions: { ...permissions, confinement: 'unconfined' as const } };
  await t.throwsAsync(requestConsent(unconfined), { code: 'ZB_CONSENT_REQUIRED' } as never);
});

test('an unsafe key file stops consent with ZB_IO_FAILED before anything is asked or trusted', async (t) => {
  const symlinked = request(t, { input: 'y\r' });
  writeFileSync(`${symlinked.state}/elsewhere.key`, Buffer.alloc(32, 1), { mode: 0o600 });
  symlinkSync(`${symlinked.state}/elsewhere.key`, receiptKeyPath(symlinked.state));
  await t.throwsAsync(requestConsent(symlinked.request), { code: 'ZB_IO_FAILED' } as never);
  t.is(symlinked.output(), '', 'nothing was asked');
  const readable = request(t, { yes: true, remember: true });
  await requestConsent(readable.request);
  chmodSync(receiptKeyPath(readable.state), 0o644);
  await t.throwsAsync(requestConsent({ ...readable.request, yes: false }), { code: 'ZB_IO_FAILED', message: /mode 0644, not 0600.*Fix: delete it/ } as never);
  await t.throwsAsync(requestConsent(readable.request), { code: 'ZB_IO_FAILED' } as never, '-y cannot sign with it either');
});

test('the consent prompt escapes control characters in what the agent declares', async (t) => {
  const { request: r, output } = request(t, { input: 'n\r', version: '1\u001b]52;c;aGk=\u0007', permissions: { ...permissions, read: ['/p\u001b[2Jq'] } });
  await t.throwsAsync(requestConsent(r), { code: 'ZB_CONSENT_REFUSED' } as never);
  t.false(output().includes('\u001b'));
  t.false(output().includes('\u0007'));
  t.true(output().includes('Agent demo@1\\u001b]52;c;aGk=\\u0007 wants to run.'));
  t.true(output().includes('fs read:  /p\\u001b[2Jq'));
});

test('without a terminal, the refusal escapes control characters in the reference', async (t) => {
  const { request: r } = request(t, { reference: 'x\u001b]0;title\u0007' });
  const error = await t.throwsAsync(requestConsent({ ...r, stdin: noTerminal() }));
  t.false(error.message.includes('\u001b'));
  t.true(error.message.includes("zotbox inspect x\\u001b]0;title\\u0007'"));
});

test('the permission summary consent shows and the receipt binds holds the command limits ceiling', (t) => {
  const limits = { processes: 1024, memory_mib: 4096, cpu_seconds: 3600, file_size_mib: 4096 };
  const summary = summarizePermissions({ read: [{ root: '/w' }], write: [] }, { mode: 'ask', allow: [] }, 'bubblewrap', limits);
  t.deepEqual(summary, { read: ['/w'], write: [], bash: { mode: 'ask', allow: [] }, confinement: 'bubblewrap', limits });
  t.true(formatConsentText({ name: 'a', version: '1', contentDigest: `sha256:${'a'.repeat(64)}`, artifactDigest: undefined, permissions: summary }).includes('  limits:   per command 1024 processes'));
});
