import test from 'ava';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { computeReceiptMac } from '../../../src/host/consent/receipt-mac.js';
import { receiptKeyPath } from '../../../src/host/consent/receipt-key.js';
import { listReceipts, readMatchingReceipt, receiptPath, revokeReceipts, writeReceipt, type ConsentSummary, type UnsignedReceipt } from '../../../src/host/consent/receipt.js';
import { tempDir } from '../../fixtures/temp.js';

const DIGEST = `sha256:${'a'.repeat(64)}`;
const permissions: ConsentSummary = { read: ['/home/u/proj'], write: [], bash: { mode: 'none', allow: [] }, confinement: 'bubblewrap' };
const SOURCE = { kind: 'local', path: '/agents/demo' } as const;
const DEMO = { name: 'demo', source: SOURCE };
const unsigned: UnsignedReceipt = {
  receipt: 2,
  digest: DIGEST,
  artifact_digest: null,
  name: 'demo',
  version: '1.0.0',
  permissions,
  approved_at: '2026-01-02T03:04:05.000Z',
  source: '/agents/demo',
};
const expected = { digest: DIGEST, name: 'demo', source: SOURCE, permissions };

function place(state: string, receipt: object): string {
  const file = receiptPath(state, DEMO, DIGEST, permissions);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(receipt));
  return file;
}

test('a written receipt is signed, and trusted where it was written', (t) => {
  const state = tempDir(t);
  const file = writeReceipt(state, SOURCE, unsigned);
  const stored = JSON.parse(readFileSync(file, 'utf8')) as { mac: string };
  t.like(stored, { ...unsigned, permissions: { ...permissions } });
  t.regex(stored.mac, /^hmac-sha256:[0-9a-f]{64}$/);
  t.like(readMatchingReceipt(state, expected), { digest: DIGEST, mac: stored.mac });
  t.deepEqual(
    listReceipts(state).map((r) => [r.name, r.trusted]),
    [['demo', true]],
  );
});

test('a well-formed receipt written without the key is not trusted, whether or not a key exists yet', (t) => {
  const fresh = tempDir(t);
  place(fresh, unsigned);
  t.is(readMatchingReceipt(fresh, expected), undefined);
  t.false(existsSync(receiptKeyPath(fresh)), 'verifying creates no key');
  const used = tempDir(t);
  writeReceipt(used, SOURCE, { ...unsigned, digest: `sha256:${'c'.repeat(64)}` }); // the installation has a key now
  for (const mac of [undefined, `hmac-sha256:${'0'.repeat(64)}`, computeReceiptMac(Buffer.alloc(32, 9), unsigned)]) {
    place(used, { ...unsigned, ...(mac === undefined ? {} : { mac }) });
    t.is(readMatchingReceipt(used, expected), undefined, String(mac));
  }
  t.deepEqual(
    listReceipts(used).map((r) => r.trusted),
    [false, true],
  );
});

test('a receipt copied from another state directory (another key) is not trusted', (t) => {
  const a = tempDir(t);
  const b = tempDir(t);
  writeReceipt(b, SOURCE, { ...unsigned, digest: `sha256:${'c'.repeat(64)}` }); // b has its own key
  const source = writeReceipt(a, SOURCE, unsigned);
  const target = receiptPath(b, DEMO, DIGEST, permissions);
  copyFileSync(source, target);
  t.truthy(readMatchingReceipt(a, expected));
  t.is(readMatchingReceipt(b, expected), undefined);
  t.false(listReceipts(b).find((r) => r.file === target)!.trusted);
});

test("a signed receipt for one version, copied to another version's file name, is not trusted for it", (t) => {
  const state = tempDir(t);
  const versionA = { ...unsigned, version: '1.0.0' };
  const digestB = `sha256:${'b'.repeat(64)}`;
  const source = writeReceipt(state, SOURCE, versionA);
  const forB = { digest: digestB, name: 'demo', source: SOURCE, permissions };
  // Both names a receipt for version B could have: the current one and the legacy <digest>.json.
  const targets = [receiptPath(state, DEMO, digestB, permissions), path.join(path.dirname(source), `${'b'.repeat(64)}.json`)];
  for (const target of targets) {
    copyFileSync(source, target);
    t.is(readMatchingReceipt(state, forB), undefined, path.basename(target));
    rmSync(target);
  }
  // The copy is a genuine receipt: it is still trusted for the version it was signed for.
  t.like(readMatchingReceipt(state, expected), { digest: DIGEST, version: '1.0.0' });
});

