// A shell script's text as bash itself reads it: `bash --pretty-print` parses the script and prints it back, running
// nothing, with comments gone, continuations joined, each command on a line of its own and here-documents as bash
// took them. The readers of values read this text, since every reader zotbox wrote of comments, quotes and
// here-documents was wrong somewhere (a `#` inside a word, a case pattern's `)` inside `"$( )"`, a here-document line
// ending in a backslash). extglob is on, so a pattern a script turns it on for parses. Where bash cannot print the
// text (a syntax error, a bash before 5.2 with no --pretty-print, no bash at all), the answer is undefined, and the
// caller takes no value in the script as its own.
import { spawnSync } from 'node:child_process';

/** The bash that prints, by its absolute path (never the user's PATH): the first of these that runs. */
const BASH_PATHS = ['/bin/bash', '/usr/bin/bash'];
/** The texts printed last (a hook is read after every command of a run). */
const printed = new Map<string, string | undefined>();
const KEPT_TEXTS = 64;

/** `text` as bash prints it back after parsing it, or undefined where bash cannot. */
export function bashPrintedText(text: string): string | undefined {
  if (printed.has(text)) return printed.get(text);
  const answer = print(text);
  if (printed.size >= KEPT_TEXTS) printed.delete(printed.keys().next().value!);
  printed.set(text, answer);
  return answer;
}

function print(text: string): string | undefined {
  for (const bash of BASH_PATHS) {
    const run = spawnSync(bash, ['--pretty-print', '-O', 'extglob'], { input: text, env: {}, cwd: '/', encoding: 'utf8', timeout: 10_000, maxBuffer: 8 * 1024 * 1024 });
    if (run.error !== undefined && (run.error as NodeJS.ErrnoException).code === 'ENOENT') continue;
    return run.error === undefined && run.status === 0 && run.stderr === '' ? run.stdout : undefined;
  }
  return undefined;
}
