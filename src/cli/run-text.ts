// The text form of a run's events (`zotbox run`, the default output): the start
// line, the model's text, each tool call as one line with its outcome (issue 27,
// item 5: `✔ read README.md (1.2 KB)`, `✘ bash ls nope → exit 2, 1 line`), never the
// raw result, and the run's one-line total last. How a run failed is not here: it
// goes to stderr as the one-line error (run-output.ts). On a terminal, a status line
// says what the run waits on (status-line.ts), from `status` below.
import type { RunEvent } from '../api/run.js';
import { formatCost } from '../api/cost.js';
import { field, type RunTextView } from './terminal-output.js';

type ToolCall = RunEvent & { type: 'tool.call' };
type ToolResult = RunEvent & { type: 'tool.result' };
type RunEnd = RunEvent & { type: 'run.end' };

/** Longest a command or path is shown on a tool line before it is cut (at a character, after escaping). */
const SUBJECT_LIMIT = 80;
const REASON_LIMIT = 240;

/** Cuts at a whole character (escapes are plain ASCII by now, so no sequence is split). */
const cut = (text: string, limit: number) => {
  const chars = Array.from(text);
  return chars.length > limit ? `${chars.slice(0, limit - 1).join('')}…` : text;
};

/** What a call acts on, in a few words: the path, the command's first line, the skill. */
function subjectOf(call: ToolCall | undefined): string {
  if (call === undefined) return '';
  const input = call.input;
  const pick = (key: string) => (typeof input[key] === 'string' ? input[key] : undefined);
  const subject = pick('path') ?? pick('command') ?? pick('name') ?? pick('skill');
  if (subject === undefined) return '';
  const firstLine = subject.split('\n')[0] ?? '';
  return cut(field(firstLine === subject ? subject : `${firstLine} …`), SUBJECT_LIMIT);
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

/** 1234 → "1.2 KB": the size of a file or an output, as people read it. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'] as const;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit] ?? 'GB'}`;
}

const plural = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

/** The outcome of a call that ran: for a command its exit and output lines, for a file its size. */
function outcomeOf(event: ToolResult): string {
  if (event.signal !== undefined && event.signal !== null) return ` → killed by ${field(event.signal)}`;
  if (event.exit_code !== undefined) return ` → exit ${event.exit_code ?? '?'}, ${plural(event.lines ?? 0, 'line')}`;
  if (event.bytes === undefined) return '';
  if (event.tool === 'write' || event.tool === 'edit') return ` (${formatBytes(event.bytes)} written)`;
  return ` (${formatBytes(event.bytes)})`;
}

/** The one line of a call: ✔ only for a call that succeeded and a command that exited 0. */
function toolLine(event: ToolResult, call: ToolCall | undefined, denial: string | undefined): string {
  const subject = subjectOf(call);
  const label = `${field(event.tool)}${subject === '' ? '' : ` ${subject}`}`;
  if (denial !== undefined) return `  ✘ ${label} — denied: ${cut(field(denial), REASON_LIMIT)}\n`;
  if (!event.ok) return `  ✘ ${label} — failed: ${cut(field(event.summary), REASON_LIMIT)}\n`;
  const failed = (event.signal !== undefined && event.signal !== null) || (event.exit_code !== undefined && event.exit_code !== 0);
  return `  ${failed ? '✘' : '✔'} ${label}${outcomeOf(event)}\n`;
}

/** The view of one run's events: it remembers each call until its result, and whether text follows tool lines. */
export function textRenderer(options: { readonly chat: boolean }): { render: (event: RunEvent) => string } & Required<RunTextView> {
  const calls = new Map<number, ToolCall>();
  const denials = new Map<number, string>();
  const told = new Set<Queued['reason']>();
  let model = 'the model';
  let afterTools = false;
  return {
    render(event) {
      switch (event.type) {
        case 'run.queued':
          return queuedLine(event, told);
        case 'run.start':
          model = field(event.model);
          return `▶ ${event.agent.name}@${field(event.agent.version)} (${field(event.model)}) in ${event.workspace}${event.session === null ? '' : `, session ${event.session.id}${event.session.continued ? ' (continued)' : ''}`}\n${event.permissions.bash.mode === 'none' ? '' : `  commands: ${event.confinement}\n`}`;
        case 'assistant.delta':
          return event.text;
        case 'tool.call':
          calls.set(event.id, event);
          return '';
        case 'gate.decision':
          if (!event.allowed) denials.set(event.id, event.reason ?? event.code ?? '');
          return '';
        case 'gate.approval':
          // The answer given at the approval prompt (on stderr), kept with the output too.
          return `    ${event.approved ? `✔ approved by you (${event.scope ?? 'once'})` : '✘ declined by you'}: ${field(event.program)} (${field(event.path)})\n`;
        case 'tool.result': {
          afterTools = true;
          const line = toolLine(event, calls.get(event.id), denials.get(event.id));
          calls.delete(event.id);
          denials.delete(event.id);
          return line;
        }
        case 'net.connect':
          if (event.dropped !== undefined) return `    ${event.allowed ? '⇄' : '✘'} net: ${field(event.reason)} (${event.bytes_out} B out, ${event.bytes_in} B in)\n`;
          return `    ${event.allowed ? '⇄' : '✘'} net ${field(event.host)}:${event.port} ${event.allowed ? `(${event.bytes_out} B out, ${event.bytes_in} B in)` : `denied: ${field(event.reason)}`}\n`;
        case 'usage':
          return '';
        case 'run.end':
          return endLines(event);
      }
    },
    before() {
      if (!afterTools) return '';
      afterTools = false;
      return '\n';
    },
    waiting: () => `waiting for ${model}`,
    status(event) {
      if (event.type === 'run.start') return options.chat ? undefined : `waiting for ${model}`;
      if (event.type === 'tool.call') return `${field(event.tool)} ${subjectOf(event)}`.trimEnd();
      if (event.type === 'tool.result' && calls.size === 0) return `waiting for ${model}`;
      return undefined;
    },
  };
}

/**
 * The total line, after a blank one; none when no model turn happened: a run that failed first (its error says it
 * all), or a chat closed before its first message (a line of zeros says nothing).
 */
function endLines(end: RunEnd): string {
  const nothing = end.turns === 0 && end.usage.input_tokens + end.usage.output_tokens === 0;
  return nothing ? '' : `\n${usageLine(end)}\n`;
}

const count = (n: number) => n.toLocaleString('en-US');

/** The run's one-line total: tokens each way, the cache when it was used, and the cost when the model has prices. */
export function usageLine(end: RunEnd): string {
  const { usage } = end;
  const cache =
    usage.cache_creation_input_tokens + usage.cache_read_input_tokens === 0 ? '' : ` (cache: ${count(usage.cache_read_input_tokens)} read, ${count(usage.cache_creation_input_tokens)} written)`;
  return `· ${end.turns} turn${end.turns === 1 ? '' : 's'} · ${count(usage.input_tokens)} tokens in${cache} · ${count(usage.output_tokens)} out · ${formatCost(end.cost_usd)}`;
}
