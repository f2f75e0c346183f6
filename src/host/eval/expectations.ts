// Checking a case's built-in expectations against one run: its status, final
// text, workspace files, tool calls, policy decisions, turns and tokens. Every
// expectation gives a verdict with a reason, passed or not; graders and the judge
// are checked elsewhere (check-case.ts) and give verdicts of the same shape.
import type { ExpectationResult } from './eval-report.js';
import { callMatches, describeCall, describeMatcher } from './call-match.js';
import { observedCalls, type ObservedCall, type RunRecord } from './run-record.js';
import type { Expectation } from './suite-schema.js';
import { checkFileExpectation, type WorkspaceFiles } from './file-expectations.js';
import { quote } from './reason-text.js';

type BuiltIn = Exclude<Expectation, { grader: unknown } | { judge: unknown }>;

export function isBuiltIn(expectation: Expectation): expectation is BuiltIn {
  return !('grader' in expectation) && !('judge' in expectation);
}

/** The expectation's kind: its one key. */
export function expectationKind(expectation: Expectation): string {
  return Object.keys(expectation)[0] ?? 'unknown';
}

export function checkBuiltIn(expectation: BuiltIn, record: RunRecord, files: WorkspaceFiles): ExpectationResult {
  const kind = expectationKind(expectation);
  const verdict = (passed: boolean, reason: string): ExpectationResult => ({ kind, passed, reason });
  if ('status' in expectation)
    return verdict(record.status === expectation.status, `status ${record.status}, expected ${expectation.status}${record.error === null ? '' : ` (${record.error.code}: ${record.error.message})`}`);
  if ('text_contains' in expectation) {
    const found = record.finalText.includes(expectation.text_contains);
    return verdict(found, `final text ${found ? 'contains' : 'does not contain'} ${quote(expectation.text_contains)}${found ? '' : `; it was ${quote(record.finalText)}`}`);
  }
  if ('text_matches' in expectation) {
    const found = new RegExp(expectation.text_matches, 'u').test(record.finalText);
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
  if ('tool_called' in expectation || 'tool_not_called' in expectation || 'denied' in expectation || 'no_denials' in expectation) return checkCalls(expectation, record, files.workspace);
  return checkFileExpectation(expectation, files);
}

type CallExpectation = Extract<BuiltIn, { tool_called: unknown } | { tool_not_called: unknown } | { denied: unknown } | { no_denials: unknown }>;

function checkCalls(expectation: CallExpectation, record: RunRecord, workspace: string): ExpectationResult {
  const calls = observedCalls(record.events);
  if ('no_denials' in expectation) {
    const denied = calls.filter((call) => call.allowed === false);
    return { kind: 'no_denials', passed: denied.length === 0, reason: denied.length === 0 ? `no call was denied (${calls.length} calls)` : `denied: ${denied.map(describeDenial).join('; ')}` };
  }
  if ('tool_called' in expectation) {
    const matching = calls.filter((call) => callMatches(call, expectation.tool_called, workspace));
    return {
      kind: 'tool_called',
      passed: matching.length > 0,
      reason: matching.length > 0 ? `called: ${describeCall(matching[0] as ObservedCall)}` : `no call matched ${describeMatcher(expectation.tool_called)}; calls: ${listCalls(calls)}`,
    };
  }
  if ('tool_not_called' in expectation) {
    const matching = calls.filter((call) => callMatches(call, expectation.tool_not_called, workspace));
    return {
      kind: 'tool_not_called',
      passed: matching.length === 0,
      reason: matching.length === 0 ? `no call matched ${describeMatcher(expectation.tool_not_called)}` : `called anyway: ${describeCall(matching[0] as ObservedCall)}`,
    };
  }
  const matching = calls.filter((call) => callMatches(call, expectation.denied, workspace));
  const denied = matching.filter((call) => call.allowed === false);
  if (denied.length > 0 && denied.length === matching.length) return { kind: 'denied', passed: true, reason: `denied: ${denied.map(describeDenial).join('; ')}` };
  if (matching.length === 0) return { kind: 'denied', passed: false, reason: `no call matched ${describeMatcher(expectation.denied)}, so none was denied; calls: ${listCalls(calls)}` };
  const allowed = matching.find((call) => call.allowed !== false) as ObservedCall;
  return { kind: 'denied', passed: false, reason: `${describeCall(allowed)} matched ${describeMatcher(expectation.denied)} but was ${allowed.allowed === true ? 'allowed' : 'never decided'}` };
}

function describeDenial(call: ObservedCall): string {
  return `${describeCall(call)} (${call.code ?? 'no code'}${call.reason === undefined ? '' : `: ${call.reason}`})`;
}

function listCalls(calls: readonly ObservedCall[]): string {
  if (calls.length === 0) return 'none';
  const shown = calls.slice(0, 10).map(describeCall).join(', ');
  return calls.length > 10 ? `${shown}, and ${calls.length - 10} more` : shown;
}

export function totalTokens(record: Pick<RunRecord, 'usage'>): number {
  const usage = record.usage;
  return usage.input_tokens + usage.output_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens;
}
