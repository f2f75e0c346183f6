// Interactive chat input for `zotbox run` on a terminal: one readline prompt per
// user message. A fresh interface per message, so between messages the terminal
// is back in its normal mode and Ctrl-C cancels the run in flight as usual;
// while reading, Ctrl-C, Ctrl-D, /exit or /quit end the chat.
import { createInterface } from 'node:readline';
import { sanitizeTerminalText } from '../api/terminal.js';
import type { CliIo } from './command-spec.js';

const END_COMMANDS = new Set(['/exit', '/quit']);

export function chatInput(io: CliIo): (context: { readonly first: boolean; readonly greeting: string }) => Promise<string | undefined> {
  return async ({ first, greeting }) => {
    if (first) {
      // The greeting is the agent's text: sanitized before trimming, so a greeting of escape sequences prints nothing.
      const shown = sanitizeTerminalText(greeting, { keepColour: io.stdout.isTTY === true }).trim();
      if (shown !== '') io.stdout.write(`${shown}\n`);
      io.stdout.write('(an empty line is skipped; /exit or Ctrl-D ends the chat)\n');
    }
    for (;;) {
      const line = await readLine(io);
      if (line === undefined || END_COMMANDS.has(line.trim())) return undefined;
      if (line.trim() !== '') return line;
    }
  };
}

function readLine(io: CliIo): Promise<string | undefined> {
  return new Promise((resolve) => {
    // readline needs a real stream to draw on; anything else gets plain prompts.
    const output = typeof (io.stdout as { on?: unknown }).on === 'function' ? (io.stdout as NodeJS.WritableStream) : undefined;
    const rl = createInterface({ input: io.stdin, ...(output === undefined ? {} : { output }), terminal: output !== undefined && io.stdin.isTTY === true, prompt: '\n› ' });
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
    if (output === undefined) io.stdout.write('\n› ');
    else rl.prompt();
  });
}
