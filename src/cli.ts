// The zotbox command line: argument parsing, dispatch and output only. All
// behaviour lives in the library (src/index.ts and the layers below); this file
// turns argv into calls and results or errors into text and an exit status.
import { ZotboxError, didYouMean, fileSystemError, toZotboxError, type ExitStatus } from './errors.js';
import { parseCommandArguments, type CliIo, type CommandHandler } from './cli/command-spec.js';
import { COMMANDS } from './cli/commands.js';
import { renderCommandHelp, renderMainHelp } from './cli/help.js';
import { ZOTBOX_VERSION } from './version.js';

/**
 * Commands whose implementation has landed, each loaded only when it runs: a
 * command imports only the API entry modules it uses, so `--help` loads no library
 * code and `check` no worker pool or HTTP client (issue 11). The others answer
 * ZB_CLI_NOT_AVAILABLE.
 */
const HANDLERS: Readonly<Partial<Record<string, () => Promise<CommandHandler>>>> = {
  init: async () => (await import('./cli/init-command.js')).runInit,
  pack: async () => (await import('./cli/archive-commands.js')).runPack,
  inspect: async () => (await import('./cli/archive-commands.js')).runInspect,
  verify: async () => (await import('./cli/archive-commands.js')).runVerify,
  unpack: async () => (await import('./cli/archive-commands.js')).runUnpack,
  check: async () => (await import('./cli/check-command.js')).runCheck,
  consent: async () => (await import('./cli/consent-command.js')).runConsent,
  run: async () => (await import('./cli/run-command.js')).runRun,
  eval: async () => (await import('./cli/eval-command.js')).runEvalCommand,
  completion: async () => (await import('./cli/completion-command.js')).runCompletion,
  sessions: async () => (await import('./cli/sessions-command.js')).runSessions,
  data: async () => (await import('./cli/data-command.js')).runData,
  models: async () => (await import('./cli/models-command.js')).runModels,
  doctor: async () => (await import('./cli/doctor-command.js')).runDoctorCommand,
};

const AVAILABLE = new Set(Object.keys(HANDLERS));

/** Whether the command line asks for JSON on stdout (--json, or --output-format json or stream-json), looking before any `--`. */
function jsonRequested(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  const options = end === -1 ? argv : argv.slice(0, end);
  return options.some((token, i) => token === '--json' || /^--output-format=(stream-)?json$/.test(token) || (token === '--output-format' && /^(stream-)?json$/.test(options[i + 1] ?? '')));
}

/** Exit status of a command whose reader closed standard output (EPIPE): 128 + SIGPIPE, as a shell reports a process SIGPIPE ended. */
export const CLOSED_OUTPUT_STATUS = 141;

/** A write error after the command ended has nobody to tell: its status is already given. */
function ignoreLateWriteError(): void {}

type Emitter = Partial<Pick<NodeJS.EventEmitter, 'on' | 'off' | 'listeners'>>;

/**
 * Watches stdout for a write error: the reader went away (EPIPE, `| head -1`) or
 * the output failed (a full disk). Either cancels the command through the
 * returned signal; the failed stream drops later writes by itself (it is
 * destroyed), and after EPIPE stderr is quiet too: a closed pipe ends a command silently.
 */
function watchOutput(io: CliIo): { io: CliIo; settle: () => Promise<NodeJS.ErrnoException | undefined> } {
  let failure: NodeJS.ErrnoException | undefined;
  const failed = new AbortController();
  const onStdoutError = (error: NodeJS.ErrnoException) => {
    failure ??= error;
    failed.abort(fileSystemError('write to', 'standard output', error));
  };
  // An error writing to stderr has nowhere to be reported; without a listener it would crash the process.
  const onStderrError = () => undefined;
  const stdout = io.stdout as Emitter;
  const stderr = io.stderr as Emitter;
  stdout.on?.('error', onStdoutError);
  stderr.on?.('error', onStderrError);
  const writeErr = io.stderr;
  return {
    io: {
      ...io,
      stderr: { isTTY: writeErr.isTTY === true, write: (chunk: string) => (failure?.code === 'EPIPE' ? false : writeErr.write(chunk)) },
      signal: io.signal === undefined ? failed.signal : AbortSignal.any([io.signal, failed.signal]),
    },
    // A failed write reports its error a tick later: wait for it before answering. One
    // listener that ignores stays on each stream (added once, however many commands run),
    // so an error after the command ended cannot crash the process.
    settle: async () => {
      if (stdout.on !== undefined) await new Promise((resolve) => setImmediate(resolve));
      for (const [stream, listener] of [
        [stdout, onStdoutError],
        [stderr, onStderrError],
      ] as const) {
        stream.off?.('error', listener);
        if (stream.listeners?.('error').includes(ignoreLateWriteError) === false) stream.on?.('error', ignoreLateWriteError);
      }
      return failure;
    },
  };
}

function defaultIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() };
}

/**
 * Runs one zotbox command line and returns the exit status. Never throws and
 * never calls process.exit, so it can be driven in-process by tests and embedders.
 */
export async function runCli(argv: readonly string[], ioOverrides: Partial<CliIo> = {}): Promise<number> {
  const output = watchOutput({ ...defaultIo(), ...ioOverrides });
  const io = output.io;
  const debug = io.env['ZOTBOX_DEBUG'] === '1' || argv.includes('--debug');
  let status: number;
  try {
    status = await dispatch(argv, io);
  } catch (thrown) {
    status = await reportFailure(toZotboxError(thrown), argv, io, debug);
  }
  const failure = await output.settle();
  if (failure === undefined) return status;
  if (failure.code === 'EPIPE') return CLOSED_OUTPUT_STATUS;
  // Standard output failed some other way (a full disk, EIO): say so, unless the command already reported a failure.
  return status !== 0 ? status : reportFailure(fileSystemError('write to', 'standard output', failure), [], io, debug);
}

/** Prints a failed command's error (the JSON error line too, with --json) and returns its exit status. */
async function reportFailure(error: ZotboxError, argv: readonly string[], io: CliIo, debug: boolean): Promise<ExitStatus> {
  // Loaded here, on failure: --help and --version never need them.
  const { errorJsonLine, formatError } = await import('./cli/error-output.js');
  const { writeTerminalText } = await import('./cli/terminal-output.js');
  // With JSON output a failed command prints one JSON error line; usage errors are for humans.
  if (error.exitStatus !== 2 && jsonRequested(argv)) io.stdout.write(errorJsonLine(error));
  // Messages may quote agent input (a path, a manifest string): sanitized like any agent text.
  writeTerminalText(io.stderr, formatError(error, debug));
  return error.exitStatus;
}

async function dispatch(argv: readonly string[], io: CliIo): Promise<number> {
  let index = 0;
  // Global options may precede the command.
  for (; index < argv.length; index++) {
    const token = argv[index] ?? '';
    if (token === '-h' || token === '--help') {
      io.stdout.write(renderMainHelp(ZOTBOX_VERSION, AVAILABLE));
      return 0;
    }
    if (token === '-V' || token === '--version') {
      io.stdout.write(`${ZOTBOX_VERSION}\n`);
      return 0;
    }
    if (token === '--debug') continue;
    if (token.startsWith('-')) {
      throw new ZotboxError('ZB_CLI_USAGE', `unknown option '${token}' before the command. Run 'zotbox --help' for usage.`);
    }
    break;
  }
  const name = argv[index];
  if (name === undefined) {
    io.stderr.write(renderMainHelp(ZOTBOX_VERSION, AVAILABLE));
    throw new ZotboxError('ZB_CLI_USAGE', "a command is required. Run 'zotbox --help' to list them.");
  }
  const rest = argv.slice(index + 1);
  if (name === 'help') return showHelpFor(rest[0], io);

  const spec = COMMANDS.find((c) => c.name === name);
  if (spec === undefined) {
    const names = COMMANDS.map((c) => c.name).join(', ');
    throw new ZotboxError(
      'ZB_CLI_UNKNOWN_COMMAND',
      `unknown command '${name}'.${didYouMean(
        name,
        COMMANDS.map((c) => c.name),
      )} The commands are: ${names}. Run 'zotbox --help' for usage.`,
      {
        details: { command: name },
      },
    );
  }
  const parsed = parseCommandArguments(spec, rest);
  if (parsed.values['help'] === true) {
    io.stdout.write(renderCommandHelp(spec, AVAILABLE.has(spec.name)));
    return 0;
  }
  const loadHandler = HANDLERS[spec.name];
  if (loadHandler === undefined) {
    throw new ZotboxError(
      'ZB_CLI_NOT_AVAILABLE',
      `'zotbox ${spec.name}' is not available in zotbox ${ZOTBOX_VERSION} yet. Available now: ${[...AVAILABLE].join(', ') || 'none'}; see 'zotbox --help'.`,
      { details: { command: spec.name } },
    );
  }
  const handler = await loadHandler();
  return handler(parsed, io);
}

function showHelpFor(name: string | undefined, io: CliIo): number {
  if (name === undefined) {
    io.stdout.write(renderMainHelp(ZOTBOX_VERSION, AVAILABLE));
    return 0;
  }
  const spec = COMMANDS.find((c) => c.name === name);
  if (spec === undefined) {
    throw new ZotboxError(
      'ZB_CLI_UNKNOWN_COMMAND',
      `no help for unknown command '${name}'.${didYouMean(
        name,
        COMMANDS.map((c) => c.name),
      )} Run 'zotbox --help' to list the commands.`,
      {
        details: { command: name },
      },
    );
  }
  io.stdout.write(renderCommandHelp(spec, AVAILABLE.has(spec.name)));
  return 0;
}
