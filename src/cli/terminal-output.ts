// Writing text that came from an agent, a model, a tool or an archive to the
// CLI's streams (issue 9, item 7): everything passes the terminal-text sanitizer
// last, after any slicing or formatting, and colour survives only on a terminal.
import { type RunEvent, TerminalTextSanitizer, sanitizeTerminalText } from '../index.js';

export interface TextStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
}

const optionsFor = (stream: TextStream) => ({ keepColour: stream.isTTY === true });

/** Writes one complete piece of text, sanitized for this stream. */
export function writeTerminalText(stream: TextStream, text: string): void {
  const safe = sanitizeTerminalText(text, optionsFor(stream));
  if (safe !== '') stream.write(safe);
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
