// What the eval keeps of one run to check expectations against: its end, its
// events (the text deltas dropped: final_text has the text) and where its
// workspace is. Built from the run's events as they come (eval-case-run.ts).
import type { RunEvent } from '../run/run-events.js';
import type { RunUsage } from '../models/model-prices.js';

export type RunRecordStatus = (RunEvent & { type: 'run.end' })['status'] | 'error';

export interface RunRecord {
  readonly status: RunRecordStatus;
  readonly finalText: string;
  readonly turns: number;
  readonly usage: RunUsage;
  /** null when the model has no prices (a replay). */
  readonly costUsd: number | null;
  readonly error: { readonly code: string; readonly message: string } | null;
  /** Every event but assistant.delta, in order. */
  readonly events: readonly RunEvent[];
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
}

/** Pairs each tool.call with its gate.decision, in call order. */
export function observedCalls(events: readonly RunEvent[]): ObservedCall[] {
  const calls = new Map<number, ObservedCall>();
  for (const event of events) {
    if (event.type === 'tool.call') {
      calls.set(event.id, { id: event.id, tool: event.tool, input: event.input, allowed: undefined, canonicalPath: undefined, code: undefined, reason: undefined });
    } else if (event.type === 'gate.decision') {
      const call = calls.get(event.id);
      if (call !== undefined) calls.set(event.id, { ...call, allowed: event.allowed, canonicalPath: event.canonical_path, code: event.code, reason: event.reason });
    }
  }
  return [...calls.values()];
}
