// `zotbox run AGENT [PROMPT]`: runs an agent and prints its events as text
// (default), only the final answer (--print), or NDJSON (--json).
import path from 'node:path';
import { ZotboxError, runAgent, type RunEvent } from '../index.js';
import type { CliIo, CommandHandler } from './command-spec.js';

const CONFINE_MODES = ['auto', 'require', 'off'] as const;

function positiveInteger(value: unknown, option: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new ZotboxError('ZB_CLI_USAGE', `--${option} takes a positive whole number, got ${JSON.stringify(value)}.`);
  return n;
}

function notYet(option: string): never {
  throw new ZotboxError('ZB_CLI_NOT_AVAILABLE', `--${option} is not available in this build yet. Run without it; 'zotbox run --help' lists what is available.`);
}

/** The human-readable form of one event. */
function render(event: RunEvent): string {
  switch (event.type) {
    case 'run.start':
      return `▶ ${event.agent.name}@${event.agent.version} (${event.model}) in ${event.workspace}\n`;
    case 'assistant.delta':
      return event.text;
    case 'tool.call':
      return `\n→ ${event.tool} ${JSON.stringify(event.input)}\n`;
    case 'gate.decision':
      return event.allowed ? '' : `  ✘ denied: ${event.reason ?? event.code}\n`;
    case 'tool.result':
      return event.ok ? `  ✔ ${event.summary.slice(0, 120)}\n` : '';
    case 'usage':
      return '';
    case 'run.end':
      return event.status === 'completed' ? '\n' : `\n■ run ${event.status}${event.error === undefined ? '' : `: ${event.error.code}: ${event.error.message}`}\n`;
  }
}

export const runRun: CommandHandler = async (parsed, io: CliIo) => {
  const [reference, prompt] = parsed.positionals as [string, string | undefined];
  const values = parsed.values;
  for (const option of ['continue', 'resume', 'session']) if (values[option] !== undefined) notYet(option);
  const model = values['model'];
  const record = values['record'];
  const confine = values['confine'];
  if (confine !== undefined && !(CONFINE_MODES as readonly unknown[]).includes(confine)) {
    throw new ZotboxError('ZB_CLI_USAGE', `--confine takes auto, require or off, got ${JSON.stringify(confine)}.`);
  }
  const maxTurns = positiveInteger(values['max-turns'], 'max-turns');
  const timeoutSeconds = positiveInteger(values['timeout'], 'timeout');
  const controller = new AbortController();
  io.signal?.addEventListener('abort', () => controller.abort(), { once: true });
  const timer = timeoutSeconds === undefined ? undefined : setTimeout(() => controller.abort(), timeoutSeconds * 1000);
  const cwdOption = values['cwd'];
  const replay = values['replay'];
  let status: RunEvent & { type: 'run.end' } | undefined;
  try {
    for await (const event of runAgent({
      reference,
      cwd: io.cwd,
      ...(typeof cwdOption === 'string' ? { workspace: path.resolve(io.cwd, cwdOption) } : {}),
      ...(prompt === undefined ? {} : { prompt }),
      ...(typeof replay === 'string' ? { replayFile: path.resolve(io.cwd, replay) } : {}),
      ...(typeof model === 'string' ? { model } : {}),
      ...(typeof record === 'string' ? { recordFile: path.resolve(io.cwd, record) } : {}),
      ...(confine === undefined ? {} : { confine: confine as (typeof CONFINE_MODES)[number] }),
      ...(maxTurns === undefined ? {} : { maxTurns }),
      yes: values['yes'] === true,
      env: io.env,
      stdin: io.stdin as never,
      stdout: io.stdout,
      signal: controller.signal,
    })) {
      if (values['json'] === true) io.stdout.write(`${JSON.stringify(event)}\n`);
      else if (values['print'] !== true) io.stdout.write(render(event));
      if (event.type === 'run.end') status = event;
    }
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
  if (values['print'] === true && values['json'] !== true && status !== undefined) io.stdout.write(`${status.final_text}\n`);
  return status?.status === 'completed' ? 0 : 1;
};
