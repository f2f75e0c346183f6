// Suite patterns never block the eval (issue 22 §4): a regex that backtracks for
// ever is stopped at its time bound and fails with ZB_EVAL_PATTERN_LIMIT, a
// subject past the length bound is never matched, the next request gets a fresh
// thread, and the eval's signal stops a spinning match at once.
import test, { type ExecutionContext } from 'ava';
import { MAX_PATTERN_SUBJECT_CHARS, PatternHost, type PatternOutcome, type PatternRequest } from '../../../src/host/eval/pattern-host.js';

/** Exponential backtracking on this answer: 2^40 ways to split the a's before the "!" fails the match. */
const CATASTROPHIC: PatternRequest = { kind: 'regex', source: '^(\\w+\\s?)+$', subjects: [`${'a'.repeat(40)}!`], what: 'the final text' };

function host(t: ExecutionContext, options: ConstructorParameters<typeof PatternHost>[0] = {}): PatternHost {
  const patterns = new PatternHost(options);
  t.teardown(() => patterns.close());
  return patterns;
}

test('a regex that backtracks without end fails at its time bound with ZB_EVAL_PATTERN_LIMIT, and the next request is matched by a fresh thread', async (t) => {
  const patterns = host(t);
  const outcome = await patterns.test(CATASTROPHIC);
  t.false(outcome.ok);
  t.regex((outcome as { reason: string }).reason, /^ZB_EVAL_PATTERN_LIMIT: \/\^\(\\w\+\\s\?\)\+\$\/ ran past its 1000 ms bound on the final text/);
  t.deepEqual(await patterns.test({ kind: 'regex', source: '^a+!$', subjects: [`${'a'.repeat(40)}!`], what: 'the final text' }), { ok: true, matched: true });
});

test('requests waiting behind a spinning one are matched once it is stopped', async (t) => {
  const patterns = host(t);
  const [spun, after] = await Promise.all([patterns.test(CATASTROPHIC), patterns.test({ kind: 'glob', source: 'src/**/*.ts', subjects: ['x', 'src/a/b.ts'], what: 'the path of a call' })]);
  t.false(spun.ok);
  t.deepEqual(after, { ok: true, matched: true });
});

test('a subject over the length bound is never matched: the verdict fails with ZB_EVAL_PATTERN_LIMIT', async (t) => {
  const patterns = host(t);
  const outcome = await patterns.test({ kind: 'regex', source: 'a', subjects: ['a'.repeat(MAX_PATTERN_SUBJECT_CHARS + 1)], what: 'the final text' });
  t.false(outcome.ok);
  t.regex((outcome as { reason: string }).reason, /^ZB_EVAL_PATTERN_LIMIT: the final text is 1000001 characters, over the 1000000/);
  t.deepEqual(await patterns.test({ kind: 'regex', source: 'a$', subjects: ['a'.repeat(MAX_PATTERN_SUBJECT_CHARS)], what: 'the final text' }), { ok: true, matched: true }, 'at the bound, matched');
});

test('a glob that backtracks without end fails like a regex', async (t) => {
  const patterns = host(t);
  // Each ** is a .*: with 24 of them before a b that never comes, the engine tries every split of the a's.
  const outcome = await patterns.test({ kind: 'glob', source: `${'**a'.repeat(24)}b`, subjects: ['a'.repeat(5000)], what: 'the path of a call' });
  t.false(outcome.ok);
  t.regex((outcome as { reason: string }).reason, /^ZB_EVAL_PATTERN_LIMIT: .* ran past its 1000 ms bound on the path of a call/);
});

test("the eval's signal stops a spinning match at once: it fails as interrupted, and so does every later request", async (t) => {
  const controller = new AbortController();
  // A bound no test would wait for: only the signal can end this match.
  const patterns = host(t, { signal: controller.signal, timeLimitMs: 3_600_000, onStarted: () => controller.abort() });
  const outcome: PatternOutcome = await patterns.test(CATASTROPHIC);
  t.deepEqual(outcome, { ok: false, reason: 'the eval was interrupted before this pattern was matched' });
  t.deepEqual(await patterns.test({ kind: 'regex', source: 'a', subjects: ['a'], what: 'the final text' }), outcome);
});
