// `zotbox run AGENT [PROMPT]`: reads the options and the prompt, runs the agent,
// and hands its events to the output format (run-output.ts): text (default),
// one JSON document, NDJSON (--json), or only the final answer (--print).
import path from 'node:path';
import { parseConfineMode } from '../api/confinement.js';
import { runAgent, type RunEvent, type SessionChoice } from '../api/run.js';
import { ZotboxError } from '../errors.js';
import { type Chat, chatInput } from './chat-input.js';
import type { CliIo, CommandHandler } from './command-spec.js';
import { outputFormatOf, runOutput } from './run-output.js';
import { promptFor } from './run-prompt.js';
import { programPathOf } from './program-path-option.js';
import { requireApprovalTerminal, terminalApprover } from './approval-prompt.js';

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

/** --remember saves the consent -y (or ZOTBOX_AGENT_CONSENT=1) gives; alone it would promise what it cannot do. */
function rememberConsent(values: Readonly<Record<string, unknown>>, env: CliIo['env']): boolean {
  if (values['remember'] !== true) return false;
  if (values['yes'] !== true && env['ZOTBOX_AGENT_CONSENT'] !== '1') {
    throw new ZotboxError('ZB_CLI_USAGE', '--remember saves the consent that -y gives: add -y (or set ZOTBOX_AGENT_CONSENT=1). An answer at the consent prompt is saved without --remember.');
  }
  return true;
}

export const runRun: CommandHandler = async (parsed, io: CliIo) => {
  const [reference, promptArgument] = parsed.positionals as [string, string | undefined];
  const values = parsed.values;
  const format = outputFormatOf(values);
  const session = sessionChoice(values, io.cwd);
  const model = values['model'];
  const record = values['record'];
  const confineWord = values['confine'];
  const confine = typeof confineWord === 'string' ? parseConfineMode(confineWord) : undefined;
  if (confineWord !== undefined && confine === undefined) {
    throw new ZotboxError('ZB_CLI_USAGE', `--confine takes required (the default) or off, got ${JSON.stringify(confineWord)}. Commands always run confined unless you give --confine off.`);
  }
  const remember = rememberConsent(values, io.env);
  // Refused before anything loads: --approve without a terminal to ask on (--json too) would deny silently.
  const approve = values['approve'] === true;
  if (approve) requireApprovalTerminal(io);
  const programPath = programPathOf(values, io.cwd);
  const maxTurns = positiveInteger(values['max-turns'], 'max-turns');
  const timeoutSeconds = positiveInteger(values['timeout'], 'timeout');
  const workerMemoryMb = positiveInteger(values['worker-memory'], 'worker-memory');
  const modelConcurrency = positiveInteger(values['model-concurrency'], 'model-concurrency');
  const commandLimits = {
    processes: positiveInteger(values['limit-processes'], 'limit-processes'),
    memory_mib: positiveInteger(values['limit-memory'], 'limit-memory'),
    cpu_seconds: positiveInteger(values['limit-cpu'], 'limit-cpu'),
    file_size_mib: positiveInteger(values['limit-file-size'], 'limit-file-size'),
  };
  const prompt = await promptFor(promptArgument, io.stdin);
  const controller = new AbortController();
  // Ctrl-C, or a closed stdout: the reason (when zotbox gave one) is what run.end says.
  io.signal?.addEventListener('abort', () => controller.abort(io.signal?.reason), { once: true });
  const timer = timeoutSeconds === undefined ? undefined : setTimeout(() => controller.abort(timeoutError(timeoutSeconds)), timeoutSeconds * 1000);
  const cwdOption = values['cwd'];
  const replay = values['replay'];
  // Interactive chat: a terminal on both ends, text output, and no prompt on the
  // command line (entry.default_prompt, when the agent has one, still comes first
  // and makes the run one-shot).
  const interactive = io.stdin.isTTY === true && io.stdout.isTTY === true && prompt === undefined && format === 'text';
  let status: (RunEvent & { type: 'run.end' })['status'] | undefined;
  const output = runOutput(format, io, { chat: interactive });
  // While the approval prompt is open, later events wait, so no output lands inside it.
  let held: RunEvent[] | undefined;
  const approveCommand = approve
    ? terminalApprover(io, {
        before: () => {
          output.endLine?.();
          held = [];
        },
        after: () => {
          const events = held ?? [];
          held = undefined;
          for (const event of events) output.write(event);
        },
        // Outside a chat Ctrl-C at the prompt stops the run, as anywhere else; in a chat its watcher cancels the answer.
        interrupted: () => {
          if (!interactive) controller.abort();
        },
      })
    : undefined;
  const chat = interactive ? chatInput(io, { endLine: () => output.endLine?.() }, () => controller.abort()) : undefined;
  // A message sent is a model asked: the status line says so until the answer starts.
  const readPrompt: Chat['readPrompt'] | undefined =
    chat === undefined
      ? undefined
      : async (context) => {
          const message = await chat.readPrompt(context);
          if (message !== undefined) output.showWaiting?.();
          return message;
        };
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
      ...(programPath === undefined ? {} : { programPath }),
      ...(maxTurns === undefined ? {} : { maxTurns }),
      ...(workerMemoryMb === undefined ? {} : { workerMemoryMb }),
      ...(modelConcurrency === undefined ? {} : { modelConcurrency }),
      commandLimits,
      session,
      ...(readPrompt === undefined ? {} : { readPrompt }),
      ...(approveCommand === undefined ? {} : { approveCommand }),
      yes: values['yes'] === true,
      remember,
      env: io.env,
      stdin: io.stdin,
      stdout: io.stdout,
      signal: controller.signal,
    })) {
      if (held !== undefined) held.push(event);
      else output.write(event);
      if (event.type === 'run.end') status = event.status;
    }
  } finally {
    chat?.close(); // gives the terminal back if the run ended during an answer
    if (timer !== undefined) clearTimeout(timer);
    output.end(); // owed only when the run stopped without run.end (a colour reset)
  }
  return status === 'completed' ? 0 : 1;
};

/** Why a run stopped at --timeout: the limit, and how to raise it. */
function timeoutError(seconds: number): ZotboxError {
  return new ZotboxError('ZB_RUN_TIMEOUT', `the run reached its time limit of ${seconds} s (--timeout ${seconds}) and was stopped. Fix: give it more time with --timeout N (seconds).`, {
    details: { timeoutSeconds: seconds },
  });
}
