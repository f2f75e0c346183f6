// The adaptive limit of an endpoint nobody configured (issue 26): it starts
// generous, halves once per round of throttles, steps down while latency climbs
// (never below its floor), climbs by one per round of answers while requests
// queue, and stops adapting once a caller fixes it. Outcomes are fed by hand.
import test from 'ava';
import { AdaptiveLimit, type AdaptivePolicy } from '../../../src/host/providers/adaptive-limit.js';
import { ConcurrencyLimiter, type Slot } from '../../../src/host/providers/concurrency-limiter.js';

const policy: AdaptivePolicy = { initial: 16, min: 1, max: 20, latencyFloor: 4, latencyTolerance: 2 };

function adaptive(initial = policy.initial): { limiter: ConcurrencyLimiter; limit: AdaptiveLimit } {
  const limiter = new ConcurrencyLimiter(initial);
  return { limiter, limit: new AdaptiveLimit(limiter, { ...policy, initial }) };
}

/** Holds every slot and queues `waiting` more, so the limit is what holds requests back. */
function saturate(limiter: ConcurrencyLimiter, waiting: number): Slot[] {
  const held: Slot[] = [];
  const signal = new AbortController().signal;
  for (let i = 0; i < limiter.limit; i++) void limiter.acquire(signal).then((slot) => held.push(slot));
  for (let i = 0; i < waiting; i++) void limiter.acquire(signal);
  return held;
}

test('a burst of throttles on requests sent together halves the limit once', (t) => {
  const { limiter, limit } = adaptive();
  const sent = Array.from({ length: 10 }, () => limit.sending());
  for (const request of sent) limit.throttled(request);
  t.is(limiter.limit, 8);
});

test('a throttle on a request sent after the last decrease halves it again, down to the minimum', (t) => {
  const { limiter, limit } = adaptive(4);
  for (const expected of [2, 1, 1]) {
    limit.throttled(limit.sending());
    t.is(limiter.limit, expected);
  }
});

test('answers at a steady latency while requests queue climb the limit by one per round of answers', (t) => {
  const { limiter, limit } = adaptive(4);
  saturate(limiter, 3);
  for (let i = 0; i < 3; i++) limit.answered(limit.sending(), 300);
  t.is(limiter.limit, 4, 'not before a whole round');
  limit.answered(limit.sending(), 300);
  t.is(limiter.limit, 5);
});

test('answers while nothing queues leave the limit where it is', (t) => {
  const { limiter, limit } = adaptive(4);
  for (let i = 0; i < 50; i++) limit.answered(limit.sending(), 300);
  t.is(limiter.limit, 4);
});

test('the limit never climbs above the maximum', (t) => {
  const { limiter, limit } = adaptive(20);
  saturate(limiter, 5);
  for (let i = 0; i < 100; i++) limit.answered(limit.sending(), 300);
  t.is(limiter.limit, 20);
});

test('latency that climbs to several times its usual level steps the limit down, never below the floor', (t) => {
  const { limiter, limit } = adaptive(16);
  for (let i = 0; i < 50; i++) limit.answered(limit.sending(), 100);
  t.is(limiter.limit, 16);
  const seen: number[] = [];
  for (let i = 0; i < 60; i++) {
    limit.answered(limit.sending(), 1000);
    seen.push(limiter.limit);
  }
  t.true(
    seen.some((value) => value < 16),
    'it went down',
  );
  t.is(Math.min(...seen), 4, 'and stopped at the floor');
});

test('a fixed limit stays put, whatever the endpoint answers', (t) => {
  const { limiter, limit } = adaptive();
  limit.fix(3);
  t.false(limit.adapting);
  limit.throttled(limit.sending());
  saturate(limiter, 10);
  for (let i = 0; i < 20; i++) limit.answered(limit.sending(), 5000);
  t.is(limiter.limit, 3);
});
