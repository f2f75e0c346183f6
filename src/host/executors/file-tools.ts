// The read, write and edit executors. Each takes only an approved decision,
// re-checks the canonical path at the moment of the effect (file-guard.ts), and
// returns a JSON-safe result for the agent.
import { closeSync, fstatSync, readSync } from 'node:fs';
import { ZotboxError } from '../../errors.js';
import type { ApprovedPath } from '../../policy/gate-server.js';
import { openApprovedForRead, writeApproved, type FileGuardProbe } from './file-guard.js';

/** Largest file the read tool loads; larger ones are an error that says how to read a part. */
export const MAX_READ_FILE_BYTES = 16 * 1024 * 1024;
/** Most text one read returns. */
export const MAX_READ_RESULT_BYTES = 256 * 1024;
export const DEFAULT_READ_LINES = 2000;

export interface ReadResult {
  readonly path: string;
  readonly size: number;
  readonly binary: boolean;
  /** The lines returned, without the ones skipped by offset. */
  readonly content: string;
  /** 1-based number of the first line returned, and of the last. */
  readonly startLine: number;
  readonly endLine: number;
  readonly totalLines: number;
  /** True when limit or the size cap cut lines off. */
  readonly truncated: boolean;
}

function readWhole(canonical: string, probe: FileGuardProbe | undefined): Buffer {
  const fd = openApprovedForRead(canonical, probe);
  try {
    const size = fstatSync(fd).size;
    if (size > MAX_READ_FILE_BYTES) {
      throw new ZotboxError(
        'ZB_EXEC_FILE_TOO_LARGE',
        `${canonical} is ${size} bytes; the read tool loads at most ${MAX_READ_FILE_BYTES}. Search it with grep, or ask the user for the part you need.`,
        {
          details: { path: canonical, size },
        },
      );
    }
    const buffer = Buffer.allocUnsafe(size);
    let filled = 0;
    while (filled < size) {
      const read = readSync(fd, buffer, filled, size - filled, filled);
      if (read === 0) break; // shrank while reading: return what is there
      filled += read;
    }
    return buffer.subarray(0, filled);
  } finally {
    closeSync(fd);
  }
}

/** NUL in the first 8 KiB, or text that is not UTF-8: shown to the model as binary, without content. */
function isBinary(bytes: Buffer): boolean {
  if (bytes.subarray(0, 8192).includes(0)) return true;
  try {
    // stream: a multi-byte character cut at the end of the 64 KiB sample is not an error.
    new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, 65536), { stream: bytes.length > 65536 });
    return false;
  } catch {
    return true; // not UTF-8: shown as binary rather than as replacement characters
  }
}

/** `probe` is a test seam (file-guard.ts); production callers never pass it. */
export function executeRead(decision: ApprovedPath, input: ReadWindow, probe?: FileGuardProbe): ReadResult {
  return readResultFrom(decision.canonicalPath, readWhole(decision.canonicalPath, probe), input);
}

export interface ReadWindow {
  readonly offset?: number | undefined;
  readonly limit?: number | undefined;
}

/** What the read tool returns for a file's bytes (from disk, or from the agent's package at /zotbox). */
export function readResultFrom(shown: string, bytes: Buffer, input: ReadWindow): ReadResult {
  if (bytes.length > MAX_READ_FILE_BYTES) {
    throw new ZotboxError(
      'ZB_EXEC_FILE_TOO_LARGE',
      `${shown} is ${bytes.length} bytes; the read tool loads at most ${MAX_READ_FILE_BYTES}. Search it with grep, or ask the user for the part you need.`,
      {
        details: { path: shown, size: bytes.length },
      },
    );
  }
  if (isBinary(bytes)) {
    return { path: shown, size: bytes.length, binary: true, content: '', startLine: 0, endLine: 0, totalLines: 0, truncated: false };
  }
  const lines = bytes.toString('utf8').split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const offset = input.offset ?? 0;
  const limit = input.limit ?? DEFAULT_READ_LINES;
  const selected: string[] = [];
  let size = 0;
  let truncated = offset + limit < lines.length;
  for (const line of lines.slice(offset, offset + limit)) {
    size += Buffer.byteLength(line) + 1;
    if (size > MAX_READ_RESULT_BYTES) {
      truncated = true;
      break;
    }
    selected.push(line);
  }
  return {
    path: shown,
    size: bytes.length,
    binary: false,
    content: selected.join('\n'),
    startLine: selected.length === 0 ? 0 : offset + 1,
    endLine: offset + selected.length,
    totalLines: lines.length,
    truncated,
  };
}

export function executeWrite(decision: ApprovedPath, input: { content: string }, probe?: FileGuardProbe): { path: string; bytes: number; created: boolean } {
  const result = writeApproved(decision.canonicalPath, input.content, probe);
  return { path: decision.canonicalPath, ...result };
}

/** Replaces exactly one occurrence of old_string; zero or several are errors that say so. */
export function executeEdit(decision: ApprovedPath, input: { old_string: string; new_string: string }, probe?: FileGuardProbe): { path: string; bytes: number } {
  const text = readWhole(decision.canonicalPath, probe).toString('utf8');
  const first = text.indexOf(input.old_string);
  if (first === -1) {
    throw new ZotboxError('ZB_EXEC_EDIT_NO_MATCH', `the text to replace does not occur in ${decision.canonicalPath}. Read the file again and copy the exact text, whitespace included.`, {
      details: { path: decision.canonicalPath },
    });
  }
  let count = 0;
  for (let at = first; at !== -1; at = text.indexOf(input.old_string, at + input.old_string.length)) count++;
  if (count > 1) {
    throw new ZotboxError('ZB_EXEC_EDIT_AMBIGUOUS', `the text to replace occurs ${count} times in ${decision.canonicalPath}; include more surrounding lines so it occurs once.`, {
      details: { path: decision.canonicalPath, occurrences: count },
    });
  }
  const updated = text.slice(0, first) + input.new_string + text.slice(first + input.old_string.length);
  const { bytes } = writeApproved(decision.canonicalPath, updated, probe);
  return { path: decision.canonicalPath, bytes };
}
