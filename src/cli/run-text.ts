// The text form of a run's events (`zotbox run`, the default output): the start
// line, the model's text, each tool call with its outcome shown once (ok, failed,
// denied, a non-zero exit or a signal), and the run's one-line total last. How a
// run failed is not here: it goes to stderr as the one-line error (run-output.ts).
import type { RunEvent } from '../api/run.js';
import { field } from './terminal-output.js';

type ToolResult = RunEvent & { type: 'tool.result' };

/** The outcome line of a call that was not denied: ✔ only for a call that succeeded and a command that exited 0. */
function resultLine(event: ToolResult): string {
  const shown = (limit: number) => field(event.summary.slice(0, limit));
  if (!event.ok) return `  ✘ failed: ${shown(200)}\n`;
  if (event.signal !== undefined && event.signal !== null) return `  ✘ killed by ${field(event.signal)}: ${shown(120)}\n`;
  if (event.exit_code !== undefined && event.exit_code !== null && event.exit_code !== 0) return `  ✘ exit ${event.exit_code}: ${shown(120)}\n`;
  return `  ✔ ${shown(120)}\n`;
}

type Queued = RunEvent & { type: 'run.queued' };

/**
 * The line for a long wait, else ''. A wait for the pool is for whole runs to end;
 * one for an endpoint is long when at least a full round of requests (the limit)
 * waits before this one. Each reason is told once per run: the wait is the news.
 */
function queuedLine(event: Queued, told: Set<Queued['reason']>): string {
  if (told.has(event.reason)) return '';
  if (event.reason === 'endpoint' && event.ahead < event.limit) return '';
  told.add(event.reason);
  if (event.reason === 'pool') return `⧗ waiting for a run slot in the pool (${count(event.ahead)} runs ahead, ${count(event.limit)} at once: maxRuns)\n`;
  return `\n⧗ waiting for a model slot on ${field(event.endpoint ?? '')} (${count(event.ahead)} requests ahead, ${count(event.limit)} at once: --model-concurrency, max_concurrency)\n`;
}

/** A renderer for one run's events. It remembers the denied calls, whose result is their denial, already shown. */
export function textRenderer(): (event: RunEvent) => string {
  const denied = new Set<number>();
  const told = new Set<Queued['reason']>();
  return (event) => {
    switch (event.type) {
      case 'run.queued':
        return queuedLine(event, told);
      case 'run.start':
        return `▶ ${event.agent.name}@${field(event.agent.version)} (${field(event.model)}) in ${event.workspace}${event.session === null ? '' : `, session ${event.session.id}${event.session.continued ? ' (continued)' : ''}`}\n${event.permissions.bash.mode === 'none' ? '' : `  commands: ${event.confinement}\n`}`;
      case 'assistant.delta':
        return event.text;
      case 'tool.call':
        return `\n→ ${event.tool} ${JSON.stringify(event.input)}\n`;
      case 'gate.decision':
        if (event.allowed) return '';
        denied.add(event.id);
        return `  ✘ denied: ${field(event.reason ?? event.code ?? '')}\n`;
      case 'tool.result':
        return denied.has(event.id) ? '' : resultLine(event);
      case 'net.connect':
        if (event.dropped !== undefined) return `  ${event.allowed ? '⇄' : '✘'} net: ${field(event.reason)} (${event.bytes_out} B out, ${event.bytes_in} B in)\n`;
        return `  ${event.allowed ? '⇄' : '✘'} net ${field(event.host)}:${event.port} ${event.allowed ? `(${event.bytes_out} B out, ${event.bytes_in} B in)` : `denied: ${field(event.reason)}`}\n`;
      case 'usage':
        return '';
      case 'run.end':
        return `\n${usageLine(event)}\n`;
    }
  };
}

const count = (n: number) => n.toLocaleString('en-US');

/** The run's one-line total: tokens each way, the cache when it was used, and the cost when the model has prices. */
export function usageLine(end: RunEvent & { type: 'run.end' }): string {
  const { usage } = end;
  const cache =
    usage.cache_creation_input_tokens + usage.cache_read_input_tokens === 0 ? '' : ` (cache: ${count(usage.cache_read_input_tokens)} read, ${count(usage.cache_creation_input_tokens)} written)`;
  const cost = end.cost_usd === null ? 'cost unknown (no prices for this model)' : `$${end.cost_usd.toFixed(4)}`;
  return `· ${end.turns} turn${end.turns === 1 ? '' : 's'} · ${count(usage.input_tokens)} tokens in${cache} · ${count(usage.output_tokens)} out · ${cost}`;
}
