// Interactive chat for `zotbox run` on a terminal (issue 13, item 1): one readline
// prompt per message, drawn on a line of its own below the answer so it never
// erases it. While an answer streams, the terminal is in raw mode and Ctrl-C cancels
// that answer only (its signal); the terminal then gets its own Ctrl-C back, so a
// second one cancels the run. At the prompt, Ctrl-C, Ctrl-D on an empty line,
// /exit or /quit end the chat. The terminal is always left as it was found.
import { createInterface } from 'node:readline';
import type { UserMessage } from '../api/run.js';
import { sanitizeTerminalText } from '../api/terminal.js';
import type { CliIo } from './command-spec.js';

const END_COMMANDS = new Set(['/exit', '/quit']);
const CTRL_C = 0x03;
const HELP = '(Ctrl-C stops an answer; /exit, Ctrl-D or Ctrl-C at the prompt end the chat)\n';
const CANCELLED_NOTE = '■ answer cancelled (Ctrl-C again cancels the run)\n';

/** What the chat prints around: the run's text output, whose open line it can end. */
export interface ChatScreen {
  endLine(): void;
}

export interface Chat {
  readonly readPrompt: (context: { readonly first: boolean; readonly greeting: string }) => Promise<UserMessage | undefined>;
  /** The run is over: stop watching the keyboard and give the terminal back. */
  close(): void;
}

type TerminalInput = CliIo['stdin'] & { setRawMode?: (mode: boolean) => unknown };

export function chatInput(io: CliIo, screen: ChatScreen, cancelRun: () => void): Chat {
  let watcher: AnswerWatcher | undefined;
  const stopWatching = () => {
    watcher?.stop();
    watcher = undefined;
  };
  return {
    close: stopWatching,
    readPrompt: async ({ first, greeting }) => {
      stopWatching();
      screen.endLine();
      if (first) {
        // The greeting is the agent's text: sanitized before trimming, so a greeting of escape sequences prints nothing.
        const shown = sanitizeTerminalText(greeting, { keepColour: io.stdout.isTTY === true }).trim();
        if (shown !== '') io.stdout.write(`${shown}\n`);
        io.stdout.write(HELP);
      }
      for (;;) {
        const line = await readLine(io);
        if (line === undefined || END_COMMANDS.has(line.trim())) return undefined;
        if (line.trim() === '') continue;
        watcher = watchAnswer(
          io.stdin,
          () => {
            screen.endLine();
            io.stdout.write(CANCELLED_NOTE);
          },
          cancelRun,
        );
        return { text: line, signal: watcher.signal };
      }
    },
  };
}

interface AnswerWatcher {
  /** Aborted by the first Ctrl-C during the answer. */
  readonly signal: AbortSignal;
  stop(): void;
}

/**
 * Reads the keyboard in raw mode while an answer streams: the first Ctrl-C aborts
 * the answer's signal, then the terminal is handed back, so the next Ctrl-C is a
 * SIGINT and cancels the run as outside a chat. A second Ctrl-C read in the same
 * burst cancels the run at once. Other keys typed meanwhile are dropped: no echo
 * can land in the middle of the answer.
 */
function watchAnswer(stdin: TerminalInput, announce: () => void, cancelRun: () => void): AnswerWatcher {
  const controller = new AbortController();
  if (stdin.isTTY !== true || typeof stdin.setRawMode !== 'function') return { signal: controller.signal, stop: () => undefined };
  let watching = true;
  const onData = (chunk: Buffer | string) => {
    for (const byte of Buffer.from(chunk)) {
      if (byte !== CTRL_C) continue;
      if (controller.signal.aborted) cancelRun();
      else {
        controller.abort();
        announce();
      }
    }
    if (controller.signal.aborted) stop();
  };
  const stop = () => {
    if (!watching) return;
    watching = false;
    stdin.off('data', onData);
    stdin.pause();
    stdin.setRawMode?.(false);
  };
  stdin.setRawMode(true);
  stdin.on('data', onData);
  stdin.resume();
  return { signal: controller.signal, stop };
}

/** One line from a fresh readline interface, drawn below a blank line; undefined when the chat ends. */
function readLine(io: CliIo): Promise<string | undefined> {
  return new Promise((resolve) => {
    // readline needs a real stream to draw on; anything else gets plain prompts.
    const output = typeof (io.stdout as { on?: unknown }).on === 'function' ? (io.stdout as NodeJS.WritableStream) : undefined;
    // The blank line is written here, not in the prompt: readline redraws its prompt
    // from the start of the line, and a prompt holding a newline would clear the line above it.
    io.stdout.write('\n');
    const rl = createInterface({ input: io.stdin, ...(output === undefined ? {} : { output }), terminal: output !== undefined && io.stdin.isTTY === true, prompt: '› ' });
    let answered = false;
    const onAbort = () => finish(undefined);
    const finish = (value: string | undefined) => {
      if (answered) return;
      answered = true;
      // One listener per message would pile up on the run's signal over a long chat.
      io.signal?.removeEventListener('abort', onAbort);
      rl.close();
      resolve(value);
    };
    rl.once('line', (line) => finish(line));
    rl.once('SIGINT', () => finish(undefined));
    rl.once('close', () => finish(undefined));
    io.signal?.addEventListener('abort', onAbort, { once: true });
    if (output === undefined) io.stdout.write('› ');
    else rl.prompt();
  });
}
