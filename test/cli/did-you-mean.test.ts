// "Did you mean" (issue 27, item 5): a misspelt command, option, agent path or model
// id is answered with the name it most likely meant; a word near nothing gets none.
import test from 'ava';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { closestName } from '../../src/errors.js';
import { runCliCaptured } from '../fixtures/cli-harness.js';
import { EXAMPLES_DIR } from '../fixtures/paths.js';
import { tempDir } from '../fixtures/temp.js';

const COMMANDS = ['init', 'pack', 'inspect', 'verify', 'unpack', 'check', 'run', 'eval', 'consent', 'sessions', 'data', 'doctor', 'completion'];

const near = test.macro((t, word: string, expected: string | undefined) => {
  t.is(closestName(word, COMMANDS), expected);
});
test('rn → run', near, 'rn', 'run');
test('inspet → inspect', near, 'inspet', 'inspect');
test('sesions → sessions', near, 'sesions', 'sessions');
test('evla (a swap) → eval', near, 'evla', 'eval');
test('RUN → run (case)', near, 'RUN', 'run');
test('sess → sessions (the start of one name)', near, 'sess', 'sessions');
test('deploy → nothing', near, 'deploy', undefined);
test('x → nothing', near, 'x', undefined);

test('zotbox rn suggests run', async (t) => {
  const result = await runCliCaptured(['rn']);
  t.is(result.status, 2);
  t.regex(result.stderr, /^zotbox: error\[ZB_CLI_UNKNOWN_COMMAND\]: unknown command 'rn'\. Did you mean 'run'\?/);
});

test('zotbox run --modle suggests --model', async (t) => {
  const result = await runCliCaptured(['run', 'agent', '--modle', 'x']);
  t.is(result.status, 2);
  t.regex(result.stderr, /unknown option '--modle' \(did you mean '--model'\?\)/);
});

test('an agent path one letter off suggests the folder beside it', async (t) => {
  const root = tempDir(t, 'zb-dym-');
  mkdirSync(path.join(root, 'my-agent'));
  writeFileSync(path.join(root, 'my-agent', 'manifest.json'), '{}');
  const result = await runCliCaptured(['inspect', 'my-agnet'], { cwd: root });
  t.is(result.status, 1);
  t.regex(result.stderr, /error\[ZB_LOAD_NOT_FOUND\]: no agent at \S+\/my-agnet: nothing exists there\. Did you mean my-agent\?/);
  const far = await runCliCaptured(['inspect', 'quite-different'], { cwd: root });
  t.notRegex(far.stderr, /Did you mean/);
});

test('a misspelt model id suggests the catalog model', async (t) => {
  const root = tempDir(t, 'zb-dym-');
  const result = await runCliCaptured(['run', path.join(EXAMPLES_DIR, 'code-reviewer'), 'hi', '--model', 'claude-sonet-4-5', '-y'], { env: { ZOTBOX_HOME: path.join(root, 'state') } });
  t.is(result.status, 1);
  t.regex(result.stderr, /error\[ZB_MODEL_UNAVAILABLE\]: model "claude-sonet-4-5" is in no catalog\. Did you mean 'claude-sonnet-4-5'\?/);
});

const action = test.macro(async (t, argv: string[], expected: RegExp) => {
  const result = await runCliCaptured(argv);
  t.is(result.status, 2);
  t.regex(result.stderr, expected);
});
test('zotbox models lst suggests list and names every action', action, ['models', 'lst'], /unknown models action "lst"\. Did you mean 'list'\? Use list, path, add or test\./);
test('zotbox sessions prne suggests prune', action, ['sessions', 'prne'], /unknown sessions action "prne"\. Did you mean 'prune'\? Use list, show, rm or prune\./);
test('zotbox consent revok suggests revoke', action, ['consent', 'revok'], /unknown consent action "revok"\. Did you mean 'revoke'\? Use list or revoke\./);
test('zotbox data mov suggests move', action, ['data', 'mov'], /unknown data action "mov"\. Did you mean 'move'\? Use list or move\./);
test('an action near none gets no suggestion', action, ['models', 'deploy'], /unknown models action "deploy"\. Use list, path, add or test\./);

test('zotbox models test with a misspelt model id suggests the model the catalog has', async (t) => {
  const state = path.join(tempDir(t, 'zb-dym-models-'), 'state');
  const result = await runCliCaptured(['models', 'test', 'gpt-4.l'], { env: { ZOTBOX_HOME: state } });
  t.is(result.status, 1);
  t.regex(result.stderr, /model "gpt-4\.l" is in no catalog\. Did you mean 'gpt-4\.1'\?/);
  t.true(result.stderr.includes(`zotbox models add gpt-4.l --provider openai`), result.stderr);
});
