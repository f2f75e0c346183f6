// untilAborted: the promise's own outcome passes through unchanged, an abort
// rejects with ZB_GATE_CANCELLED, and the abort listener is gone once it settles.
import test from 'ava';
import { getEventListeners } from 'node:events';
import type { ZotboxError } from '../../../src/errors.js';
import { untilAborted } from '../../../src/host/providers/endpoint-clock.js';

test('a value passes through, and the abort listener is removed', async (t) => {
  const signal = new AbortController().signal;
  t.is(await untilAborted(Promise.resolve(7), signal), 7);
  t.is(getEventListeners(signal, 'abort').length, 0);
});

test('a rejection passes through as the very same reason, and the abort listener is removed', async (t) => {
  const signal = new AbortController().signal;
  const reason = new Error('the probe failed');
  t.is(await t.throwsAsync(untilAborted(Promise.reject(reason), signal)), reason);
  t.is(getEventListeners(signal, 'abort').length, 0);
});

test('an abort before the promise settles rejects with ZB_GATE_CANCELLED', async (t) => {
  const controller = new AbortController();
  const waiting = untilAborted(new Promise<never>(() => {}), controller.signal);
  controller.abort();
  t.is((await t.throwsAsync<ZotboxError>(waiting)).code, 'ZB_GATE_CANCELLED');
});

test('a signal already aborted rejects with ZB_GATE_CANCELLED at once', async (t) => {
  const controller = new AbortController();
  controller.abort();
  t.is((await t.throwsAsync<ZotboxError>(untilAborted(Promise.resolve(1), controller.signal))).code, 'ZB_GATE_CANCELLED');
});
