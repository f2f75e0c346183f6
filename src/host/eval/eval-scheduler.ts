// The order cases start in, and when they stop starting. Cases start in index
// order, each repeat as soon as a run slot is free (maxRuns in flight); before a
// case starts, the stop rules are checked: the eval's signal, --fail-fast after a
// failed case, and the cost and token caps on what finished runs spent. Runs in
// flight are never abandoned: the scheduler returns once every started run ended.
import { ConcurrencyLimiter } from '../providers/concurrency-limiter.js';
import type { CaseRun } from './eval-report.js';
import type { PlannedCase } from './eval-plan.js';
import { totalTokens } from './expectations.js';
import { passRate } from './case-result.js';

/** `interrupted`: the case ended after the eval's signal, which may have cut it short. */
export type CaseOutcome = { readonly kind: 'ran'; readonly runs: readonly CaseRun[]; readonly interrupted: boolean } | { readonly kind: 'not_run'; readonly reason: string };

export interface SchedulerOptions {
  readonly repeat: number;
  readonly maxRuns: number;
  readonly failFast: boolean;
  readonly maxCostUsd: number | undefined;
  readonly maxTokens: number | undefined;
  readonly signal: AbortSignal;
}

export class EvalScheduler {
  private spentUsd = 0;
  private spentTokens = 0;
  private firstFailure: string | undefined;

  constructor(private readonly options: SchedulerOptions) {}

  async run(
    cases: readonly PlannedCase[],
    runOne: (planned: PlannedCase, repeat: number) => Promise<CaseRun>,
    onCaseEnd: (planned: PlannedCase, outcome: CaseOutcome & { kind: 'ran' }) => void = () => undefined,
  ): Promise<CaseOutcome[]> {
    const outcomes: CaseOutcome[] = [];
    const slots = new ConcurrencyLimiter(this.options.maxRuns);
    const started: Promise<void>[] = [];
    for (const [index, planned] of cases.entries()) {
      const stop = this.stopReason();
      if (stop !== undefined) {
        outcomes[index] = { kind: 'not_run', reason: stop };
        continue;
      }
      const runs = await this.startCase(planned, slots, runOne);
      if (runs.length === 0) {
        outcomes[index] = { kind: 'not_run', reason: this.stopReason() ?? 'the eval was interrupted before it started' };
        continue;
      }
      started.push(
        Promise.all(runs).then((finished) => {
          const outcome = { kind: 'ran', runs: finished, interrupted: this.options.signal.aborted } as const;
          outcomes[index] = outcome;
          onCaseEnd(planned, outcome);
        }),
      );
    }
    await Promise.all(started);
    return outcomes;
  }

  /**
   * Starts the repeats of one case, each when a slot is free. The stop rules are
   * checked again once the first slot is held (a case that ended while this one
   * waited may have failed it); a case either starts or does not. Each run is
   * counted, and the case's failure noted, before its slot is released, so the
   * case that takes the slot next sees it.
   */
  private async startCase(planned: PlannedCase, slots: ConcurrencyLimiter, runOne: (planned: PlannedCase, repeat: number) => Promise<CaseRun>): Promise<Promise<CaseRun>[]> {
    const runs: Promise<CaseRun>[] = [];
    const finished: CaseRun[] = [];
    for (let repeat = 1; repeat <= this.options.repeat; repeat++) {
      let slot: { release(): void };
      try {
        slot = await slots.acquire(this.options.signal);
      } catch {
        // Interrupted while waiting for a slot: what started of this case is kept, and reported as interrupted.
        break;
      }
      if (repeat === 1 && this.stopReason() !== undefined) {
        slot.release();
        break;
      }
      runs.push(
        runOne(planned, repeat)
          .then((run) => {
            this.count(run);
            finished.push(run);
            if (finished.length === this.options.repeat && (passRate(finished) ?? 0) < planned.threshold) this.firstFailure ??= planned.key;
            return run;
          })
          .finally(() => slot.release()),
      );
    }
    return runs;
  }

  /** Why no further case starts, or undefined while they may. */
  private stopReason(): string | undefined {
    const { maxCostUsd, maxTokens, signal, failFast } = this.options;
    if (signal.aborted) return 'the eval was interrupted before it started';
    if (failFast && this.firstFailure !== undefined) return `--fail-fast: case ${this.firstFailure} failed`;
    if (maxCostUsd !== undefined && this.spentUsd >= maxCostUsd) return `the --max-cost cap of $${maxCostUsd} was reached ($${this.spentUsd.toFixed(4)} spent)`;
    if (maxTokens !== undefined && this.spentTokens >= maxTokens) return `the --max-tokens cap of ${maxTokens} tokens was reached (${this.spentTokens} used)`;
    return undefined;
  }

  private count(run: CaseRun): CaseRun {
    this.spentUsd += run.cost_usd ?? 0;
    this.spentTokens += totalTokens(run);
    return run;
  }
}
