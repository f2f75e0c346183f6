// The tool calls of one run as the call expectations need them, tallied from
// every event as the run streams (issue 22 §1). No window: however many calls
// come after it, a denied call stays denied in the verdict. What is kept grows
// with the number of matchers a case names, never with the number of calls: each
// call waits for its gate decision in `pending`, is counted against every
// matcher, then let go. The one bound is on calls still waiting for a decision;
// past it the ledger is incomplete, and every call verdict fails as such.
// A matcher's command regex and path glob are matched by the pattern host, off
// the main thread and within its bounds (issue 22 §4), one decided call after the
// other, so "first" stays first; a matcher whose pattern ran past a bound is
// matched no more, and its verdict fails with why.
import type { RunEvent } from '../run/run-events.js';
import { callPatternRequests } from './call-match.js';
import type { PatternTester } from './pattern-host.js';
import type { ObservedCall } from './run-record.js';
import type { CallMatcher } from './suite-schema.js';

/** Calls waiting for their gate decision at once; the gate decides each call as it reports it, so a run never nears this. */
export const MAX_PENDING_CALLS = 10_000;
/** Calls kept whole for a reason's examples (the first calls, the first denials, per matcher). */
const EXAMPLES = 10;

/** One matcher's count over every call of the run. */
export interface MatcherTally {
  readonly matches: number;
  readonly denied: number;
  /** The first call that matched, and the first that matched and was not denied (allowed, or never decided). */
  readonly firstMatch: ObservedCall | undefined;
  readonly firstNotDenied: ObservedCall | undefined;
  /** Up to ten of the matching calls that were denied, first first. */
  readonly deniedExamples: readonly ObservedCall[];
  /**
   * Calls that may match, though their record cannot tell (call-match.ts FieldCheck): the first, with why, and the
   * first of them the gate did not deny. tool_not_called cannot pass with one; denied cannot with one not denied.
   */
  readonly uncertain: number;
  readonly firstUncertain: UncertainCall | undefined;
  readonly firstUncertainNotDenied: UncertainCall | undefined;
  /** Why this matcher's pattern could not be matched against some call (ZB_EVAL_PATTERN_LIMIT); its verdict then fails. */
  readonly patternFailure: string | undefined;
}

/** A call that may match a matcher, and why its record cannot tell. */
export interface UncertainCall {
  readonly call: ObservedCall;
  readonly why: string;
}

export interface CallFacts {
  readonly total: number;
  readonly denied: number;
  readonly firstCalls: readonly ObservedCall[];
  readonly firstDenials: readonly ObservedCall[];
  /** Why a fact a call verdict needs was not kept; undefined when every call was tallied. */
  readonly incomplete: string | undefined;
  tally(matcher: CallMatcher): MatcherTally | undefined;
}

interface MutableTally {
  matches: number;
  denied: number;
  firstMatch: ObservedCall | undefined;
  firstNotDenied: ObservedCall | undefined;
  deniedExamples: ObservedCall[];
  uncertain: number;
  firstUncertain: UncertainCall | undefined;
  firstUncertainNotDenied: UncertainCall | undefined;
  patternFailure: string | undefined;
}

/** Only what a matcher or a reason reads of a call's input: its command and its path. */
function matchedInput(input: Readonly<Record<string, unknown>>): Record<string, string> {
  const kept: Record<string, string> = {};
  if (typeof input['command'] === 'string') kept['command'] = input['command'];
  if (typeof input['path'] === 'string') kept['path'] = input['path'];
  return kept;
}

export class CallLedger implements CallFacts {
  private readonly pending = new Map<number, ObservedCall>();
  /** Decided calls waiting for their patterns to be matched, in order. */
  private readonly decided: ObservedCall[] = [];
  private draining: Promise<void> | undefined;
  private readonly tallies = new Map<CallMatcher, MutableTally>();
  total = 0;
  denied = 0;
  readonly firstCalls: ObservedCall[] = [];
  readonly firstDenials: ObservedCall[] = [];
  incomplete: string | undefined;

  /** `matchers`: the case's call expectations, by identity; `workspace`: where relative paths are relative to. */
  constructor(
    matchers: readonly CallMatcher[],
    private readonly workspace: string,
    private readonly patterns: PatternTester,
  ) {
    for (const matcher of matchers) {
      this.tallies.set(matcher, {
        matches: 0,
        denied: 0,
        firstMatch: undefined,
        firstNotDenied: undefined,
        deniedExamples: [],
        uncertain: 0,
        firstUncertain: undefined,
        firstUncertainNotDenied: undefined,
        patternFailure: undefined,
      });
    }
  }

