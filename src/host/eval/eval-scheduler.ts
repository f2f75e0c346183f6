// The order cases start in, and when they stop starting. Cases start in index
// order, each repeat as soon as a run slot is free (maxRuns in flight); before a
// case starts, the stop rules are checked: the eval's signal, --fail-fast after a
// failed case, the cost and token caps on what finished runs spent, and K runs in a
// row that ended on an infrastructure error on one endpoint (issue 27 §3: a model
// server that is down fails every case the same way). Runs in flight are never
// abandoned: the scheduler returns once every started run ended.
import { formatCost } from '../models/format-cost.js';
import { ConcurrencyLimiter } from '../providers/concurrency-limiter.js';
import type { CaseRun } from './eval-report.js';
import type { PlannedCase } from './eval-plan.js';
import { totalTokens } from './expectations.js';
import { passRate } from './case-result.js';
import type { EndedRun } from './case-run.js';

/** `interrupted`: the case ended after the eval's signal, which may have cut it short. */
export type CaseOutcome = { readonly kind: 'ran'; readonly runs: readonly CaseRun[]; readonly interrupted: boolean } | { readonly kind: 'not_run'; readonly reason: string };

export interface SchedulerOptions {
  readonly repeat: number;
  readonly maxRuns: number;
  readonly failFast: boolean;
  readonly maxCostUsd: number | undefined;
  readonly maxTokens: number | undefined;
  /** Start no case once this many runs in a row ended on an infrastructure error on one endpoint; 0: never stop for them. */
  readonly maxInfraErrors: number;
  readonly signal: AbortSignal;
  /** Told once, when infrastructure errors stop the eval from starting cases, with why. */
  readonly onInfrastructureStop?: (reason: string) => void;
}

/** The default of --max-infra-errors. */
export const DEFAULT_MAX_INFRA_ERRORS = 3;

export class EvalScheduler {
  private spentUsd = 0;
  private spentTokens = 0;
  private firstFailure: string | undefined;
  /** Per endpoint: runs in a row that ended on an infrastructure error there, and the last one's cause. */
  private readonly infraStreaks = new Map<string, { count: number; last: string }>();
  private infraStop: string | undefined;

  constructor(private readonly options: SchedulerOptions) {}

  async run(
    cases: readonly PlannedCase[],
    runOne: (planned: PlannedCase, repeat: number) => Promise<EndedRun>,
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
  private async startCase(planned: PlannedCase, slots: ConcurrencyLimiter, runOne: (planned: PlannedCase, repeat: number) => Promise<EndedRun>): Promise<Promise<CaseRun>[]> {
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
          .then(({ run, endpoints }) => {
            this.count(run);
            this.countInfrastructure(run, endpoints);
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
    if (maxCostUsd !== undefined && this.spentUsd >= maxCostUsd) return `the --max-cost cap of ${formatCost(maxCostUsd)} was reached (${formatCost(this.spentUsd)} spent)`;
    if (maxTokens !== undefined && this.spentTokens >= maxTokens) return `the --max-tokens cap of ${maxTokens} tokens was reached (${this.spentTokens} used)`;
    return this.infraStop;
  }

  /**
   * An infrastructure error adds one to its endpoint's streak; a run that reached an endpoint
   * without one ends that endpoint's streak. Runs count in the order they end.
   */
  private countInfrastructure(run: CaseRun, endpoints: readonly string[]): void {
    const fault = run.infrastructure;
    for (const endpoint of endpoints) if (endpoint !== fault?.endpoint) this.infraStreaks.delete(endpoint);
    if (fault === undefined) return;
    const streak = this.infraStreaks.get(fault.endpoint) ?? { count: 0, last: '' };
    streak.count++;
    streak.last = `${fault.code}: ${fault.message.length > 300 ? `${fault.message.slice(0, 300)}…` : fault.message}`;
    this.infraStreaks.set(fault.endpoint, streak);
    const limit = this.options.maxInfraErrors;
    if (limit > 0 && streak.count >= limit && this.infraStop === undefined) {
      this.infraStop = `${streak.count} runs in a row ended on an infrastructure error at ${fault.endpoint} (the last: ${streak.last}); the eval started no further case (--max-infra-errors ${limit})`;
      this.options.onInfrastructureStop?.(this.infraStop);
    }
  }

  private count(run: CaseRun): CaseRun {
    this.spentUsd += run.cost_usd ?? 0;
    this.spentTokens += totalTokens(run);
    return run;
  }
}
