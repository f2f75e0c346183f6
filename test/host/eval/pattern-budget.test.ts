// A case's total time for matching suite patterns is bounded (issue 22 §4): each
// match was bounded, but not their sum, so a run of many calls each just under the
// bound held the pattern thread every case shares for hours past its timeout_s, and
// passed. Now a run's matches share one budget (its timeout_s), and past it the
// verdict fails with ZB_EVAL_PATTERN_LIMIT naming the case. No clock here: the
// pattern host reads a test clock that advances by a fixed step per reading (two
// readings per match, when the thread takes it up and when it answers: a match
// takes one step), so the budget runs out at a known match.
import test from 'ava';
import { CasePatterns } from '../../../src/host/eval/pattern-budget.js';
import { PatternHost, type PatternRequest } from '../../../src/host/eval/pattern-host.js';
import { runEvalWith } from '../../../src/host/eval/run-eval.js';
import { evalWorld, writeSuite, writeTranscript, type EvalWorld } from '../../fixtures/eval-world.js';

/** A clock that moves `step` ms each time it is read. */
function steppingClock(step: number): () => number {
  let now = 0;
  return () => (now += step);
}

const REQUEST: PatternRequest = { kind: 'regex', source: 'curl.*evil', subjects: ['cat README.md'], what: 'the command of a bash call' };

test('past its budget a case fails every further match with ZB_EVAL_PATTERN_LIMIT, naming the case, without asking the pattern thread', async (t) => {
  const started: PatternRequest[] = [];
  const host = new PatternHost({ clock: steppingClock(500), onStarted: (request) => started.push(request) });
  t.teardown(() => host.close());
  const patterns = new CasePatterns(host, 1000, 'flood/flood');
  // 500 ms a match by the test clock: the first two fit in 1000 ms, the third goes past it.
  t.deepEqual(await patterns.test(REQUEST), { ok: true, matched: false });
  t.deepEqual(await patterns.test(REQUEST), { ok: true, matched: false });
  const third = await patterns.test(REQUEST);
  t.false(third.ok);
  t.regex((third as { reason: string }).reason, /^ZB_EVAL_PATTERN_LIMIT: case flood\/flood spent 1500 ms matching suite patterns over 3 matches, past its budget of 1000 ms/);
  const fourth = await patterns.test(REQUEST);
  t.false(fourth.ok);
  t.is(started.length, 3, 'the fourth match never reached the pattern thread');
  // Another case's budget is its own.
  t.deepEqual(await new CasePatterns(host, 1000, 'other/case').test(REQUEST), { ok: true, matched: false });
});

function floodSuite(world: EvalWorld, timeoutSeconds: number): string {
  const calls = Array.from({ length: 5 }, () => ({ tool: { name: 'bash', input: { command: 'cat README.md' } } }));
  const replay = writeTranscript(world, 'flood', [...calls, { text: 'done' }]);
  return writeSuite(world, 'flood', {
    cases: [{ id: 'flood', prompt: 'go', workspace: 'fixture', replay, timeout_s: timeoutSeconds, expect: [{ tool_not_called: { tool: 'bash', command: 'curl.*evil' } }] }],
  });
}

/**
 * One match by the test clock. A case's timeout_s is also the real bound of its run: the budgets below are so large
 * (50 and 100 minutes) that a run on a machine under any load stays far inside them, and only the test clock matters.
 */
const STEP_MS = 1_000_000;

function evalWithClock(world: EvalWorld, suite: string) {
  return runEvalWith({ suiteFiles: [suite], cwd: world.root, env: {}, yes: true, stateDirectory: world.state, tempDirectory: world.temp, confine: 'off' }, { patternClock: steppingClock(STEP_MS) });
}

test('a case whose matching takes longer than its timeout_s does not pass: ZB_EVAL_PATTERN_LIMIT names it', async (t) => {
  const world = evalWorld(t, { fs: { read: ['${workspace}'], write: ['${workspace}'] }, bash: { mode: 'allowlist', allow: ['cat'] } });
  // Five calls, one match each at 1000 s by the test clock: the fourth goes past timeout_s 3000 (which the run itself never nears).
  const report = await evalWithClock(world, floodSuite(world, 3000));
  const verdict = report.cases[0]?.runs[0]?.expectations.find((e) => e.kind === 'tool_not_called');
  t.false(verdict?.passed, verdict?.reason);
  t.regex(verdict?.reason ?? '', /^ZB_EVAL_PATTERN_LIMIT: case flood\/flood spent 4000000 ms matching suite patterns over 4 matches, past its budget of 3000000 ms/);
  t.is(report.cases[0]?.runs[0]?.status, 'completed', 'the run itself was within its time');
  t.is(report.status, 'failed');
});

test('the same case with a timeout_s its matching fits in passes', async (t) => {
  const world = evalWorld(t, { fs: { read: ['${workspace}'], write: ['${workspace}'] }, bash: { mode: 'allowlist', allow: ['cat'] } });
  const report = await evalWithClock(world, floodSuite(world, 6000));
  const verdict = report.cases[0]?.runs[0]?.expectations.find((e) => e.kind === 'tool_not_called');
  t.true(verdict?.passed, verdict?.reason);
  t.is(report.status, 'passed');
});