  add(event: RunEvent): void {
    if (event.type === 'tool.call') {
      if (this.pending.size + this.decided.length >= MAX_PENDING_CALLS) {
        this.incomplete ??= `more than ${MAX_PENDING_CALLS} tool calls were waiting for a gate decision or to be matched at once`;
        return;
      }
      this.pending.set(event.id, { id: event.id, tool: event.tool, input: matchedInput(event.input), allowed: undefined, canonicalPath: undefined, code: undefined, reason: undefined });
    } else if (event.type === 'gate.decision') {
      const call = this.pending.get(event.id);
      if (call === undefined) return; // a decision for a call not reported (never: the gate reports each call first)
      this.pending.delete(event.id);
      this.queue({
        ...call,
        allowed: event.allowed,
        canonicalPath: event.canonical_path,
        code: event.code,
        reason: event.reason,
        ...(event.argv === undefined ? {} : { argv: event.argv }),
        ...(event.paths === undefined ? {} : { paths: event.paths }),
        ...(event.paths_complete === undefined ? {} : { pathsComplete: event.paths_complete }),
      });
    }
  }

  /**
   * At the end of the run: calls that never got a decision count as undecided (not
   * denied); resolves once every call is counted. Facts read before are incomplete.
   */
  async settle(): Promise<void> {
    for (const call of this.pending.values()) this.queue(call);
    this.pending.clear();
    await this.draining;
  }

  /** True while calls still wait to be counted: a verdict read now would miss them. */
  get unsettled(): boolean {
    return this.pending.size > 0 || this.draining !== undefined;
  }

  tally(matcher: CallMatcher): MatcherTally | undefined {
    return this.tallies.get(matcher);
  }

  private queue(call: ObservedCall): void {
    this.decided.push(call);
    this.draining ??= this.drain();
  }

  private async drain(): Promise<void> {
    for (let call = this.decided.shift(); call !== undefined; call = this.decided.shift()) await this.count(call);
    this.draining = undefined;
  }

  private async count(call: ObservedCall): Promise<void> {
    this.total++;
    if (this.firstCalls.length < EXAMPLES) this.firstCalls.push(call);
    const denied = call.allowed === false;
    if (denied) {
      this.denied++;
      if (this.firstDenials.length < EXAMPLES) this.firstDenials.push(call);
    }
    for (const [matcher, tally] of this.tallies) {
      if (tally.patternFailure !== undefined) continue;
      const matched = await this.matches(call, matcher, tally);
      if (matched === false) continue;
      if (matched !== true) {
        tally.uncertain++;
        tally.firstUncertain ??= { call, why: matched.maybe };
        if (!denied) tally.firstUncertainNotDenied ??= { call, why: matched.maybe };
        continue;
      }
      tally.matches++;
      tally.firstMatch ??= call;
      if (denied) {
        tally.denied++;
        if (tally.deniedExamples.length < EXAMPLES) tally.deniedExamples.push(call);
      } else tally.firstNotDenied ??= call;
    }
  }

  /** True: the call matches; false: it does not; `maybe`: no field says no, and one cannot tell (why). */
  private async matches(call: ObservedCall, matcher: CallMatcher, tally: MutableTally): Promise<boolean | { maybe: string }> {
    const checks = callPatternRequests(call, matcher, this.workspace);
    if (checks === undefined) return false;
    let maybe: string | undefined;
    for (const check of checks) {
      let matched = false;
      if (check.request !== undefined) {
        const outcome = await this.patterns.test(check.request);
        if (!outcome.ok) {
          tally.patternFailure = outcome.reason;
          return false;
        }
        matched = outcome.matched;
      }
      if (matched) continue;
      if (check.uncertain === undefined) return false;
      maybe ??= check.uncertain;
    }
    return maybe === undefined ? true : { maybe };
  }
}

/** The facts of a run whose calls were never tallied (it could not start): no call, nothing incomplete. */
export const NO_CALLS: CallFacts = { total: 0, denied: 0, firstCalls: [], firstDenials: [], incomplete: undefined, tally: () => undefined };
