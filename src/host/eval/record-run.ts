// Collecting one run's events into a RunRecord, and the tail of its transcript
// for a report (JUnit system-out). The deltas are joined into the final text by
// the run itself (run.end). Every tool call is tallied into the call ledger as it
// comes, so call verdicts see the whole run; the record also keeps the newest
// events, up to a bound, for graders and the transcript, so a run that loops on
// tool calls cannot grow an eval's memory without end.
import type { RunEvent } from '../run/run-events.js';
import { NO_USAGE } from '../models/model-prices.js';
import { CallLedger, NO_CALLS } from './call-ledger.js';
import type { PatternTester } from './pattern-host.js';
import type { RunRecord } from './run-record.js';
import type { CallMatcher } from './suite-schema.js';
import type { CallTrace } from './eval-report.js';
import { SANDBOX_FAULT_CODES } from './infrastructure.js';

/** Tool calls a run's report keeps (the last ones), for the HTML report. */
export const MAX_TRACED_CALLS = 200;
const TRACE_FIELD_CHARS = 2000;

/** Events kept per run; past it the oldest go (the end always stays). */
export const MAX_RECORDED_EVENTS = 5000;
const TAIL_LINES = 40;
const TAIL_LINE_CHARS = 300;

export class RunRecorder {
  private readonly events: RunEvent[] = [];
  private dropped = 0;
  private end: (RunEvent & { type: 'run.end' }) | undefined;
  private ledger: CallLedger | undefined;
  /** The first call that failed because the sandbox could not be built (infrastructure.ts). */
  private sandbox: { code: string; message: string } | undefined;
  /** A command ran in the sandbox (or unconfined): the sandbox worked for this run. */
  private commandRan = false;

  get sandboxFault(): { readonly code: string; readonly message: string } | undefined {
    return this.sandbox;
  }

  get ranCommand(): boolean {
    return this.commandRan;
  }

  /** Before the run starts: tally its calls against these matchers (the case's call expectations). */
  watchCalls(matchers: readonly CallMatcher[], workspace: string, patterns: PatternTester): void {
    this.ledger = new CallLedger(matchers, workspace, patterns);
  }

  /** After the run: resolves once every call is counted (their patterns matched); record() reads them then. */
  async settle(): Promise<void> {
    await this.ledger?.settle();
  }

  add(event: RunEvent): void {
    if (event.type === 'assistant.delta') return;
    this.ledger?.add(event);
    if (event.type === 'run.end') this.end = event;
    if (event.type === 'tool.result' && event.code !== undefined && SANDBOX_FAULT_CODES.has(event.code)) this.sandbox ??= { code: event.code, message: event.summary };
    if (event.type === 'tool.result' && event.tool === 'bash' && event.exit_code !== undefined) this.commandRan = true;
    this.events.push(event);
    if (this.events.length > MAX_RECORDED_EVENTS) {
      this.events.shift();
      this.dropped++;
    }
  }

  /** The record of a run that ended (run.end), or of one that could not start (`failure`). */
  record(failure?: { readonly code: string; readonly message: string }): RunRecord {
    // Read before settle() finished: calls still waiting were not counted, so no call verdict may pass.
    if (this.ledger?.unsettled === true) this.ledger.incomplete ??= "the run's calls were still being matched when its verdicts were read";
    const kept = { calls: this.ledger ?? NO_CALLS, events: this.events, eventsDropped: this.dropped };
    const end = this.end;
    if (end === undefined) {
      return { status: 'error', finalText: '', turns: 0, usage: NO_USAGE, costUsd: null, error: failure ?? { code: 'ZB_INTERNAL_BUG', message: 'the run ended without run.end' }, ...kept };
    }
    return { status: end.status, finalText: end.final_text, turns: end.turns, usage: end.usage, costUsd: end.cost_usd, error: end.error ?? null, ...kept };
  }

  /** The run's last tool calls, each with the gate's decision and its result, fields cut to TRACE_FIELD_CHARS. */
  calls(): CallTrace[] {
    const byId = new Map<number, CallTrace>();
    const cut = (text: string) => (text.length > TRACE_FIELD_CHARS ? `${text.slice(0, TRACE_FIELD_CHARS)}…` : text);
    for (const event of this.events) {
      if (event.type === 'tool.call') byId.set(event.id, { tool: event.tool, input: cut(JSON.stringify(event.input)), allowed: null, ok: null });
      const call = 'id' in event && typeof event.id === 'number' ? byId.get(event.id) : undefined;
      if (call === undefined) continue;
      if (event.type === 'gate.decision') {
        call.allowed = event.allowed;
        if (event.code !== undefined) call.code = event.code;
        if (event.reason !== undefined) call.reason = cut(event.reason);
      } else if (event.type === 'tool.result') {
        call.ok = event.ok;
        call.summary = cut(event.summary);
      }
    }
    return [...byId.values()].slice(-MAX_TRACED_CALLS);
  }

  /** The last lines of the run in text form: tool calls, decisions, results and the end. */
  tail(): string {
    const lines = this.events.map(eventLine).filter((line) => line !== '');
    const kept = lines.slice(-TAIL_LINES);
    const skipped = lines.length - kept.length + this.dropped;
    return [...(skipped > 0 ? [`… ${skipped} earlier events`] : []), ...kept].join('\n');
  }
}

function eventLine(event: RunEvent): string {
  const line = ((): string => {
    switch (event.type) {
      case 'run.start':
        return `start ${event.agent.name}@${event.agent.version} on ${event.model}`;
      case 'tool.call':
        return `→ ${event.tool} ${JSON.stringify(event.input)}`;
      case 'gate.decision':
        return event.allowed ? '' : `  ✘ denied ${event.code ?? ''}: ${event.reason ?? ''}`;
      case 'tool.result':
        return `  ${event.ok ? '✔' : '✘'} ${event.summary}`;
      case 'run.end':
        return `end ${event.status} after ${event.turns} turns${event.error === undefined ? '' : ` (${event.error.code}: ${event.error.message})`}\n${event.final_text.length > 2000 ? `${event.final_text.slice(0, 2000)}…` : event.final_text}`;
      default:
        return '';
    }
  })();
  return line.length > TAIL_LINE_CHARS && event.type !== 'run.end' ? `${line.slice(0, TAIL_LINE_CHARS)}…` : line;
}
