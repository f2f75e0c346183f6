// The one document of `zotbox run --output-format json`: how the run ended
// (run.end's status, final text, turns, usage, cost and error) with who ran
// what, and a summary of the gate's decisions with every denied call. Built from
// the events as they pass; printed once, when the run ends (docs/cli.md).
import type { RunEvent } from '../api/run.js';

type RunEnd = RunEvent & { type: 'run.end' };

export interface DeniedCall {
  readonly id: number;
  readonly tool: string;
  /** The input as the model sent it (`{}` when it was too large to look at). */
  readonly input: Readonly<Record<string, unknown>>;
  readonly code: string | null;
  readonly reason: string | null;
}

export interface RunResultDocument {
  readonly type: 'result';
  readonly run_id: string | null;
  readonly model: string | null;
  readonly session: string | null;
  readonly status: RunEnd['status'];
  readonly final_text: string;
  readonly turns: number;
  readonly usage: RunEnd['usage'];
  readonly cost_usd: number | null;
  readonly error: { readonly code: string; readonly message: string } | null;
  readonly decisions: { readonly allowed: number; readonly denied: number; readonly denied_calls: readonly DeniedCall[] };
}

/** Folds a run's events into its result document; `document(end)` is called with run.end. */
export function runResultCollector(): { add(event: RunEvent): void; document(end: RunEnd): RunResultDocument } {
  let start: (RunEvent & { type: 'run.start' }) | undefined;
  const inputs = new Map<number, Readonly<Record<string, unknown>>>();
  const denied: DeniedCall[] = [];
  let allowed = 0;
  return {
    add(event) {
      if (event.type === 'run.start') start = event;
      else if (event.type === 'tool.call') inputs.set(event.id, event.input);
      else if (event.type === 'gate.decision' && event.allowed) allowed++;
      else if (event.type === 'gate.decision') denied.push({ id: event.id, tool: event.tool, input: inputs.get(event.id) ?? {}, code: event.code ?? null, reason: event.reason ?? null });
    },
    document: (end) => ({
      type: 'result',
      run_id: start?.run_id ?? null,
      model: start?.model ?? null,
      session: start?.session?.id ?? null,
      status: end.status,
      final_text: end.final_text,
      turns: end.turns,
      usage: end.usage,
      cost_usd: end.cost_usd,
      error: end.error ?? null,
      decisions: { allowed, denied: denied.length, denied_calls: denied },
    }),
  };
}
