// Writing text that came from an agent, a model, a tool or an archive to the
// CLI's streams (issue 9, item 7): everything passes the terminal-text sanitizer
// last, after any slicing or formatting, and colour survives only on a terminal.
import type { RunEvent } from '../api/run.js';
import { TerminalTextSanitizer, escapeControlCharacters, sanitizeTerminalText } from '../api/terminal.js';
import type { StatusLine } from './status-line.js';

export interface TextStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
}

const optionsFor = (stream: TextStream) => ({ keepColour: stream.isTTY === true });

/**
 * Writes one of zotbox's own reports or lines (inspect, verify, check, consent list,
 * run events), sanitized, without any colour: colour an agent's field left on could
 * otherwise hide or restyle the lines zotbox prints after it.
 */
export function writeTerminalText(stream: TextStream, text: string): void {
  const safe = sanitizeTerminalText(text, { keepColour: false });
  if (safe !== '') stream.write(safe);
}

/** Writes the model's own text (the final answer of --print), sanitized, colour kept on a terminal. */
export function writeModelText(stream: TextStream, text: string): void {
  const safe = sanitizeTerminalText(text, optionsFor(stream));
  if (safe !== '') stream.write(safe);
}

/**
 * One field of a report line (a version, a description, a path, a tool's output
 * summary) that came from an agent: control and invisible characters shown as
 * escapes (\u000a), so a field stays on its line and cannot fake the lines after it.
 */
export function field(text: string): string {
  return escapeControlCharacters(text);
}

/** Colour sequences, the only ones the sanitizer lets through: they do not move the cursor. */
const COLOUR = /\u001b\[[0-9;]*m/g;

/** What the text view adds around the events it renders (run-text.ts). */
export interface RunTextView {
  /** Text written before this model delta (a blank line after tool lines), or ''. */
  before?(event: RunEvent & { type: 'assistant.delta' }): string;
  /** The status line to show after this event while the run waits (on a terminal only), or undefined for none. */
  status?(event: RunEvent): string | undefined;
  /** The status line while the model is asked outside any event (a chat message was sent). */
  waiting?(): string;
}

export interface RunEventWriter {
  write(event: RunEvent): void;
  end(): void;
  endLine(): void;
  /** Shows the status line for the model now (a chat message was sent), if the stream has one. */
  showWaiting(): void;
}

/**
 * A writer for run events as text. Assistant deltas are one stream (a sequence
 * split across deltas is caught); any other event ends that stream first, so a
 * half-written sequence never swallows the lines zotbox prints itself, and a line
 * of zotbox's own always starts a line. `end` flushes what is owed (a colour reset)
 * and erases the status line when the run stops; `endLine` also ends the line it
 * left open, so what comes next (a chat prompt, a note, an error on stderr) starts
 * on a line of its own and cannot draw over the text (issue 13). The status line
 * (status-line.ts), when given, is erased before anything else is written.
 */
export function runEventWriter(stream: TextStream, render: (event: RunEvent) => string, view: RunTextView = {}, status?: StatusLine): RunEventWriter {
  const assistant = new TerminalTextSanitizer(optionsFor(stream));
  let atLineStart = true;
  const put = (text: string) => {
    if (text === '') return;
    status?.clear();
    stream.write(text);
    const visible = text.replace(COLOUR, '');
    if (visible !== '') atLineStart = visible.endsWith('\n');
  };
  const endAssistant = () => put(assistant.end());
  const showStatus = (text: string | undefined) => {
    if (status !== undefined && text !== undefined && atLineStart) status.show(text);
  };
  return {
    write(event) {
      if (event.type !== 'assistant.delta') {
        endAssistant();
        const own = sanitizeTerminalText(render(event), { keepColour: false });
        if (own !== '' && !atLineStart) put('\n');
        put(own);
        showStatus(view.status?.(event));
        return;
      }
      const before = view.before?.(event) ?? '';
      put(assistant.feed(before + event.text));
    },
    end() {
      endAssistant();
      status?.clear();
    },
    endLine() {
      endAssistant();
      status?.clear();
      if (!atLineStart) put('\n');
    },
    showWaiting: () => showStatus(view.waiting?.()),
  };
}
