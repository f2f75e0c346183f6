// Every expectation of a case, checked against one run, in the order the suite
// lists them: the built-in ones, JS graders (each in a fresh isolate), and the
// judge. The changed files are collected once, only when a file expectation, a
// grader or the judge needs them, through the workspace's no-link walk. When that
// list is incomplete (truncated, or entries unreadable), graders and the judge are
// told, and their pass counts as a fail: "unchanged" is never concluded from it.
import type { GraderInput } from './grader-input.js';
import type { CaseWorkspace, WorkspaceChanges } from './case-workspace.js';
import type { ExpectationResult } from './eval-report.js';
import type { PlannedCase } from './eval-plan.js';
import { checkBuiltIn, expectationKind, isBuiltIn } from './expectations.js';
import { toZotboxError } from '../../errors.js';
import type { GraderHost } from './graders/grader-host.js';
import { judgeRun } from './judge.js';
import type { RunRecord } from './run-record.js';
import { describeIncompleteChanges } from './workspace-changes.js';

/** Events a grader sees, newest kept. */
const MAX_GRADER_EVENTS = 2000;

export async function checkCase(planned: PlannedCase, repeat: number, record: RunRecord, workspace: CaseWorkspace, graders: GraderHost, signal: AbortSignal): Promise<ExpectationResult[]> {
  let changed: WorkspaceChanges | undefined;
  const changes = () => (changed ??= workspace.changedFiles());
  const files = { workspace: workspace.path, readFile: (relative: string, maxBytes: number) => workspace.readWorkspaceFile(relative, maxBytes), changes };
  const results: ExpectationResult[] = [];
  for (const expectation of planned.evalCase.expect) {
    if (isBuiltIn(expectation)) {
      results.push(checkedAlone(expectationKind(expectation), () => checkBuiltIn(expectation, record, files)));
    } else if ('grader' in expectation) {
      const source = planned.suite.graders.get(expectation.grader) ?? '';
      const outcome = await graders.grade({ source, file: expectation.grader }, graderInput(planned, repeat, record, changes()));
      results.push(
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
      );
    } else {
      const choice = planned.suite.judges.get(expectation);
      if (choice === undefined) results.push({ kind: 'judge', passed: false, reason: 'ZB_EVAL_JUDGE_FAILED: no judge model was prepared for this expectation' });
      else {
        const { files: changedFiles } = changes();
        const filesTruncated = describeIncompleteChanges(changes()) !== undefined;
        const input = { rubric: expectation.judge.rubric, prompt: planned.evalCase.prompt, finalText: record.finalText, files: changedFiles, filesTruncated };
        results.push(failClosed(await judgeRun(choice, input, signal), changes()));
      }
    }
  }
  // A run that failed, was cancelled or ran out of turns passes nothing by default: without a status expectation, it must complete.
  // Checked after the suite's own, so the results keep the suite's order.
  if (!planned.evalCase.expect.some((expectation) => 'status' in expectation)) results.push(checkBuiltIn({ status: 'completed' }, record, files));
  return results;
}

/**
 * One verdict, kept from taking the others down: whatever the agent left for it to
 * read (a file nested a million levels deep, say), a verdict that throws fails
 * alone, with why (issue 22 §9), and the run's other verdicts stand.
 */
function checkedAlone(kind: string, check: () => ExpectationResult): ExpectationResult {
  try {
    return check();
  } catch (thrown) {
    const error = toZotboxError(thrown);
    return { kind, passed: false, reason: `this expectation could not be checked: ${error.code}: ${error.message}` };
  }
}

/** A grader's or the judge's verdict on an incomplete change list: a pass is not one (issue 22 §2); a fail stands. */
function failClosed(result: ExpectationResult, changes: WorkspaceChanges): ExpectationResult {
  const incomplete = describeIncompleteChanges(changes);
  if (incomplete === undefined) return result;
  if (!result.passed) return { ...result, reason: `${result.reason} (note: ${incomplete})` };
  return { ...result, passed: false, reason: `${result.reason}; but it counts as a fail: ${incomplete}` };
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
