// The zotbox command line: argument parsing, dispatch and output only. All
// behaviour lives in the library (src/index.ts and the layers below); this file
// turns argv into calls and results or errors into text and an exit status.
import { inspect } from 'node:util';
import { ZotboxError, toZotboxError, type ExitStatus } from './errors.js';
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
  completion: async () => (await import('./cli/completion-command.js')).runCompletion,
  sessions: async () => (await import('./cli/sessions-command.js')).runSessions,
};

const AVAILABLE = new Set(Object.keys(HANDLERS));

function jsonRequested(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}

function defaultIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() };
}

/**
 * Runs one zotbox command line and returns the exit status. Never throws and
 * never calls process.exit, so it can be driven in-process by tests and embedders.
 */
export async function runCli(argv: readonly string[], ioOverrides: Partial<CliIo> = {}): Promise<number> {
  const io: CliIo = { ...defaultIo(), ...ioOverrides };
  const debug = io.env['ZOTBOX_DEBUG'] === '1' || argv.includes('--debug');
  try {
    return await dispatch(argv, io);
  } catch (thrown) {
    const error = toZotboxError(thrown);
    // With --json a failed command still prints one JSON document; usage errors are for humans.
    if (error.exitStatus !== 2 && jsonRequested(argv)) io.stdout.write(`${JSON.stringify({ ok: false, error: error.toWire() }, null, 2)}\n`);
    // Messages may quote agent input (a path, a manifest string): sanitized like any agent text.
    // The sanitizer loads here, on failure: --help and --version never need it.
    const { writeTerminalText } = await import('./cli/terminal-output.js');
    writeTerminalText(io.stderr, formatError(error, debug));
    return error.exitStatus satisfies ExitStatus;
  }
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
    throw new ZotboxError('ZB_CLI_UNKNOWN_COMMAND', `unknown command '${name}'. The commands are: ${names}. Run 'zotbox --help' for usage.`, {
      details: { command: name },
    });
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
    throw new ZotboxError('ZB_CLI_UNKNOWN_COMMAND', `no help for unknown command '${name}'. Run 'zotbox --help' to list the commands.`, {
      details: { command: name },
    });
  }
  io.stdout.write(renderCommandHelp(spec, AVAILABLE.has(spec.name)));
  return 0;
}

/** One clear line per error, then one per further problem it lists; with debug, the stack and every cause follow. */
export function formatError(error: ZotboxError, debug: boolean): string {
  let text = `zotbox: error[${error.code}]: ${error.message}\n`;
  for (const issue of furtherIssues(error)) text += `  also: ${escapeLineBreaks(issue.path)} ${escapeLineBreaks(issue.message)}.\n`;
  if (!debug) return text;
  let current: unknown = error;
  let depth = 0;
  while (current instanceof Error && depth < 10) {
    text += `${depth === 0 ? '' : 'caused by: '}${current.stack ?? String(current)}\n`;
    current = current.cause;
    depth++;
  }
  // A thrown non-Error (a string, a plain object) is shown as written, not as "[object Object]".
  if (current !== undefined && !(current instanceof Error)) text += `caused by: ${typeof current === 'string' ? current : inspect(current)}\n`;
  return text;
}

/**
 * The problems after the first of an error that lists them all in details.issues
 * (ZB_MANIFEST_INVALID): its message names only the first, and a reader fixing a
 * manifest should see every one at once (issue 13). Malformed details show nothing.
 */
function furtherIssues(error: ZotboxError): readonly { path: string; message: string }[] {
  const issues = error.details?.['issues'];
  if (!Array.isArray(issues)) return [];
  const wellFormed = issues.every((issue: unknown) => {
    const { path, message } = (issue ?? {}) as { path?: unknown; message?: unknown };
    return typeof path === 'string' && typeof message === 'string';
  });
  return wellFormed ? (issues as { path: string; message: string }[]).slice(1) : [];
}

/** Control characters as \\u escapes, so a problem stays on its own line (the sanitizer drops the rest, not newlines). */
function escapeLineBreaks(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
