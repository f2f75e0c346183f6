// `zotbox run AGENT [PROMPT]`: runs an agent and prints its events as text
// (default), only the final answer (--print), or NDJSON (--json).
import path from 'node:path';
import { parseConfineMode } from '../api/confinement.js';
import { runAgent, type RunEvent, type SessionChoice } from '../api/run.js';
import { ZotboxError } from '../errors.js';
import { chatInput } from './chat-input.js';
import type { CliIo, CommandHandler } from './command-spec.js';
import { field, runEventWriter, writeModelText } from './terminal-output.js';

function positiveInteger(value: unknown, option: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new ZotboxError('ZB_CLI_USAGE', `--${option} takes a positive whole number, got ${JSON.stringify(value)}.`);
  return n;
}

/** The session flags, at most one of which may be given. */
function sessionChoice(values: Readonly<Record<string, unknown>>, cwd: string): SessionChoice {
  const given = ['continue', 'resume', 'session', 'no-session'].filter((name) => values[name] !== undefined && values[name] !== false);
  if (given.length > 1) {
    throw new ZotboxError(
      'ZB_SESSION_CONFLICT',
      `${given
        .slice(0, 2)
        .map((name) => `--${name}`)
        .join(' and ')} cannot be combined: give at most one of --continue, --resume ID, --session FILE and --no-session.`,
    );
  }
  if (values['continue'] === true) return 'continue';
  if (values['no-session'] === true) return 'none';
  if (typeof values['resume'] === 'string') return { id: values['resume'] };
  if (typeof values['session'] === 'string') return { file: path.resolve(cwd, values['session']) };
  return 'new';
}

/** The human-readable form of one event. */
function render(event: RunEvent): string {
  switch (event.type) {
    case 'run.start':
      return `▶ ${event.agent.name}@${field(event.agent.version)} (${field(event.model)}) in ${event.workspace}${event.session === null ? '' : `, session ${event.session.id}${event.session.continued ? ' (continued)' : ''}`}\n${event.permissions.bash.mode === 'none' ? '' : `  commands: ${event.confinement}\n`}`;
    case 'assistant.delta':
      return event.text;
    case 'tool.call':
      return `\n→ ${event.tool} ${JSON.stringify(event.input)}\n`;
    case 'gate.decision':
      return event.allowed ? '' : `  ✘ denied: ${field(event.reason ?? event.code ?? '')}\n`;
    case 'tool.result':
      return event.ok ? `  ✔ ${field(event.summary.slice(0, 120))}\n` : '';
    case 'usage':
      return '';
    case 'run.end':
      return event.status === 'completed' ? '\n' : `\n■ run ${event.status}${event.error === undefined ? '' : `: ${event.error.code}: ${field(event.error.message)}`}\n`;
  }
}

export const runRun: CommandHandler = async (parsed, io: CliIo) => {
  const [reference, prompt] = parsed.positionals as [string, string | undefined];
  const values = parsed.values;
  const session = sessionChoice(values, io.cwd);
  const model = values['model'];
  const record = values['record'];
  const confineWord = values['confine'];
  const confine = typeof confineWord === 'string' ? parseConfineMode(confineWord) : undefined;
  if (confineWord !== undefined && confine === undefined) {
    throw new ZotboxError('ZB_CLI_USAGE', `--confine takes required (the default) or off, got ${JSON.stringify(confineWord)}. Commands always run confined unless you give --confine off.`);
  }
  const maxTurns = positiveInteger(values['max-turns'], 'max-turns');
  const timeoutSeconds = positiveInteger(values['timeout'], 'timeout');
  const workerMemoryMb = positiveInteger(values['worker-memory'], 'worker-memory');
  const modelConcurrency = positiveInteger(values['model-concurrency'], 'model-concurrency');
  const controller = new AbortController();
  io.signal?.addEventListener('abort', () => controller.abort(), { once: true });
  const timer = timeoutSeconds === undefined ? undefined : setTimeout(() => controller.abort(), timeoutSeconds * 1000);
  const cwdOption = values['cwd'];
  const replay = values['replay'];
  // Interactive chat: a terminal on both ends, text output, and no prompt on the
  // command line (entry.default_prompt, when the agent has one, still comes first
  // and makes the run one-shot).
  const interactive = io.stdin.isTTY === true && io.stdout.isTTY === true && prompt === undefined && values['print'] !== true && values['json'] !== true;
  let status: (RunEvent & { type: 'run.end' }) | undefined;
  const text = runEventWriter(io.stdout, render);
  const chat = interactive ? chatInput(io, text, () => controller.abort()) : undefined;
  try {
    for await (const event of runAgent({
      reference,
      cwd: io.cwd,
      ...(typeof cwdOption === 'string' ? { workspace: path.resolve(io.cwd, cwdOption) } : {}),
      ...(prompt === undefined ? {} : { prompt }),
      ...(typeof replay === 'string' ? { replayFile: path.resolve(io.cwd, replay) } : {}),
      ...(typeof model === 'string' ? { model } : {}),
      ...(typeof record === 'string' ? { recordFile: path.resolve(io.cwd, record) } : {}),
      ...(confine === undefined ? {} : { confine }),
      ...(maxTurns === undefined ? {} : { maxTurns }),
      ...(workerMemoryMb === undefined ? {} : { workerMemoryMb }),
      ...(modelConcurrency === undefined ? {} : { modelConcurrency }),
      session,
      ...(chat === undefined ? {} : { readPrompt: chat.readPrompt }),
      yes: values['yes'] === true,
      env: io.env,
      stdin: io.stdin,
      stdout: io.stdout,
      signal: controller.signal,
    })) {
      if (values['json'] === true) io.stdout.write(`${JSON.stringify(event)}\n`);
      else if (values['print'] !== true) text.write(event);
      if (event.type === 'run.end') status = event;
    }
  } finally {
    chat?.close(); // gives the terminal back if the run ended during an answer
    if (timer !== undefined) clearTimeout(timer);
    text.end(); // owed only when the run stopped without run.end (a colour reset)
  }
  if (values['print'] === true && values['json'] !== true && status !== undefined) writeModelText(io.stdout, `${status.final_text}\n`);
  return status?.status === 'completed' ? 0 : 1;
};
