// Which timeouts a model gets: its own (models.json), else the environment's,
// else the defaults, each separately; bad values are refused with the fix.
import test from 'ava';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ZotboxError } from '../../../src/errors.js';
import { readUserModels } from '../../../src/host/models/model-catalog.js';
import { DEFAULT_MODEL_TIMEOUTS, resolveModelTimeouts } from '../../../src/host/providers/model-timeouts.js';
import { tempDir } from '../../fixtures/temp.js';

test('the defaults: 60 s to the first byte, 80 s of silence, so a silent server fails within 90 s', (t) => {
  t.deepEqual(DEFAULT_MODEL_TIMEOUTS, { firstByteMs: 60_000, idleMs: 80_000 });
  t.deepEqual(resolveModelTimeouts({}, {}), { firstByteMs: 60_000, idleMs: 80_000 });
  t.deepEqual(resolveModelTimeouts({}, { ZOTBOX_MODEL_FIRST_BYTE_TIMEOUT: '', ZOTBOX_MODEL_IDLE_TIMEOUT: '' }), { firstByteMs: 60_000, idleMs: 80_000 }, 'empty is unset');
});

test('the environment sets them for every model, in seconds', (t) => {
  t.deepEqual(resolveModelTimeouts({}, { ZOTBOX_MODEL_FIRST_BYTE_TIMEOUT: '5', ZOTBOX_MODEL_IDLE_TIMEOUT: '2.5' }), { firstByteMs: 5_000, idleMs: 2_500 });
});

test("a model's own setting wins over the environment, each limit on its own", (t) => {
  t.deepEqual(resolveModelTimeouts({ idleTimeoutMs: 300_000 }, { ZOTBOX_MODEL_FIRST_BYTE_TIMEOUT: '5', ZOTBOX_MODEL_IDLE_TIMEOUT: '9' }), { firstByteMs: 5_000, idleMs: 300_000 });
});

for (const bad of ['0', '-1', 'abc', '1e3', '90000', '5s']) {
  test(`ZOTBOX_MODEL_IDLE_TIMEOUT=${bad} is refused with ZB_OPTION_INVALID naming the variable`, (t) => {
    const error = t.throws<ZotboxError>(() => resolveModelTimeouts({}, { ZOTBOX_MODEL_IDLE_TIMEOUT: bad }));
    t.is(error.code, 'ZB_OPTION_INVALID');
    t.regex(error.message, /ZOTBOX_MODEL_IDLE_TIMEOUT must be a number of seconds/);
  });
}

test('models.json takes first_byte_timeout_s and idle_timeout_s, and refuses a bad one naming the field', (t) => {
  const state = tempDir(t, 'zb-models-');
  mkdirSync(state, { recursive: true });
  const file = path.join(state, 'models.json');
  writeFileSync(file, JSON.stringify({ models: [{ id: 'slow', provider: 'openai', context_window: 8192, first_byte_timeout_s: 5, idle_timeout_s: 600 }] }));
  t.like(readUserModels(state)[0], { firstByteTimeoutMs: 5_000, idleTimeoutMs: 600_000 });
  writeFileSync(file, JSON.stringify({ models: [{ id: 'slow', provider: 'openai', context_window: 8192, idle_timeout_s: 0 }] }));
  const error = t.throws<ZotboxError>(() => readUserModels(state));
  t.is(error.code, 'ZB_MODELS_FILE_INVALID');
  t.regex(error.message, /models\.0\.idle_timeout_s/);
});
