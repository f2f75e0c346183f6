// The tool calls of one run as the call expectations need them, tallied from
// every event as the run streams (issue 22 §1). No window: however many calls
// come after it, a denied call stays denied in the verdict. What is kept grows
// with the number of matchers a case names, never with the number of calls: each
// call waits for its gate decision in `pending`, is counted against every
// matcher, then let go. The one bound is on calls still waiting for a decision;
// past it the ledger is incomplete, and every call verdict fails as such.
import type { RunEvent } from '../run/run-events.js';
import { callMatches } from './call-match.js';
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
  ) {
    for (const matcher of matchers) this.tallies.set(matcher, { matches: 0, denied: 0, firstMatch: undefined, firstNotDenied: undefined, deniedExamples: [] });
  }

  add(event: RunEvent): void {
    if (event.type === 'tool.call') {
      if (this.pending.size >= MAX_PENDING_CALLS) {
        this.incomplete ??= `more than ${MAX_PENDING_CALLS} tool calls were waiting for a gate decision at once`;
        return;
      }
      this.pending.set(event.id, { id: event.id, tool: event.tool, input: matchedInput(event.input), allowed: undefined, canonicalPath: undefined, code: undefined, reason: undefined });
    } else if (event.type === 'gate.decision') {
      const call = this.pending.get(event.id);
      if (call === undefined) return; // a decision for a call not reported (never: the gate reports each call first)
      this.pending.delete(event.id);
      this.count({ ...call, allowed: event.allowed, canonicalPath: event.canonical_path, code: event.code, reason: event.reason });
    }
  }

  /** At the end of the run: calls that never got a decision count as undecided (not denied). */
  close(): void {
    for (const call of this.pending.values()) this.count(call);
    this.pending.clear();
  }

  tally(matcher: CallMatcher): MatcherTally | undefined {
    return this.tallies.get(matcher);
  }

  private count(call: ObservedCall): void {
    this.total++;
    if (this.firstCalls.length < EXAMPLES) this.firstCalls.push(call);
    const denied = call.allowed === false;
    if (denied) {
      this.denied++;
      if (this.firstDenials.length < EXAMPLES) this.firstDenials.push(call);
    }
    for (const [matcher, tally] of this.tallies) {
      if (!callMatches(call, matcher, this.workspace)) continue;
      tally.matches++;
      tally.firstMatch ??= call;
      if (denied) {
        tally.denied++;
        if (tally.deniedExamples.length < EXAMPLES) tally.deniedExamples.push(call);
      } else tally.firstNotDenied ??= call;
    }
  }
}

/** The facts of a run whose calls were never tallied (it could not start): no call, nothing incomplete. */
export const NO_CALLS: CallFacts = { total: 0, denied: 0, firstCalls: [], firstDenials: [], incomplete: undefined, tally: () => undefined };
