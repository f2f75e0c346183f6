// Collecting one run's events into a RunRecord, and the tail of its transcript
// for a report (JUnit system-out). The deltas are joined into the final text by
// the run itself (run.end); the record keeps every other event, up to a bound, so
// a run that loops on tool calls cannot grow an eval's memory without end.
import type { RunEvent } from '../run/run-events.js';
import { NO_USAGE } from '../models/model-prices.js';
import type { RunRecord } from './run-record.js';

/** Events kept per run; past it the oldest go (the end always stays). */
export const MAX_RECORDED_EVENTS = 5000;
const TAIL_LINES = 40;
const TAIL_LINE_CHARS = 300;

export class RunRecorder {
  private readonly events: RunEvent[] = [];
  private dropped = 0;
  private end: (RunEvent & { type: 'run.end' }) | undefined;

  add(event: RunEvent): void {
    if (event.type === 'assistant.delta') return;
    if (event.type === 'run.end') this.end = event;
    this.events.push(event);
    if (this.events.length > MAX_RECORDED_EVENTS) {
      this.events.shift();
      this.dropped++;
    }
  }

  /** The record of a run that ended (run.end), or of one that could not start (`failure`). */
  record(failure?: { readonly code: string; readonly message: string }): RunRecord {
    const end = this.end;
    if (end === undefined) {
      return { status: 'error', finalText: '', turns: 0, usage: NO_USAGE, costUsd: null, error: failure ?? { code: 'ZB_INTERNAL_BUG', message: 'the run ended without run.end' }, events: this.events };
    }
    return { status: end.status, finalText: end.final_text, turns: end.turns, usage: end.usage, costUsd: end.cost_usd, error: end.error ?? null, events: this.events };
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
