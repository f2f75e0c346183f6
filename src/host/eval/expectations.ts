// Checking a case's built-in expectations against one run: its status, final
// text, workspace files, tool calls, policy decisions, turns and tokens. Every
// expectation gives a verdict with a reason, passed or not; graders and the judge
// are checked elsewhere (check-case.ts) and give verdicts of the same shape.
import type { ExpectationResult } from './eval-report.js';
import { describeCall, describeMatcher } from './call-match.js';
import type { CallFacts, UncertainCall } from './call-ledger.js';
import type { ObservedCall, RunRecord } from './run-record.js';
import type { CallMatcher, Expectation } from './suite-schema.js';
import { checkFileExpectation, type WorkspaceFiles } from './file-expectations.js';
import { quote } from './reason-text.js';
import type { PatternTester } from './pattern-host.js';

type BuiltIn = Exclude<Expectation, { grader: unknown } | { judge: unknown }>;

export function isBuiltIn(expectation: Expectation): expectation is BuiltIn {
  return !('grader' in expectation) && !('judge' in expectation);
}

/** The expectation's kind: its one key. */
export function expectationKind(expectation: Expectation): string {
  return Object.keys(expectation)[0] ?? 'unknown';
}

/** `patterns` matches text_matches off the main thread, within its bounds (pattern-host.ts). */
export async function checkBuiltIn(expectation: BuiltIn, record: RunRecord, files: WorkspaceFiles, patterns: PatternTester): Promise<ExpectationResult> {
  const kind = expectationKind(expectation);
  const verdict = (passed: boolean, reason: string): ExpectationResult => ({ kind, passed, reason });
  if ('status' in expectation)
    return verdict(record.status === expectation.status, `status ${record.status}, expected ${expectation.status}${record.error === null ? '' : ` (${record.error.code}: ${record.error.message})`}`);
  if ('text_contains' in expectation) {
    const found = record.finalText.includes(expectation.text_contains);
    return verdict(found, `final text ${found ? 'contains' : 'does not contain'} ${quote(expectation.text_contains)}${found ? '' : `; it was ${quote(record.finalText)}`}`);
  }
  if ('text_matches' in expectation) {
    const outcome = await patterns.test({ kind: 'regex', source: expectation.text_matches, subjects: [record.finalText], what: 'the final text' });
    if (!outcome.ok) return verdict(false, outcome.reason);
    const found = outcome.matched;
    return verdict(found, `final text ${found ? 'matches' : 'does not match'} /${expectation.text_matches}/${found ? '' : `; it was ${quote(record.finalText)}`}`);
  }
  if ('text_equals' in expectation) {
    const equal = record.finalText === expectation.text_equals;
    return verdict(equal, equal ? 'final text equals the expected text' : `final text ${quote(record.finalText)} is not ${quote(expectation.text_equals)}`);
  }
  if ('max_turns' in expectation) return verdict(record.turns <= expectation.max_turns, `${record.turns} model turns, at most ${expectation.max_turns} expected`);
  if ('max_tokens' in expectation) {
    const used = totalTokens(record);
    return verdict(used <= expectation.max_tokens, `${used} tokens, at most ${expectation.max_tokens} expected`);
  }
  if ('tool_called' in expectation || 'tool_not_called' in expectation || 'denied' in expectation || 'no_denials' in expectation) return checkCalls(expectation, record.calls);
  return checkFileExpectation(expectation, files);
}

type CallExpectation = Extract<BuiltIn, { tool_called: unknown } | { tool_not_called: unknown } | { denied: unknown } | { no_denials: unknown }>;

/** The call matchers of a case's expectations, by identity: the run's calls are tallied against each as they come. */
export function callMatchers(expectations: readonly Expectation[]): CallMatcher[] {
  return expectations.flatMap((expectation) =>
    'tool_called' in expectation ? [expectation.tool_called] : 'tool_not_called' in expectation ? [expectation.tool_not_called] : 'denied' in expectation ? [expectation.denied] : [],
  );
}

/** A verdict whose facts were not all kept: it fails, never passes (issue 22 §1). */
function incomplete(kind: string, why: string): ExpectationResult {
  return { kind, passed: false, reason: `ZB_EVAL_VERDICT_INCOMPLETE: ${why}, so this verdict cannot be trusted and fails` };
}

