// The FIFO concurrency limiter under a model endpoint: admission order, a slot
// released once however often release is called, aborted waiters leaving the
// queue, and limit changes.
import test from 'ava';
import { ConcurrencyLimiter, type Slot } from '../../../src/host/providers/concurrency-limiter.js';

const live = () => new AbortController().signal;

test('with limit 2, two callers get slots and the rest queue, admitted in arrival order', async (t) => {
  const limiter = new ConcurrencyLimiter(2);
  const admitted: string[] = [];
  const take = (name: string) => limiter.acquire(live()).then((slot) => (admitted.push(name), slot));
  const [a, b, c, d] = [take('a'), take('b'), take('c'), take('d')];
  t.is(limiter.held, 2);
  t.is(limiter.queued, 2);
  (await a).release();
  t.is(limiter.held, 2, 'releasing one admits exactly one');
  t.is(limiter.queued, 1);
  (await b).release();
  await Promise.all([c, d]);
  t.deepEqual(admitted, ['a', 'b', 'c', 'd']);
});

test('a slot released twice frees only one place', async (t) => {
  const limiter = new ConcurrencyLimiter(1);
  const first = await limiter.acquire(live());
  first.release();
  first.release();
  const second = limiter.acquire(live());
  const third = limiter.acquire(live());
  await second;
  t.is(limiter.held, 1);
  t.is(limiter.queued, 1, 'the third still waits');
  (await second).release();
  await third;
});

test('an aborted waiter leaves the queue with ZB_GATE_CANCELLED and the next in line is admitted', async (t) => {
  const limiter = new ConcurrencyLimiter(1);
  const holder = await limiter.acquire(live());
  const controller = new AbortController();
  const cancelled = limiter.acquire(controller.signal);
  let next: Slot | undefined;
  const waiting = limiter.acquire(live()).then((slot) => (next = slot));
  controller.abort();
  await t.throwsAsync(cancelled, { code: 'ZB_GATE_CANCELLED' });
  t.is(limiter.queued, 1);
  holder.release();
  await waiting;
  t.truthy(next);
  t.is(limiter.held, 1);
});

test('an already aborted signal is refused without taking a slot', async (t) => {
  const limiter = new ConcurrencyLimiter(1);
  const controller = new AbortController();
  controller.abort();
  await t.throwsAsync(limiter.acquire(controller.signal), { code: 'ZB_GATE_CANCELLED' });
  t.is(limiter.held, 0);
});

test('raising the limit admits waiters; lowering it keeps held slots and admits no one until below it', async (t) => {
  const limiter = new ConcurrencyLimiter(1);
  const a = await limiter.acquire(live());
  const b = limiter.acquire(live());
  limiter.setLimit(2);
  await b;
  t.is(limiter.held, 2);
  limiter.setLimit(1);
  t.is(limiter.held, 2, 'no held slot is revoked');
  const c = limiter.acquire(live());
  a.release();
  t.is(limiter.queued, 1, 'one still held, at the limit of 1');
  (await b).release();
  await c;
  t.is(limiter.held, 1);
});
