// Every expectation of a case, checked against one run, in the order the suite
// lists them: the built-in ones, JS graders (each in a fresh isolate), and the
// judge. The changed files are collected once, only when a file expectation, a
// grader or the judge needs them, through the workspace's no-link walk. When that
// list is incomplete (truncated, or entries unreadable), graders and the judge are
// told, and their pass counts as a fail: "unchanged" is never concluded from it.
// Suite patterns are matched by the pattern host, within its bounds; once the
// eval's signal fires, no grader starts and none is awaited (the eval stops within
// a second, issue 22 §4).
import type { GraderInput } from './grader-input.js';
import type { CaseWorkspace, WorkspaceChanges } from './case-workspace.js';
import type { ExpectationResult } from './eval-report.js';
import type { PlannedCase } from './eval-plan.js';
import { checkBuiltIn, expectationKind, isBuiltIn } from './expectations.js';
import { toZotboxError } from '../../errors.js';
import type { GraderHost } from './graders/grader-host.js';
import { judgeRun } from './judge.js';
import type { RunRecord } from './run-record.js';
import type { PatternTester } from './pattern-host.js';
import type { GraderOutcome } from './graders/run-grader.js';
import { ZotboxError } from '../../errors.js';
import { DEFAULT_CHANGE_LIMITS, describeIncompleteChanges } from './workspace-changes.js';
import { linkSignal } from '../run/linked-signal.js';

/** Events a grader sees, newest kept. */
const MAX_GRADER_EVENTS = 2000;

export interface CaseCheckers {
  readonly graders: GraderHost;
  readonly patterns: PatternTester;
}

export async function checkCase(planned: PlannedCase, repeat: number, record: RunRecord, workspace: CaseWorkspace, checkers: CaseCheckers, signal: AbortSignal): Promise<ExpectationResult[]> {
  const { graders, patterns } = checkers;
  let changed: WorkspaceChanges | undefined;
  const changes = () => (changed ??= workspace.changedFiles());
  const files = { workspace: workspace.path, readFile: (relative: string, maxBytes: number) => workspace.readWorkspaceFile(relative, maxBytes), changes };
  const results: ExpectationResult[] = [];
  for (const expectation of planned.evalCase.expect) {
    if (isBuiltIn(expectation)) {
      results.push(await checkedAlone(expectationKind(expectation), () => checkBuiltIn(expectation, record, files, patterns)));
    } else if ('grader' in expectation) {
      const source = planned.suite.graders.get(expectation.grader) ?? '';
      const input = graderInput(planned, repeat, record, changes());
      const outcome = await untilInterrupted(signal, () => graders.grade({ source, file: expectation.grader }, input));
      results.push(
        failClosedOnEvents(
          failClosed(
            outcome.ok
              ? {
                  kind: 'grader',
                  passed: outcome.verdict.pass,
                  reason: `${expectation.grader}: ${outcome.verdict.reason}`,
                  ...(outcome.verdict.score === undefined ? {} : { score: outcome.verdict.score }),
                }
              : { kind: 'grader', passed: false, reason: `${expectation.grader}: ${outcome.error.code}: ${outcome.error.message}` },
            changes(),
          ),
          input,
        ),
      );
    } else {
      const choice = planned.suite.judges.get(expectation);
      if (choice === undefined) results.push({ kind: 'judge', passed: false, reason: 'ZB_EVAL_JUDGE_FAILED: no judge model was prepared for this expectation' });
      else {
        const { files: changedFiles } = changes();
        const filesTruncated = describeIncompleteChanges(changes()) !== undefined;
        const input = {
          rubric: expectation.judge.rubric,
          prompt: planned.evalCase.prompt,
          finalText: record.finalText,
          files: changedFiles,
          filesTruncated,
          before: (relative: string) => workspace.fixtureText(relative, DEFAULT_CHANGE_LIMITS.maxFileBytes),
        };
        results.push(failClosed(await judgeRun(choice, input, signal), changes()));
      }
    }
  }
  // A run that failed, was cancelled or ran out of turns passes nothing by default: without a status expectation, it must complete.
  // Checked after the suite's own, so the results keep the suite's order.
  if (!planned.evalCase.expect.some((expectation) => 'status' in expectation)) results.push(await checkBuiltIn({ status: 'completed' }, record, files, patterns));
  return results;
}