function checkCalls(expectation: CallExpectation, calls: CallFacts): ExpectationResult {
  const kind = expectationKind(expectation);
  if (calls.incomplete !== undefined) return incomplete(kind, calls.incomplete);
  if ('no_denials' in expectation) {
    return {
      kind,
      passed: calls.denied === 0,
      reason: calls.denied === 0 ? `no call was denied (${calls.total} calls)` : `${calls.denied} denied: ${listDenials(calls.firstDenials, calls.denied)}`,
    };
  }
  const matcher = 'tool_called' in expectation ? expectation.tool_called : 'tool_not_called' in expectation ? expectation.tool_not_called : expectation.denied;
  const tally = calls.tally(matcher);
  if (tally === undefined) return incomplete(kind, "the run's calls were not tallied against this expectation");
  if (tally.patternFailure !== undefined) return { kind, passed: false, reason: tally.patternFailure };
  if ('tool_called' in expectation) {
    return {
      kind,
      passed: tally.matches > 0,
      reason: tally.firstMatch !== undefined ? `called: ${describeCall(tally.firstMatch)}` : `no call matched ${describeMatcher(matcher)}; calls: ${listCalls(calls)}`,
    };
  }
  if ('tool_not_called' in expectation) {
    if (tally.firstMatch !== undefined) return { kind, passed: false, reason: `called anyway: ${describeCall(tally.firstMatch)}` };
    if (tally.firstUncertain !== undefined) return cannotTell(kind, matcher, tally.firstUncertain, tally.uncertain);
    return { kind, passed: true, reason: `no call matched ${describeMatcher(matcher)}` };
  }
  // A call that may match and was not denied may be the allowed call that makes `denied` false.
  if (tally.firstUncertainNotDenied !== undefined) return cannotTell(kind, matcher, tally.firstUncertainNotDenied, tally.uncertain);
  if (tally.matches > 0 && tally.firstNotDenied === undefined) return { kind, passed: true, reason: `denied: ${listDenials(tally.deniedExamples, tally.denied)}` };
  if (tally.firstNotDenied === undefined) return { kind, passed: false, reason: `no call matched ${describeMatcher(matcher)}, so none was denied; calls: ${listCalls(calls)}` };
  const allowed = tally.firstNotDenied;
  return { kind, passed: false, reason: `${describeCall(allowed)} matched ${describeMatcher(matcher)} but was ${allowed.allowed === true ? 'allowed' : 'never decided'}` };
}

/** How to make a verdict that cannot tell into one that can. */
function fixFor(call: UncertainCall['call'], matcher: CallMatcher): string {
  if (call.tool !== 'bash') return ' (docs/eval.md, Expectations)';
  if (matcher.command !== undefined) {
    return '. Fix: a command matcher can settle only bash calls whose every command the gate read; check what the command would have left instead (a file expectation), or give the agent no program that runs code from files; docs/eval.md, Expectations, "Cannot tell"';
  }
  return '. Fix: to leave bash calls out, give the matcher a file tool (tool: read, write or edit); docs/eval.md, Expectations, says what each field matches';
}

/** A call that may match, though its record cannot tell: the verdict fails rather than pass on a guess (closed world, issue 22 §1). */
function cannotTell(kind: string, matcher: CallMatcher, first: UncertainCall, count: number): ExpectationResult {
  const more = count > 1 ? ` (and ${count - 1} more such calls)` : '';
  return {
    kind,
    passed: false,
    reason: `ZB_EVAL_VERDICT_INCOMPLETE: cannot tell whether ${describeCall(first.call)} matches ${describeMatcher(matcher)}${more}: ${first.why}; so this verdict fails${fixFor(first.call, matcher)}`,
  };
}

function describeDenial(call: ObservedCall): string {
  return `${describeCall(call)} (${call.code ?? 'no code'}${call.reason === undefined ? '' : `: ${call.reason}`})`;
}

function listDenials(shown: readonly ObservedCall[], total: number): string {
  const text = shown.map(describeDenial).join('; ');
  return total > shown.length ? `${text}; and ${total - shown.length} more` : text;
}

function listCalls(calls: CallFacts): string {
  if (calls.total === 0) return 'none';
  const shown = calls.firstCalls.map(describeCall).join(', ');
  return calls.total > calls.firstCalls.length ? `${shown}, and ${calls.total - calls.firstCalls.length} more` : shown;
}

export function totalTokens(record: Pick<RunRecord, 'usage'>): number {
  const usage = record.usage;
  return usage.input_tokens + usage.output_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens;
}
