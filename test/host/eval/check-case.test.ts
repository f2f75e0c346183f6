// A case's verdicts stand apart (issue 22 §9): one that throws while it reads what
// the agent left fails alone, with why, and the others are still checked.
import test from 'ava';
import type { CaseWorkspace } from '../../../src/host/eval/case-workspace.js';
import { checkCase } from '../../../src/host/eval/check-case.js';
import type { PlannedCase } from '../../../src/host/eval/eval-plan.js';
import type { GraderHost } from '../../../src/host/eval/graders/grader-host.js';
import { RunRecorder } from '../../../src/host/eval/record-run.js';
import { PatternHost } from '../../../src/host/eval/pattern-host.js';

test('a verdict that throws fails alone, and the run keeps its other verdicts', async (t) => {
  const planned = { evalCase: { id: 'c', prompt: 'p', expect: [{ file_exists: 'out.txt' }, { text_contains: 'done' }] }, suite: { graders: new Map(), judges: new Map() } } as unknown as PlannedCase;
  const recorder = new RunRecorder();
  recorder.add({
    type: 'run.end',
    status: 'completed',
    turns: 1,
    final_text: 'done',
    usage: { input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    cost_usd: null,
    at: '2026-12-02T00:00:00.000Z',
  });
  const workspace = {
    path: '/nowhere/ws',
    readWorkspaceFile: () => {
      throw new Error('the disk answered EIO');
    },
    changedFiles: () => ({ files: [] }),
  } as unknown as CaseWorkspace;
  const graders = {} as unknown as GraderHost; // no grader in this case: never called
  const patterns = new PatternHost();
  t.teardown(() => patterns.close());
  const results = await checkCase(planned, 1, recorder.record(), workspace, { graders, patterns }, new AbortController().signal);
  t.deepEqual(
    results.map((result) => [result.kind, result.passed]),
    [
      ['file_exists', false],
      ['text_contains', true],
      ['status', true],
    ],
  );
  t.regex(results[0]?.reason ?? '', /^this expectation could not be checked: ZB_INTERNAL_BUG: unexpected failure: the disk answered EIO\./);
});

test("once the eval's signal fires, a grader in flight is not awaited: it fails as interrupted (issue 22 §4)", async (t) => {
  const planned = {
    evalCase: { id: 'c', prompt: 'p', expect: [{ grader: 'graders/slow.js' }, { text_contains: 'done' }] },
    suite: { graders: new Map([['graders/slow.js', 'export function grade() { for (;;) {} }']]), judges: new Map(), loaded: { name: 's' } },
  } as unknown as PlannedCase;
  const recorder = new RunRecorder();
  recorder.add({
    type: 'run.end',
    status: 'completed',
    turns: 1,
    final_text: 'done',
    usage: { input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    cost_usd: null,
    at: '2026-12-02T00:00:00.000Z',
  });
  const workspace = { path: '/nowhere/ws', readWorkspaceFile: () => ({ kind: 'absent' }), changedFiles: () => ({ files: [] }) } as unknown as CaseWorkspace;
  const controller = new AbortController();
  // A grader process that never answers: the user presses Ctrl-C once the grade was asked for.
  const graders = {
    grade: () => {
      controller.abort();
      return new Promise(() => undefined);
    },
  } as unknown as GraderHost;
  const patterns = new PatternHost();
  t.teardown(() => patterns.close());
  const results = await checkCase(planned, 1, recorder.record(), workspace, { graders, patterns }, controller.signal);
  t.deepEqual(
    results.map((result) => [result.kind, result.passed]),
    [
      ['grader', false],
      ['text_contains', true],
      ['status', true],
    ],
  );
  t.regex(results[0]?.reason ?? '', /^graders\/slow\.js: ZB_EVAL_GRADER_FAILED: the eval was interrupted before this grader answered/);
});