/**
 * One verdict, kept from taking the others down: whatever the agent left for it to
 * read (a file nested a million levels deep, say), a verdict that throws fails
 * alone, with why (issue 22 §9), and the run's other verdicts stand.
 */
async function checkedAlone(kind: string, check: () => Promise<ExpectationResult>): Promise<ExpectationResult> {
  try {
    return await check();
  } catch (thrown) {
    const error = toZotboxError(thrown);
    return { kind, passed: false, reason: `this expectation could not be checked: ${error.code}: ${error.message}` };
  }
}

/** A grade, or, once the eval's signal fired, a failure at once: the grader process is killed when the eval ends. */
function untilInterrupted(signal: AbortSignal, grade: () => Promise<GraderOutcome>): Promise<GraderOutcome> {
  const interrupted = (): GraderOutcome => ({
    ok: false,
    error: new ZotboxError('ZB_EVAL_GRADER_FAILED', 'the eval was interrupted before this grader answered', { details: { fault: 'interrupted' } }),
    timing: { startMs: 0, gradeMs: 0 },
  });
  if (signal.aborted) return Promise.resolve(interrupted());
  return new Promise((resolve) => {
    // Linked: the graders of every case in flight share the eval's signal (one listener for all).
    const link = linkSignal(signal);
    link.signal.addEventListener('abort', () => resolve(interrupted()), { once: true });
    grade().then(
      (outcome) => {
        link.unlink();
        resolve(outcome);
      },
      (thrown: unknown) => {
        link.unlink();
        resolve({ ok: false, error: new ZotboxError('ZB_EVAL_GRADER_FAILED', `the grader could not run: ${String(thrown)}`), timing: { startMs: 0, gradeMs: 0 } });
      },
    );
  });
}

/** A grader's or the judge's verdict on an incomplete change list: a pass is not one (issue 22 §2); a fail stands. */
function failClosed(result: ExpectationResult, changes: WorkspaceChanges): ExpectationResult {
  const incomplete = describeIncompleteChanges(changes);
  if (incomplete === undefined) return result;
  if (!result.passed) return { ...result, reason: `${result.reason} (note: ${incomplete})` };
  return { ...result, passed: false, reason: `${result.reason}; but it counts as a fail: ${incomplete}` };
}

/**
 * A grader's pass on a window of the run's events is not one (issue 22 §1): the agent chooses how many events come
 * after the one that matters. Graders of long runs decide from the built-in call expectations, which see every event.
 */
function failClosedOnEvents(result: ExpectationResult, input: GraderInput): ExpectationResult {
  if (input.events_dropped === 0) return result;
  const why = `ZB_EVAL_VERDICT_INCOMPLETE: the grader was given the run's newest ${input.events.length} events, and ${input.events_dropped} earlier ones were not`;
  if (!result.passed) return { ...result, reason: `${result.reason} (note: ${why})` };
  return { ...result, passed: false, reason: `${result.reason}; but it counts as a fail: ${why}` };
}

function graderInput(planned: PlannedCase, repeat: number, record: RunRecord, changes: WorkspaceChanges): GraderInput {
  return {
    case: { suite: planned.suite.loaded.name, id: planned.evalCase.id, prompt: planned.evalCase.prompt, description: planned.evalCase.description ?? null, repeat },
    status: record.status,
    final_text: record.finalText,
    turns: record.turns,
    usage: record.usage,
    error: record.error,
    events: record.events.slice(-MAX_GRADER_EVENTS),
    events_dropped: record.eventsDropped + Math.max(0, record.events.length - MAX_GRADER_EVENTS),
    files: changes.files,
    files_truncated: changes.truncated,
    files_unreadable: changes.unreadable,
  };
}
