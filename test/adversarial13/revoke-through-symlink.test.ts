// Adversarial review of issue 13 (finding 3, planted symlink in the state
// directory): `consent revoke NAME` deletes every *.json entry it lists in
// agents/NAME/consents, and `sessions rm` unlinks in sessions/agents/NAME, without
// checking that the directory is a real directory inside the state directory. A
// symlink planted there turns revoke into "delete every .json file in that
// directory" (package.json, tsconfig.json...) anywhere the user can write.
import test from 'ava';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCliCaptured } from '../fixtures/cli-harness.js';
import { tempDir } from '../fixtures/temp.js';

test('consent revoke never deletes files outside the state directory through a symlinked consents directory', async (t) => {
  const root = tempDir(t, 'zb-adv13-revoke-');
  const project = path.join(root, 'project');
  mkdirSync(project);
  writeFileSync(path.join(project, 'package.json'), '{"name":"mine"}');
  const state = path.join(root, 'state');
  mkdirSync(path.join(state, 'agents', 'demo'), { recursive: true });
  symlinkSync(project, path.join(state, 'agents', 'demo', 'consents'));
  await runCliCaptured(['consent', 'revoke', 'demo'], { env: { ZOTBOX_HOME: state } });
  t.true(existsSync(path.join(project, 'package.json')), 'consent revoke deleted a file outside the state directory');
});

test('sessions rm never deletes a file outside the state directory through a symlinked agent sessions directory', async (t) => {
  const root = tempDir(t, 'zb-adv13-srm-');
  const elsewhere = path.join(root, 'elsewhere');
  mkdirSync(elsewhere);
  const id = '20260101T000000Z-0123abcd';
  const victim = path.join(elsewhere, `${id}.jsonl`);
  writeFileSync(victim, 'precious\n');
  const state = path.join(root, 'state');
  mkdirSync(path.join(state, 'sessions', 'agents'), { recursive: true });
  symlinkSync(elsewhere, path.join(state, 'sessions', 'agents', 'demo'));
  await runCliCaptured(['sessions', 'rm', id], { env: { ZOTBOX_HOME: state } });
  t.true(existsSync(victim), 'sessions rm deleted a file outside the state directory');
});