test('a signed receipt edited by hand is not trusted: any field, the mac kept', (t) => {
  const edits: [string, (r: Record<string, unknown>) => void][] = [
    ['write scope added', (r) => (r['permissions'] as ConsentSummary).write.push('/')],
    ['confinement changed', (r) => ((r['permissions'] as { confinement: string }).confinement = 'unconfined')],
    ['bash mode changed', (r) => ((r['permissions'] as ConsentSummary).bash.mode = 'allowlist')],
    ['version changed', (r) => (r['version'] = '2.0.0')],
    ['approval time changed', (r) => (r['approved_at'] = '2030-01-01T00:00:00.000Z')],
    ['artifact digest set', (r) => (r['artifact_digest'] = `sha256:${'d'.repeat(64)}`)],
  ];
  for (const [label, edit] of edits) {
    const state = tempDir(t);
    const file = writeReceipt(state, SOURCE, unsigned);
    const receipt = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown> & { permissions: ConsentSummary };
    edit(receipt);
    writeFileSync(file, JSON.stringify(receipt));
    const sameAsEdited = { ...expected, permissions: receipt.permissions };
    t.is(readMatchingReceipt(state, sameAsEdited), undefined, label);
  }
});

test('a signed receipt for other permissions, another digest or another agent does not match', (t) => {
  const state = tempDir(t);
  writeReceipt(state, SOURCE, unsigned);
  t.is(readMatchingReceipt(state, { ...expected, permissions: { ...permissions, confinement: 'unconfined' } }), undefined, 'confined approval, unconfined run');
  t.is(readMatchingReceipt(state, { ...expected, permissions: { ...permissions, read: ['/elsewhere'] } }), undefined);
  t.is(readMatchingReceipt(state, { ...expected, digest: `sha256:${'e'.repeat(64)}` }), undefined);
  const underOther = receiptPath(state, { name: 'other', source: SOURCE }, DIGEST, permissions);
  mkdirSync(path.dirname(underOther), { recursive: true });
  copyFileSync(receiptPath(state, DEMO, DIGEST, permissions), underOther);
  t.is(readMatchingReceipt(state, { ...expected, name: 'other' }), undefined, 'signed for demo, placed under other');
});

test('a version 1 receipt (before signing) is not a valid receipt', (t) => {
  const state = tempDir(t);
  writeReceipt(state, SOURCE, { ...unsigned, digest: `sha256:${'c'.repeat(64)}` });
  place(state, { ...unsigned, receipt: 1 });
  t.is(readMatchingReceipt(state, expected), undefined);
  t.deepEqual(
    listReceipts(state).map((r) => [r.receipt === undefined, r.trusted]),
    [
      [true, false],
      [false, true],
    ],
  );
});

test('revoking removes untrusted receipts too, and needs no key', (t) => {
  const state = tempDir(t);
  place(state, unsigned);
  t.deepEqual(revokeReceipts(state, 'demo'), [receiptPath(state, DEMO, DIGEST, permissions)]);
});

test('receipts of one digest for different permissions are separate files, <digest>-<16 hex of the permissions>.json', (t) => {
  const state = tempDir(t);
  const first = writeReceipt(state, SOURCE, unsigned);
  const second = writeReceipt(state, SOURCE, { ...unsigned, permissions: { ...permissions, read: ['/home/u/other'] } });
  t.not(first, second);
  for (const file of [first, second]) t.regex(path.basename(file), new RegExp(`^${'a'.repeat(64)}-[0-9a-f]{16}\\.json$`));
  t.truthy(readMatchingReceipt(state, expected));
  t.truthy(readMatchingReceipt(state, { ...expected, permissions: { ...permissions, read: ['/home/u/other'] } }));
});

