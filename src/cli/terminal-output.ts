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

/**
 * A writer for run events as text. Assistant deltas are one stream (a sequence
 * split across deltas is caught); any other event ends that stream first, so a
 * half-written sequence never swallows the lines zotbox prints itself. `end`
 * flushes what is owed (a colour reset) when the run stops without run.end.
 */
export function runEventWriter(stream: TextStream, render: (event: RunEvent) => string): { write(event: RunEvent): void; end(): void } {
  const assistant = new TerminalTextSanitizer(optionsFor(stream));
  const endAssistant = () => {
    const flushed = assistant.end();
    if (flushed !== '') stream.write(flushed);
  };
  return {
    write(event) {
      if (event.type !== 'assistant.delta') {
        endAssistant();
        writeTerminalText(stream, render(event));
        return;
      }
      const safe = assistant.feed(event.text);
      if (safe !== '') stream.write(safe);
    },
    end: endAssistant,
  };
}
