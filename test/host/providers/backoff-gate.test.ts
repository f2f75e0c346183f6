// The shared backoff of one endpoint, on a fake clock: every pass waits out a
// backoff, one probe goes first after it, waits without retry-after grow
// exponentially with jitter and are capped, and a wait past the cap fails fast.
import test from 'ava';
import type { ZotboxError } from '../../../src/errors.js';
import { BackoffGate } from '../../../src/host/providers/backoff-gate.js';
import { FakeClock } from '../../fixtures/fake-clock.js';

const POLICY = { baseMs: 1000, maxBackoffMs: 30_000, maxWaitMs: 60_000 };
const live = () => new AbortController().signal;

function gateOn(clock: FakeClock, random = () => 0.5) {
  return new BackoffGate('anthropic at http://test', clock, POLICY, random);
}

test('with no backoff a request passes at once', async (t) => {
  const clock = new FakeClock();
  const ticket = await gateOn(clock).pass(live());
  t.truthy(ticket);
  t.deepEqual(clock.wakeTimes(), []);
});

test('after a throttle with retry-after 7 s, every pass sleeps until that deadline', async (t) => {
  const clock = new FakeClock();
  const gate = gateOn(clock);
  (await gate.pass(live())).throttled(429, 7000);
  const passes = [gate.pass(live()), gate.pass(live())];
  await clock.untilSleeping(2);
  t.deepEqual(clock.wakeTimes(), [7000, 7000]);
  clock.advance(6999);
  t.deepEqual(clock.wakeTimes(), [1, 1], 'still asleep one millisecond before the deadline');
  clock.advance(1);
  (await passes[0]!).answered(); // the first asleep wakes first and is the probe
  await passes[1];
});

test('after a backoff only the probe passes; the others wait for its answer, then all go', async (t) => {
  const clock = new FakeClock();
  const gate = gateOn(clock);
  (await gate.pass(live())).throttled(529, 1000);
  let passed = 0;
  const passes = [1, 2, 3].map(() => gate.pass(live()).then((ticket) => (passed++, ticket)));
  await clock.untilSleeping(3);
  clock.advance(1000);
  const probe = await passes[0]!;
  t.is(passed, 1);
  t.is(gate.waiting, 2, 'two wait for the probe');
  probe.answered();
  await Promise.all(passes);
  t.is(passed, 3);
  t.is(gate.waiting, 0);
});

test('a probe throttled again sends the waiters back to sleep, none of them having been sent', async (t) => {
  const clock = new FakeClock();
  const gate = gateOn(clock);
  (await gate.pass(live())).throttled(429, 1000);
  const first = gate.pass(live());
  let secondPassed = false;
  const second = gate.pass(live()).then((ticket) => ((secondPassed = true), ticket));
  await clock.untilSleeping(2);
  clock.advance(1000);
  (await first).throttled(429, 5000);
  await clock.untilSleeping(1);
  t.false(secondPassed);
  t.deepEqual(clock.wakeTimes(), [5000]);
  clock.advance(5000);
  (await second).answered();
});

test('a probe that gets no answer hands the probe to the next waiter', async (t) => {
  const clock = new FakeClock();
  const gate = gateOn(clock);
  (await gate.pass(live())).throttled(429, 10);
  const first = gate.pass(live());
  const second = gate.pass(live());
  const third = gate.pass(live());
  await clock.untilSleeping(3);
  clock.advance(10);
  (await first).unanswered();
  const next = await second;
  t.is(gate.waiting, 1, 'the third still waits: the second is now the probe');
  next.answered();
  await third;
});

test('without retry-after the wait doubles per backoff, with jitter, capped at 30 s, and resets once a probe is answered', async (t) => {
  const clock = new FakeClock();
  const gate = gateOn(clock, () => 0.5); // jitter factor 0.5 + 0.5/2 = 0.75
  const seen: number[] = [];
  for (let i = 0; i < 7; i++) {
    (await gate.pass(live())).throttled(429, undefined);
    seen.push(gate.remainingMs);
    clock.advance(gate.remainingMs);
  }
  t.deepEqual(seen, [750, 1500, 3000, 6000, 12_000, 22_500, 22_500]);
  (await gate.pass(live())).answered();
  (await gate.pass(live())).throttled(429, undefined);
  t.is(gate.remainingMs, 750);
});

