// One case run's total time for matching suite patterns (issue 22 §4): each match
// is bounded by the pattern host, and so is their sum. A run's text_matches, call
// matchers' command regexes and path globs share one budget, derived from the
// case's timeout_s (else a default), counted in the pattern thread's time on this
// run's matches; waiting in line behind other cases does not count. Once the
// budget is spent, every later match of the run fails at once with
// ZB_EVAL_PATTERN_LIMIT naming the case, and so does the match that went past it:
// a verdict never passes on matching cut short, and no run holds the thread that
// every case shares for longer than its budget and one match.
import type { PatternOutcome, PatternRequest, PatternTester, TimedPatternTester } from './pattern-host.js';
import { PATTERN_TIME_LIMIT_MS, shown } from './pattern-host.js';

/** A case without timeout_s may spend this long matching its patterns, per run. */
export const DEFAULT_CASE_PATTERN_BUDGET_MS = 60_000;

/** The pattern budget of one run of a case: its timeout_s, else the default. */
export function casePatternBudgetMs(timeoutSeconds: number | undefined): number {
  return timeoutSeconds === undefined ? DEFAULT_CASE_PATTERN_BUDGET_MS : timeoutSeconds * 1000;
}

export class CasePatterns implements PatternTester {
  private spentMs = 0;
  private matches = 0;
  private spent: string | undefined;

  /** `caseKey`: suite/id, named in the reason. */
  constructor(
    private readonly host: TimedPatternTester,
    private readonly budgetMs: number,
    private readonly caseKey: string,
  ) {}

  async test(request: PatternRequest): Promise<PatternOutcome> {
    if (this.spent !== undefined) return this.refuse(request);
    const { outcome, spentMs } = await this.host.testTimed(request);
    this.spentMs += spentMs;
    this.matches++;
    if (this.spentMs <= this.budgetMs) return outcome;
    this.spent = `case ${this.caseKey} spent ${Math.round(this.spentMs)} ms matching suite patterns over ${this.matches} matches, past its budget of ${this.budgetMs} ms (timeout_s, or ${DEFAULT_CASE_PATTERN_BUDGET_MS} ms without one)`;
    return this.refuse(request);
  }

  private refuse(request: PatternRequest): PatternOutcome {
    return {
      ok: false,
      reason: `ZB_EVAL_PATTERN_LIMIT: ${this.spent ?? ''}, so /${shown(request.source)}/ was not matched against ${request.what}. Fix: make the patterns linear (no nested quantifiers), match fewer or shorter texts, or raise timeout_s (each match may take up to ${PATTERN_TIME_LIMIT_MS} ms)`,
    };
  }
}
