// The prompt of `zotbox run`: the PROMPT argument, or standard input. "-" reads
// all of stdin (UTF-8; empty is an error); with no PROMPT, a stdin that is a pipe
// or a redirected file is read too, and an empty one leaves the agent's
// entry.default_prompt. Never read without "-": a terminal (it belongs to the
// chat), a socket (a program that spawned zotbox and may never close it), a device.
import { fstatSync } from 'node:fs';
import { ZotboxError } from '../errors.js';
import type { CliIo } from './command-spec.js';

/** The largest prompt read from stdin: the write tool's largest content, the size of text a message is built to carry. */
const MAX_PROMPT_BYTES = 64 * 1024 * 1024;

/** The prompt to run with, or undefined for the agent's default prompt (or the chat). */
export async function promptFor(argument: string | undefined, stdin: CliIo['stdin']): Promise<string | undefined> {
  if (argument === '-') {
    const text = await readAll(stdin);
    if (text.trim() === '') {
      throw new ZotboxError('ZB_RUN_NO_PROMPT', 'the prompt "-" reads standard input, which was empty. Fix: pipe the prompt in (echo "what to do" | zotbox run AGENT -), or give it as an argument.');
    }
    return text;
  }
  if (argument !== undefined || !isPipeOrFile(stdin)) return argument;
  const piped = await readAll(stdin);
  return piped.trim() === '' ? undefined : piped;
}

/** True for a stdin that is a pipe (`echo … | zotbox run`) or a file (`< request.txt`); a stream without a descriptor is an embedder's, read only with "-". */
function isPipeOrFile(stdin: CliIo['stdin']): boolean {
  const fd = (stdin as { fd?: unknown }).fd;
  if (typeof fd !== 'number' || stdin.isTTY === true) return false;
  try {
    const stat = fstatSync(fd);
    return stat.isFIFO() || stat.isFile();
  } catch {
    // A descriptor that cannot be examined is not read: no prompt is taken from it.
    return false;
  }
}

async function readAll(stdin: CliIo['stdin']): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    size += bytes.length;
    if (size > MAX_PROMPT_BYTES) {
      throw new ZotboxError(
        'ZB_OPTION_INVALID',
        `the prompt on standard input is larger than ${MAX_PROMPT_BYTES / 1024 / 1024} MiB, the largest message zotbox sends. Fix: give the model a file to read instead.`,
        {
          details: { option: 'prompt', maxBytes: MAX_PROMPT_BYTES },
        },
      );
    }
    chunks.push(bytes);
  }
  const bytes = Buffer.concat(chunks);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (cause) {
    throw new ZotboxError('ZB_OPTION_INVALID', 'the prompt on standard input is not valid UTF-8 text. Fix: convert it first (iconv -t UTF-8), or give the model the file to read.', {
      cause,
      details: { option: 'prompt' },
    });
  }
}