test('jitter keeps the wait between half and all of the exponential step', async (t) => {
  const low = new FakeClock();
  const lowGate = gateOn(low, () => 0);
  (await lowGate.pass(live())).throttled(429, undefined);
  t.is(lowGate.remainingMs, 500);
  const high = new FakeClock();
  const highGate = gateOn(high, () => 0.998);
  (await highGate.pass(live())).throttled(429, undefined);
  t.is(highGate.remainingMs, 999);
});

test('a later, shorter retry-after never shortens a backoff in force', async (t) => {
  const clock = new FakeClock();
  const gate = gateOn(clock);
  const [a, b] = await Promise.all([gate.pass(live()), gate.pass(live())]);
  a.throttled(429, 9000);
  b.throttled(429, 2000);
  t.is(gate.remainingMs, 9000);
});

test('only the first report of a ticket counts', async (t) => {
  const clock = new FakeClock();
  const gate = gateOn(clock);
  const ticket = await gate.pass(live());
  ticket.answered();
  ticket.throttled(429, 9000);
  t.is(gate.remainingMs, 0);
});

test('a retry-after of exactly 60 s is waited out; one beyond it fails every request at once with ZB_PROVIDER_FAILED', async (t) => {
  const clock = new FakeClock();
  const gate = gateOn(clock);
  (await gate.pass(live())).throttled(429, 60_000);
  const waited = gate.pass(live());
  await clock.untilSleeping(1);
  clock.advance(60_000);
  (await waited).throttled(429, 3_600_000);
  const error = await t.throwsAsync<ZotboxError>(gate.pass(live()));
  t.is(error.code, 'ZB_PROVIDER_FAILED');
  t.like(error.details, { status: 429, retryAfterMs: 3_600_000 });
  t.deepEqual(clock.wakeTimes(), [], 'nothing sleeps for an hour');
});

test('a retry-after far in the future refuses the endpoint for at most the cap; then a probe asks it again and, answered, everything goes', async (t) => {
  const clock = new FakeClock();
  const gate = gateOn(clock);
  // A retry-after in the year 9999, as a buggy or hostile server might send.
  (await gate.pass(live())).throttled(429, 253_402_300_799_000);
  const refused = await t.throwsAsync<ZotboxError>(gate.pass(live()));
  t.is(refused.code, 'ZB_PROVIDER_FAILED');
  clock.advance(59_999);
  await t.throwsAsync(gate.pass(live()), undefined, 'still refused just before the cap ends');
  clock.advance(1);
  const probe = await gate.pass(live());
  const after = gate.pass(live());
  probe.answered();
  t.truthy(await after, 'once the probe is answered, requests go again');
  t.deepEqual(clock.wakeTimes(), [], 'nothing ever slept for the asked time');
});

test('a request cancelled during the backoff leaves; the others still wait and go', async (t) => {
  const clock = new FakeClock();
  const gate = gateOn(clock);
  (await gate.pass(live())).throttled(429, 7000);
  const controller = new AbortController();
  const cancelled = gate.pass(controller.signal);
  const kept = gate.pass(live());
  await clock.untilSleeping(2);
  controller.abort();
  t.is((await t.throwsAsync<ZotboxError>(cancelled)).code, 'ZB_GATE_CANCELLED');
  t.deepEqual(clock.wakeTimes(), [7000]);
  clock.advance(7000);
  (await kept).answered();
});

test('a request cancelled while it waits for the probe leaves without disturbing the probe', async (t) => {
  const clock = new FakeClock();
  const gate = gateOn(clock);
  (await gate.pass(live())).throttled(429, 10);
  const controller = new AbortController();
  const probe = gate.pass(live());
  const cancelled = gate.pass(controller.signal);
  const kept = gate.pass(live());
  await clock.untilSleeping(3);
  clock.advance(10);
  const ticket = await probe;
  t.is(gate.waiting, 2);
  controller.abort();
  t.is((await t.throwsAsync<ZotboxError>(cancelled)).code, 'ZB_GATE_CANCELLED');
  t.is(gate.waiting, 1);
  ticket.answered();
  await kept;
  t.is(gate.waiting, 0);
});
