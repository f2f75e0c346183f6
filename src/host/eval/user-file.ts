// Reading a file the user named on the command line (a suite, a report for
// merge or --last-failed): opened without blocking (a FIFO never waits for a
// writer), checked with fstat on the open descriptor to be a regular file within
// a size bound, then read. A link the user named is followed: the user chose it.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

const OPEN_PROBLEMS: Readonly<Record<string, string>> = { ENOENT: 'it does not exist', EACCES: 'permission denied', EISDIR: 'it is a directory', ENOTDIR: 'a parent is not a directory' };

export type UserFileRead = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly problem: string; readonly errno?: string };

export function readUserFile(file: string, maxBytes: number): UserFileRead {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (cause) {
    const errno = (cause as NodeJS.ErrnoException).code ?? 'error';
    return { ok: false, problem: `${OPEN_PROBLEMS[errno] ?? 'it cannot be read'} (${errno})`, errno };
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return { ok: false, problem: 'it is not a regular file' };
    if (stats.size > maxBytes) return { ok: false, problem: `it is ${stats.size} bytes, over the ${maxBytes}-byte limit` };
    const buffer = Buffer.alloc(stats.size);
    let total = 0;
    for (let read = -1; read !== 0 && total < buffer.length; total += read) read = readSync(fd, buffer, total, buffer.length - total, null);
    return { ok: true, text: buffer.subarray(0, total).toString('utf8') };
  } catch (cause) {
    const errno = (cause as NodeJS.ErrnoException).code ?? 'error';
    return { ok: false, problem: `it cannot be read (${errno})`, errno };
  } finally {
    closeSync(fd);
  }
}
