// Where the events of `zotbox run` go, by output format: text (the default),
// json (one result document at the end), stream-json (the events as NDJSON, also
// --json) or the final answer alone (--print). In every format a run that did not
// complete prints its one-line error on stderr, before the text's total line.
import type { RunEvent } from '../api/run.js';
import { sanitizeTerminalText } from '../api/terminal.js';
import { ZotboxError, fromWireError } from '../errors.js';
import type { CliIo, ParsedCommand } from './command-spec.js';
import { formatError } from './error-output.js';
import { runResultCollector } from './run-summary.js';
import { textRenderer } from './run-text.js';
import { canShowStatus, statusLine } from './status-line.js';
import { runEventWriter, writeModelText, writeTerminalText } from './terminal-output.js';

export type RunOutputFormat = 'text' | 'json' | 'stream-json' | 'final-text';

const OUTPUT_FORMATS: readonly string[] = ['text', 'json', 'stream-json'];

/** The format the options ask for. --json is stream-json and --print the final text; options that disagree are a usage error. */
export function outputFormatOf(values: ParsedCommand['values']): RunOutputFormat {
  const named = values['output-format'];
  if (named !== undefined && (typeof named !== 'string' || !OUTPUT_FORMATS.includes(named))) {
    throw new ZotboxError('ZB_CLI_USAGE', `--output-format takes text, json or stream-json, got ${JSON.stringify(named)}. Run 'zotbox run --help' for what each prints.`);
  }
  const asked = new Map<RunOutputFormat, string>();
  if (typeof named === 'string') asked.set(named as RunOutputFormat, `--output-format ${named}`);
  if (values['json'] === true && !asked.has('stream-json')) asked.set('stream-json', '--json');
  if (values['print'] === true) asked.set('final-text', '--print');
  if (asked.size > 1) {
    throw new ZotboxError('ZB_CLI_USAGE', `${[...asked.values()].join(' and ')} ask for different outputs: give one (--json is --output-format stream-json; --print prints only the final answer).`);
  }
  return asked.keys().next().value ?? 'text';
}

const WARNING_LABEL = '\u001b[1;97;41m WARNING \u001b[0m';
const RED_BOLD = '\u001b[1;31m';
const RESET = '\u001b[0m';

export interface RunOutput {
  write(event: RunEvent): void;
  /** Called once iteration stops, with or without run.end: flushes what the text stream owes (a colour reset). */
  end(): void;
  /** Text: ends the line the answer left open, so a chat prompt starts on its own line (only text output has lines to end). */
  endLine?(): void;
  /** Text on a terminal: shows the status line for the model (a chat message was sent). */
  showWaiting?(): void;
}

/** Writes a run's events to io in the format; a run that did not complete also gets its error line on stderr. */
export function runOutput(format: RunOutputFormat, io: CliIo, options: { readonly chat: boolean } = { chat: false }): RunOutput {
  const sink = sinkFor(format, io, options.chat);
  return {
    write(event) {
      // On a terminal, each warning of run.start is loud, in colour, on stderr (issue 27); the event carries them everywhere.
      if (event.type === 'run.start' && event.warnings !== undefined && io.stderr.isTTY === true) {
        for (const warning of event.warnings) io.stderr.write(`${WARNING_LABEL} ${RED_BOLD}${sanitizeTerminalText(warning.message, { keepColour: false })}${RESET}\n`);
      }
      if (event.type === 'run.end' && event.error !== undefined) {
        sink.endLine?.(); // the status line is erased and the answer's line ended: the error starts a line of its own
        writeTerminalText(io.stderr, formatError(fromWireError(event.error), false));
      }
      sink.write(event);
    },
    end: () => sink.end(),
    endLine: () => sink.endLine?.(),
    showWaiting: () => sink.showWaiting?.(),
  };
}

function sinkFor(format: RunOutputFormat, io: CliIo, chat: boolean): RunOutput {
  switch (format) {
    case 'text': {
      // The status line only where it can be erased: a terminal, never --json, --print or a pipe.
      const view = textRenderer({ chat });
      return runEventWriter(io.stdout, view.render, view, canShowStatus(io.stdout, io.env) ? statusLine(io.stdout) : undefined);
    }
    case 'stream-json':
      return { write: (event) => io.stdout.write(`${JSON.stringify(event)}\n`), end: () => undefined };
    case 'json': {
      const collector = runResultCollector();
      return {
        write(event) {
          collector.add(event);
          if (event.type === 'run.end') io.stdout.write(`${JSON.stringify(collector.document(event))}\n`);
        },
        end: () => undefined,
      };
    }
    case 'final-text':
      return {
        write(event) {
          if (event.type === 'run.end' && event.final_text !== '') writeModelText(io.stdout, `${event.final_text}\n`);
        },
        end: () => undefined,
      };
  }
}