test('an agent name that could leave the consents directory is refused before it becomes a path', (t) => {
  const state = tempDir(t);
  for (const name of ['..', '../x', 'a/b', '', '.hidden', 'UPPER']) {
    t.throws(() => revokeReceipts(state, name), { code: 'ZB_OPTION_INVALID' } as never, name);
    t.throws(() => listReceipts(state, name), { code: 'ZB_OPTION_INVALID' } as never, name);
  }
});

test('revoking by digest removes that digest in every workspace; by workspace, only what was approved there', (t) => {
  const state = tempDir(t);
  const other = { ...permissions, read: ['/home/u/other'] };
  writeReceipt(state, SOURCE, { ...unsigned, workspace: '/home/u/proj' });
  const kept = writeReceipt(state, SOURCE, { ...unsigned, digest: `sha256:${'c'.repeat(64)}`, workspace: '/home/u/proj' });
  const otherFile = writeReceipt(state, SOURCE, { ...unsigned, permissions: other, workspace: '/home/u/other' });
  t.deepEqual(revokeReceipts(state, 'demo', { workspace: '/home/u/other' }), [otherFile]);
  writeReceipt(state, SOURCE, { ...unsigned, permissions: other, workspace: '/home/u/other' });
  t.is(revokeReceipts(state, 'demo', DIGEST).length, 2, 'a digest given as a string, as before');
  t.deepEqual(
    listReceipts(state).map((r) => r.file),
    [kept],
  );
  t.throws(() => revokeReceipts(state, 'demo', { workspace: '/nowhere' }), { code: 'ZB_CONSENT_NOT_FOUND' } as never);
});

test('a state directory whose agents entry is a file is an error when listing, not "no receipts"', (t) => {
  const state = tempDir(t);
  writeFileSync(path.join(state, 'agents'), 'x');
  t.throws(() => listReceipts(state), { code: 'ZB_IO_FAILED' } as never);
});

test('a signed receipt binds the source: the same name and digest from another folder, or a receipt from before sources were recorded, does not match', (t) => {
  const state = tempDir(t);
  const file = writeReceipt(state, SOURCE, unsigned);
  t.is((JSON.parse(readFileSync(file, 'utf8')) as { source: string }).source, '/agents/demo');
  const elsewhere = { kind: 'local', path: '/home/stranger/demo' } as const;
  const copied = receiptPath(state, { name: 'demo', source: elsewhere }, DIGEST, permissions);
  mkdirSync(path.dirname(copied), { recursive: true });
  copyFileSync(file, copied);
  t.is(readMatchingReceipt(state, { ...expected, source: elsewhere }), undefined, 'signed for /agents/demo, placed under the stranger');
  const { source: _dropped, ...older } = unsigned;
  const key = readFileSync(receiptKeyPath(state));
  writeFileSync(file, JSON.stringify({ ...older, mac: computeReceiptMac(key, older) }));
  t.is(readMatchingReceipt(state, expected), undefined, 'a signed receipt that records no source');
});

test('a receipt binds net.allow: approval without hosts, or with other hosts, never covers a run with these hosts', (t) => {
  const state = tempDir(t);
  const withNet: ConsentSummary = { ...permissions, net: ['api.github.com'] };
  writeReceipt(state, SOURCE, unsigned); // approved without network
  t.is(readMatchingReceipt(state, { ...expected, permissions: withNet }), undefined);
  writeReceipt(state, SOURCE, { ...unsigned, permissions: { ...permissions, net: ['api.github.com', '*.github.com'] } });
  t.is(readMatchingReceipt(state, { ...expected, permissions: withNet }), undefined);
  writeReceipt(state, SOURCE, { ...unsigned, permissions: withNet });
  t.like(readMatchingReceipt(state, { ...expected, permissions: withNet }), { permissions: { net: ['api.github.com'] } });
  // A receipt of hosts never stands for a run without them either, and the one without keeps its old key.
  t.like(readMatchingReceipt(state, expected), { permissions: { read: ['/home/u/proj'] } });
  t.not(receiptPath(state, DEMO, DIGEST, withNet), receiptPath(state, DEMO, DIGEST, permissions));
});
