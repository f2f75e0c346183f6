// What the eval keeps of one run to check expectations against: its end, the
// facts of every tool call (call-ledger.ts), and the newest of its events for
// graders and the transcript (the text deltas dropped: final_text has the
// text). Built from the run's events as they come (case-run.ts).
import type { RunEvent } from '../run/run-events.js';
import type { RunUsage } from '../models/model-prices.js';
import type { CallFacts } from './call-ledger.js';

export type RunRecordStatus = (RunEvent & { type: 'run.end' })['status'] | 'error';

export interface RunRecord {
  readonly status: RunRecordStatus;
  readonly finalText: string;
  readonly turns: number;
  readonly usage: RunUsage;
  /** null when the model has no prices (a replay). */
  readonly costUsd: number | null;
  readonly error: { readonly code: string; readonly message: string } | null;
  /** Every tool call of the run, tallied against the case's call expectations as it came. */
  readonly calls: CallFacts;
  /** The newest events but assistant.delta, in order: a window for graders and reports, never for verdicts on calls. */
  readonly events: readonly RunEvent[];
  /** Events older than `events` that the window let go. */
  readonly eventsDropped: number;
}

/** A tool call as the expectations see it: what the agent asked, and what the gate decided. */
export interface ObservedCall {
  readonly id: number;
  readonly tool: string;
  readonly input: Readonly<Record<string, unknown>>;
  /** undefined when no decision came (the run ended first). */
  readonly allowed: boolean | undefined;
  readonly canonicalPath: string | undefined;
  readonly code: string | undefined;
  readonly reason: string | undefined;
  /** For bash, from the gate's decision: each command's argv as the gate parsed it (absent when it did not parse). */
  readonly argv?: readonly (readonly string[])[];
  /** For bash: the canonical paths the gate decided for its commands, and whether they are every path it names. */
  readonly paths?: readonly string[];
  readonly pathsComplete?: boolean;
}
