// The eval's scheduler: cases start in order, at most maxRuns runs at once, and
// no new case starts after --fail-fast's first failure, a cap, or the signal.
// Runs are promises the test settles itself: nothing waits on the clock.
import test from 'ava';
import type { CaseRun } from '../../../src/host/eval/eval-report.js';
import type { PlannedCase } from '../../../src/host/eval/eval-plan.js';
import { EvalScheduler, type SchedulerOptions } from '../../../src/host/eval/eval-scheduler.js';
import type { EndedRun } from '../../../src/host/eval/case-run.js';

function planned(key: string, threshold = 1): PlannedCase {
  return { key, threshold } as unknown as PlannedCase;
}

function run(passed: boolean, costUsd: number | null = 0, tokens = 0): CaseRun {
  return {
    repeat: 1,
    attempts: 1,
    passed,
    status: 'completed',
    error: null,
    turns: 1,
    usage: { input_tokens: tokens, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    cost_usd: costUsd,
    duration_ms: 0,
    final_text: '',
    expectations: [],
    transcript_tail: '',
  };
}

/** A run the test ends when it chooses, and a record of which runs started. */
class ControlledRuns {
  readonly started: string[] = [];
  private readonly pending = new Map<string, (ended: EndedRun) => void>();
  private readonly waiters: { count: number; resolve: () => void }[] = [];

  readonly runOne = (p: PlannedCase, repeat: number): Promise<EndedRun> =>
    new Promise((resolve) => {
      const name = `${p.key}#${repeat}`;
      this.started.push(name);
      this.pending.set(name, resolve);
      for (const waiter of this.waiters.filter((w) => this.started.length >= w.count)) waiter.resolve();
    });

  /** Ends a run; `endpoints` are those it reached (its model endpoint, the sandbox). */
  finish(name: string, result: CaseRun, endpoints: readonly string[] = []): void {
    const resolve = this.pending.get(name);
    if (resolve === undefined) throw new Error(`${name} is not running`);
    this.pending.delete(name);
    resolve({ run: result, endpoints });
  }

  /** Resolves once `count` runs have started. */
  startedAtLeast(count: number): Promise<void> {
    if (this.started.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }
}

const options = (overrides: Partial<SchedulerOptions> = {}): SchedulerOptions => ({
  repeat: 1,
  maxRuns: 2,
  failFast: false,
  maxCostUsd: undefined,
  maxTokens: undefined,
  maxInfraErrors: 3,
  signal: new AbortController().signal,
  ...overrides,
});

test('cases start in order and at most maxRuns runs are in flight', async (t) => {
  const runs = new ControlledRuns();
  const done = new EvalScheduler(options({ maxRuns: 2 })).run([planned('s/a'), planned('s/b'), planned('s/c')], runs.runOne);
  await runs.startedAtLeast(2);
  t.deepEqual(runs.started, ['s/a#1', 's/b#1'], 'the third waits for a slot');
  runs.finish('s/b#1', run(true));
  await runs.startedAtLeast(3);
  t.deepEqual(runs.started, ['s/a#1', 's/b#1', 's/c#1']);
  runs.finish('s/a#1', run(true));
  runs.finish('s/c#1', run(false));
  const outcomes = await done;
  t.deepEqual(
    outcomes.map((o) => (o.kind === 'ran' ? o.runs.map((r) => r.passed) : o.reason)),
    [[true], [true], [false]],
  );
});

test('--repeat runs each case K times, each in its own slot', async (t) => {
  const runs = new ControlledRuns();
  const done = new EvalScheduler(options({ repeat: 3, maxRuns: 3 })).run([planned('s/a')], runs.runOne);
  await runs.startedAtLeast(3);
  t.deepEqual(runs.started, ['s/a#1', 's/a#2', 's/a#3']);
  for (const name of runs.started) runs.finish(name, run(true));
  const [outcome] = await done;
  t.is(outcome?.kind === 'ran' ? outcome.runs.length : 0, 3);
});

test('--fail-fast: after a failed case, later cases are not run, with the reason', async (t) => {
  const runs = new ControlledRuns();
  const done = new EvalScheduler(options({ maxRuns: 1, failFast: true })).run([planned('s/a'), planned('s/b'), planned('s/c')], runs.runOne);
  await runs.startedAtLeast(1);
  runs.finish('s/a#1', run(false));
  const outcomes = await done;
  t.deepEqual(runs.started, ['s/a#1']);
  t.deepEqual(outcomes.slice(1), [
    { kind: 'not_run', reason: '--fail-fast: case s/a failed' },
    { kind: 'not_run', reason: '--fail-fast: case s/a failed' },
  ]);
});

test('a case that meets its threshold is not a failure for --fail-fast', async (t) => {
  const runs = new ControlledRuns();
  const done = new EvalScheduler(options({ maxRuns: 1, failFast: true, repeat: 2 })).run([planned('s/a', 0.5), planned('s/b')], runs.runOne);
  await runs.startedAtLeast(1);
  runs.finish('s/a#1', run(false));
  await runs.startedAtLeast(2);
  runs.finish('s/a#2', run(true));
  await runs.startedAtLeast(3);
  runs.finish('s/b#1', run(true));
  await runs.startedAtLeast(4);
  runs.finish('s/b#2', run(true));
  const outcomes = await done;
  t.true(outcomes.every((o) => o.kind === 'ran'));
});

test('--max-cost: once finished runs cost the cap, no new case starts', async (t) => {
  const runs = new ControlledRuns();
  const done = new EvalScheduler(options({ maxRuns: 1, maxCostUsd: 0.5 })).run([planned('s/a'), planned('s/b'), planned('s/c')], runs.runOne);
  await runs.startedAtLeast(1);
  runs.finish('s/a#1', run(true, 0.3));
  await runs.startedAtLeast(2);
  runs.finish('s/b#1', run(true, 0.25));
  const outcomes = await done;
  t.deepEqual(runs.started, ['s/a#1', 's/b#1']);
  t.deepEqual(outcomes[2], { kind: 'not_run', reason: 'the --max-cost cap of $0.5000 was reached ($0.5500 spent)' });
});

test('--max-tokens: once finished runs used the cap, no new case starts', async (t) => {
  const runs = new ControlledRuns();
  const done = new EvalScheduler(options({ maxRuns: 1, maxTokens: 100 })).run([planned('s/a'), planned('s/b')], runs.runOne);
  await runs.startedAtLeast(1);
  runs.finish('s/a#1', run(true, null, 100));
  const outcomes = await done;
  t.deepEqual(outcomes[1], { kind: 'not_run', reason: 'the --max-tokens cap of 100 tokens was reached (100 used)' });
});

test('the signal: cases waiting for a slot never start, and the runs in flight are waited for', async (t) => {
  const runs = new ControlledRuns();
  const controller = new AbortController();
  const done = new EvalScheduler(options({ maxRuns: 1, signal: controller.signal })).run([planned('s/a'), planned('s/b'), planned('s/c')], runs.runOne);
  await runs.startedAtLeast(1);
  controller.abort();
  runs.finish('s/a#1', run(false));
  const outcomes = await done;
  t.deepEqual(runs.started, ['s/a#1']);
  t.is(outcomes[0]?.kind, 'ran');
  t.deepEqual(outcomes[1], { kind: 'not_run', reason: 'the eval was interrupted before it started' });
  t.deepEqual(outcomes[2], { kind: 'not_run', reason: 'the eval was interrupted before it started' });
});

/** A run that ended on the model server being down at `endpoint`. */
function downRun(endpoint: string): CaseRun {
  return {
    ...run(false),
    status: 'failed',
    error: { code: 'ZB_PROVIDER_FAILED', message: 'cannot reach it: connect ECONNREFUSED' },
    infrastructure: { code: 'ZB_PROVIDER_FAILED', message: 'cannot reach it: connect ECONNREFUSED', endpoint },
  };
}

test('3 runs in a row that end on an infrastructure error at one endpoint stop the eval from starting cases, and say why once', async (t) => {
  const runs = new ControlledRuns();
  const stops: string[] = [];
  const cases = ['s/a', 's/b', 's/c', 's/d', 's/e'].map((key) => planned(key));
  const done = new EvalScheduler(options({ maxRuns: 1, onInfrastructureStop: (reason) => stops.push(reason) })).run(cases, runs.runOne);
  for (const [i, name] of ['s/a#1', 's/b#1', 's/c#1'].entries()) {
    await runs.startedAtLeast(i + 1);
    runs.finish(name, downRun('openai http://127.0.0.1:9/v1'), ['openai http://127.0.0.1:9/v1']);
  }
  const outcomes = await done;
  t.deepEqual(runs.started, ['s/a#1', 's/b#1', 's/c#1']);
  t.deepEqual(
    outcomes.map((o) => o.kind),
    ['ran', 'ran', 'ran', 'not_run', 'not_run'],
  );
  const reason = outcomes[3]?.kind === 'not_run' ? outcomes[3].reason : '';
  t.regex(reason, /^3 runs in a row ended on an infrastructure error at openai http:\/\/127\.0\.0\.1:9\/v1 \(the last: ZB_PROVIDER_FAILED: .*ECONNREFUSED\)/);
  t.deepEqual(stops, [reason]);
});

test('a run that reaches the endpoint without an infrastructure error ends its streak; errors at another endpoint count apart', async (t) => {
  const runs = new ControlledRuns();
  const cases = ['s/a', 's/b', 's/c', 's/d', 's/e', 's/f'].map((key) => planned(key));
  const done = new EvalScheduler(options({ maxRuns: 1 })).run(cases, runs.runOne);
  const steps: [CaseRun, string[]][] = [
    [downRun('A'), ['A']],
    [downRun('A'), ['A']],
    [run(true), ['A']], // A answered: its streak ends
    [downRun('B'), ['B']],
    [downRun('A'), ['A']],
    [downRun('A'), ['A']],
  ];
  for (const [i, [result, endpoints]] of steps.entries()) {
    await runs.startedAtLeast(i + 1);
    runs.finish(`${cases[i]!.key}#1`, result, endpoints);
  }
  const outcomes = await done;
  t.true(
    outcomes.every((o) => o.kind === 'ran'),
    'never 3 in a row at one endpoint',
  );
});

test('--max-infra-errors 0 never stops for infrastructure errors', async (t) => {
  const runs = new ControlledRuns();
  const cases = ['s/a', 's/b', 's/c', 's/d'].map((key) => planned(key));
  const done = new EvalScheduler(options({ maxRuns: 1, maxInfraErrors: 0 })).run(cases, runs.runOne);
  for (const [i, p] of cases.entries()) {
    await runs.startedAtLeast(i + 1);
    runs.finish(`${p.key}#1`, downRun('A'), ['A']);
  }
  t.true((await done).every((o) => o.kind === 'ran'));
});
