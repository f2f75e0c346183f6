// The status line of `zotbox run` on a terminal (issue 27, item 5): one line with a
// spinner while the run waits on the model or a tool, drawn at the start of an empty
// line and erased before anything else is written. Never on a pipe, a dumb terminal,
// or a stream whose width is unknown (a line that wraps could not be erased).
import { escapeControlCharacters } from '../api/terminal.js';

export interface StatusStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface StatusLine {
  /** Draws (or redraws) the line with this text; the caller is at the start of an empty line. */
  show(text: string): void;
  /** Erases the line, if shown, leaving the cursor where it was drawn. */
  clear(): void;
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
/** How often the spinner turns. Only the drawing waits on this timer: nothing is decided by it. */
const FRAME_MS = 100;
const ERASE = '\r\u001b[2K';

/** Whether a status line can be drawn and erased on this stream. */
export function canShowStatus(stream: StatusStream, env: Readonly<Record<string, string | undefined>>): boolean {
  return stream.isTTY === true && typeof stream.columns === 'number' && stream.columns > 10 && env['TERM'] !== 'dumb';
}

export function statusLine(stream: StatusStream): StatusLine {
  let text: string | undefined;
  let frame = 0;
  let timer: NodeJS.Timeout | undefined;
  const draw = () => {
    if (text === undefined) return;
    const width = (stream.columns ?? 80) - 3;
    const shown = text.length > width ? `${text.slice(0, width - 1)}…` : text;
    stream.write(`${ERASE}\u001b[2m${FRAMES[frame % FRAMES.length] ?? ''} ${shown}\u001b[0m`);
    frame++;
  };
  return {
    show(next) {
      text = escapeControlCharacters(next);
      draw();
      if (timer === undefined) {
        timer = setInterval(draw, FRAME_MS);
        timer.unref(); // a status line never keeps the process alive
      }
    },
    clear() {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
      if (text === undefined) return;
      text = undefined;
      stream.write(ERASE);
    },
  };
}
