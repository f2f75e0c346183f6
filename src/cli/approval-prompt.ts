// The approval prompt of `zotbox run --approve` (issue 27 §6): asks on the terminal,
// on stderr, about a command the gate denied only because its program is not in the
// allowlist. It is drawn on lines of its own, after the run's output so far (the
// library asks only once every earlier event was handled, and the caller holds later
// output while it is open), so nothing the model streams can draw into it. Every
// program and argument is shown escaped: control characters, ANSI sequences, line
// breaks and bidi characters appear as visible \uXXXX escapes, never interpreted.
import type { ApprovalAnswer, ApprovalRequest, AskApproval } from '../api/run.js';
import { escapeControlCharacters } from '../api/terminal.js';
import { ZotboxError } from '../errors.js';
import { AnswerKeys } from './answer-keys.js';
import type { CliIo } from './command-spec.js';
import { discardTypeAhead } from './type-ahead.js';

/** Longer arguments are cut in the prompt, saying how much is not shown (the gate decided all of it). */
const ARGUMENT_LIMIT = 300;

type TerminalInput = CliIo['stdin'] & { setRawMode?: (mode: boolean) => unknown; isRaw?: boolean };

/** --approve needs someone to ask: stdin to answer on and stderr to ask on, both terminals (also with --json). */
export function requireApprovalTerminal(io: CliIo): void {
  const missing = [io.stdin.isTTY === true ? undefined : 'standard input', io.stderr.isTTY === true ? undefined : 'standard error'].filter((s) => s !== undefined);
  if (missing.length === 0) return;
  throw new ZotboxError(
    'ZB_APPROVE_NO_TERMINAL',
    `--approve asks you about each command outside the agent's allowlist at the terminal, and ${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} not a terminal, so nobody could answer. Fix: run on a terminal, or without --approve (commands outside the allowlist are then denied; add the ones you trust to permissions.bash.allow).`,
    { details: { missing } },
  );
}

/** One word of a command, quoted and escaped so that it reads as exactly what runs. */
export function shownWord(word: string): string {
  const cut = word.length > ARGUMENT_LIMIT ? word.slice(0, ARGUMENT_LIMIT) : word;
  const escaped = escapeControlCharacters(cut.replace(/\\/g, '\\\\').replace(/"/g, '\\"'));
  return `"${escaped}"${cut === word ? '' : ` … (${word.length - ARGUMENT_LIMIT} more characters)`}`;
}

/** The prompt's text: framed, on lines of its own, the parsed command word by word. */
export function formatApprovalPrompt(request: ApprovalRequest): string {
  const name = escapeControlCharacters(request.program.name);
  const lines = [
    '',
    '┌─ zotbox: approve a command outside the allowlist ─',
    `│ The agent wants to run ${shownWord(request.program.name)} (${escapeControlCharacters(request.program.program)}), which is not in its bash allowlist.`,
  ];
  request.argv.forEach((argv, index) => {
    // Assignments run with the program (in its environment): shown before it, each escaped like any word.
    const assignments = (request.assignments?.[index] ?? []).map((assignment) => `${shownWord(assignment)} `).join('');
    lines.push(`│ command ${index + 1}: ${assignments}${shownWord(argv[0] ?? '')}`);
    argv.slice(1).forEach((word, n) => lines.push(`│   argument ${n + 1}: ${shownWord(word)}`));
  });
  if (request.program.noArgumentRule === true) {
    // No rule: promising argument rules would be false; only confinement stands between it and its arguments.
    lines.push('│ Approving waives only the allowlist. zotbox has no argument rule for it:', '│ nothing checks its arguments; only the sandbox bounds what it does.');
  } else {
    lines.push('│ Approving waives only the allowlist: it still runs confined,', "│ within the agent's scopes and argument rules.");
  }
  lines.push(`└─ Run it? [o]nce, [a]lways ${name} this session, [N]o: `);
  return lines.join('\n');
}

/**
 * Reads one answer in raw mode, as keys (answer-keys.ts: escape sequences and pastes dropped whole):
 * o, a or n set it (the first counts), Backspace clears it, Enter confirms
 * (none is No), Ctrl-C is No and interrupts, end of input is No. The terminal's mode and flow are restored
 * after, so a chat's watcher of the keyboard goes on as before.
 */
function readAnswer(stdin: TerminalInput, echo: (text: string) => void, signal: AbortSignal): Promise<ApprovalAnswer | 'interrupted'> {
  const wasRaw = stdin.isRaw === true;
  const wasFlowing = (stdin as { readableFlowing?: boolean | null }).readableFlowing === true;
  return new Promise((resolve) => {
    let answer: ApprovalAnswer | undefined;
    const finish = (result: ApprovalAnswer | 'interrupted') => {
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      signal.removeEventListener('abort', onAbort);
      stdin.setRawMode?.(wasRaw);
      if (!wasFlowing) stdin.pause();
      resolve(result);
    };
    const onEnd = () => finish('no');
    const onAbort = () => {
      echo('(cancelled)\n');
      finish('no');
    };
    const keys: Record<string, ApprovalAnswer> = { o: 'once', O: 'once', a: 'session', A: 'session', n: 'no', N: 'no' };
    const parser = new AnswerKeys();
    const onData = (chunk: Buffer | string) => {
      for (const key of parser.read(Buffer.from(chunk))) {
        if (key.kind === 'interrupt') {
          echo('^C\n');
          return finish('interrupted');
        }
        if (key.kind === 'enter') {
          echo('\n');
          return finish(answer ?? 'no');
        }
        if (key.kind === 'erase' && answer !== undefined) {
          answer = undefined;
          echo('\b \b');
        } else if (key.kind === 'letter' && answer === undefined && keys[key.letter] !== undefined) {
          answer = keys[key.letter];
          echo(key.letter);
        }
      }
    };
    if (signal.aborted) return finish('no');
    // Input that ended while the run streamed (its waiting keys discarded): nobody is left to answer.
    if ((stdin as { readableEnded?: boolean }).readableEnded === true) return finish('no');
    signal.addEventListener('abort', onAbort, { once: true });
    stdin.on('data', onData);
    stdin.on('end', onEnd);
    stdin.setRawMode?.(true);
    stdin.resume();
  });
}

export interface ApprovalScreen {
  /** Ends the run output's open line and erases its status line; output is held until `after`. */
  before(): void;
  after(): void;
  /** Ctrl-C at the prompt: the answer is No, and this says what else stops. */
  interrupted(): void;
}

/** The approver `zotbox run --approve` gives the library: one prompt at a time (the library asks so). */
export function terminalApprover(io: CliIo, screen: ApprovalScreen): AskApproval {
  const stdin = io.stdin as TerminalInput;
  const echo = (text: string) => io.stderr.write(text.replace(/\n/g, '\r\n'));
  return async (request, signal) => {
    screen.before();
    try {
      // Keys typed before the question was on screen are not its answer (adv27).
      discardTypeAhead(stdin);
      echo(formatApprovalPrompt(request));
      const answer = await readAnswer(stdin, echo, signal);
      if (answer !== 'interrupted') return answer;
      screen.interrupted();
      return 'no';
    } finally {
      screen.after();
    }
  };
}
