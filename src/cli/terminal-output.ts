// Writing text that came from an agent, a model, a tool or an archive to the
// CLI's streams (issue 9, item 7): everything passes the terminal-text sanitizer
// last, after any slicing or formatting, and colour survives only on a terminal.
import type { RunEvent } from '../api/run.js';
import { TerminalTextSanitizer, escapeControlCharacters, sanitizeTerminalText } from '../api/terminal.js';

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

/**
 * A writer for run events as text. Assistant deltas are one stream (a sequence
 * split across deltas is caught); any other event ends that stream first, so a
 * half-written sequence never swallows the lines zotbox prints itself. `end`
 * flushes what is owed (a colour reset) when the run stops without run.end;
 * `endLine` also ends the line it left open, so what comes next (a chat prompt,
 * a note) starts on a line of its own and cannot draw over the text (issue 13).
 */
export function runEventWriter(stream: TextStream, render: (event: RunEvent) => string): { write(event: RunEvent): void; end(): void; endLine(): void } {
  const assistant = new TerminalTextSanitizer(optionsFor(stream));
  let atLineStart = true;
  const put = (text: string) => {
    if (text === '') return;
    stream.write(text);
    const visible = text.replace(COLOUR, '');
    if (visible !== '') atLineStart = visible.endsWith('\n');
  };
  const endAssistant = () => put(assistant.end());
  return {
    write(event) {
      if (event.type !== 'assistant.delta') {
        endAssistant();
        put(sanitizeTerminalText(render(event), { keepColour: false }));
        return;
      }
      put(assistant.feed(event.text));
    },
    end: endAssistant,
    endLine() {
      endAssistant();
      if (!atLineStart) put('\n');
    },
  };
}
