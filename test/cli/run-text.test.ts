// The text form of run.queued (issue 26): a line when the wait is long, decided by
// the event itself, never by a clock: a wait for the pool always is (whole runs
// must end first); a wait for an endpoint is when at least a round of requests
// (its limit) waits before it. Each reason is told once per run.
import test from 'ava';
import type { RunEvent } from '../../src/host/run/run-events.js';
import { textRenderer } from '../../src/cli/run-text.js';

const at = '2026-12-02T00:00:00.000Z';
const pool = (ahead: number): RunEvent => ({ type: 'run.queued', reason: 'pool', ahead, limit: 256, at });
const endpoint = (ahead: number, limit: number): RunEvent => ({ type: 'run.queued', reason: 'endpoint', endpoint: '127.0.0.1:8080', ahead, limit, at });

test('a wait for the pool is a line, naming the runs ahead and maxRuns, once per run', (t) => {
  const { render } = textRenderer({ chat: false });
  t.is(render(pool(0)), '⧗ waiting for a run slot in the pool (0 runs ahead, 256 at once: maxRuns)\n');
  t.is(render(pool(3)), '');
});

test('a wait for an endpoint behind fewer requests than its limit is no line', (t) => {
  const { render } = textRenderer({ chat: false });
  t.is(render(endpoint(0, 1)), '');
  t.is(render(endpoint(7, 8)), '');
});

test('a wait for an endpoint behind a whole round of requests is a line naming the endpoint, once per run', (t) => {
  const { render } = textRenderer({ chat: false });
  t.is(render(endpoint(8, 8)), '\n⧗ waiting for a model slot on 127.0.0.1:8080 (8 requests ahead, 8 at once: --model-concurrency, max_concurrency)\n');
  t.is(render(endpoint(20, 8)), '');
});

test('each reason is told once: a pool wait does not silence a later long endpoint wait', (t) => {
  const { render } = textRenderer({ chat: false });
  t.not(render(pool(1)), '');
  t.not(render(endpoint(2, 1)), '');
});
