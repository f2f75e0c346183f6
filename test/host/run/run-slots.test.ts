import test from 'ava';
import { RunSlots } from '../../../src/host/run/run-slots.js';

test('slots are granted up to the limit, then in the order asked; a release lets exactly the next waiter in', async (t) => {
  const slots = new RunSlots(2);
  const granted: string[] = [];
  const ask = (name: string) => slots.acquire().then((release) => (granted.push(name), release));
  const a = await ask('a');
  const b = await ask('b');
  const c = ask('c');
  const d = ask('d');
  t.deepEqual(granted, ['a', 'b']);
  t.deepEqual({ inFlight: slots.inFlight, queued: slots.queued }, { inFlight: 2, queued: 2 });
  b();
  const releaseC = await c;
  t.deepEqual(granted, ['a', 'b', 'c']);
  b(); // a second release of the same slot changes nothing
  t.deepEqual({ inFlight: slots.inFlight, queued: slots.queued }, { inFlight: 2, queued: 1 });
  a();
  (await d)();
  releaseC();
  t.deepEqual({ inFlight: slots.inFlight, queued: slots.queued }, { inFlight: 0, queued: 0 });
});

test('a waiter whose signal aborts leaves the queue without a slot; an already aborted signal never waits', async (t) => {
  const slots = new RunSlots(1);
  const held = await slots.acquire();
  const controller = new AbortController();
  const aborted = slots.acquire(controller.signal);
  const next = slots.acquire();
  controller.abort(new Error('stop'));
  await t.throwsAsync(aborted, { message: 'stop' });
  t.is(slots.queued, 1);
  held();
  (await next)();
  await t.throwsAsync(slots.acquire(AbortSignal.abort(new Error('early'))), { message: 'early' });
  t.deepEqual({ inFlight: slots.inFlight, queued: slots.queued }, { inFlight: 0, queued: 0 });
});
