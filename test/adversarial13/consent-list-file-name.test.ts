// Adversarial review of issue 13 (finding 2, terminal text): `consent list` prints
// the file name of an INVALID or UNTRUSTED receipt as it is. A file planted in a
// consents directory whose name holds a newline adds a line of its own choosing:
// here one that reads exactly like a trusted, approved receipt.
import test from 'ava';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCliCaptured } from '../fixtures/cli-harness.js';
import { tempDir } from '../fixtures/temp.js';

test('a receipt file name cannot add a line to consent list', async (t) => {
  const state = tempDir(t, 'zb-adv13-list-');
  const consents = path.join(state, 'agents', 'demo', 'consents');
  mkdirSync(consents, { recursive: true });
  const forged = `evil@6.6.6  sha256:${'e'.repeat(64)}  approved 2026-01-01T00:00:00.000Z  workspace ~`;
  writeFileSync(path.join(consents, `x\n${forged}\n.json`), 'not json');
  const listed = await runCliCaptured(['consent', 'list'], { env: { ZOTBOX_HOME: state } });
  t.is(listed.status, 0, listed.stderr);
  const lines = listed.stdout.split('\n').filter((line) => line !== '');
  t.is(lines.length, 1, listed.stdout);
  t.false(lines.includes(forged));
});
