// The files a run will write (a --record transcript, a --session file), checked
// before the run loads, asks consent or calls a model (issue 13): a run must not
// spend a model call and then fail to keep its result. Only looks; never creates
// anything. The write itself can still fail later (a full disk) and says so then.
import { accessSync, constants, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { ZotboxError } from '../../errors.js';

/** What the file is for: named in the message with the option that chose it. */
export type OutputPurpose = 'record' | 'session';

const PURPOSES: Readonly<Record<OutputPurpose, { readonly what: string; readonly option: string }>> = {
  record: { what: 'the replay transcript', option: '--record' },
  session: { what: 'the session', option: '--session' },
};

/** Throws ZB_IO_FAILED unless `file` is an existing regular file, or a new name in an existing directory, that this process may write. */
export function checkOutputFile(file: string, purpose: OutputPurpose): void {
  const directory = path.dirname(file);
  const refuse = (errno: string, problem: string, fix: string) => {
    const { what, option } = PURPOSES[purpose];
    throw new ZotboxError('ZB_IO_FAILED', `cannot write ${what} (${option}) to ${file}: ${problem}. Fix: ${fix}.`, { details: { path: file, errno } });
  };
  const target = statOf(file);
  if (target === 'missing') {
    const parent = statOf(directory);
    if (parent === 'missing') refuse('ENOENT', `its directory ${directory} does not exist`, 'create the directory first, or choose a file in an existing one');
    if (parent === 'not-a-directory' || (typeof parent === 'object' && !parent.isDirectory())) refuse('ENOTDIR', `${directory} is not a directory`, 'choose a file in a directory');
    if (!writable(directory)) refuse('EACCES', `you may not create files in ${directory}`, 'choose a directory you can write to');
    return;
  }
  if (target === 'not-a-directory') refuse('ENOTDIR', `a part of ${directory} is not a directory`, 'choose a file in a directory');
  if (typeof target === 'object' && target.isDirectory()) refuse('EISDIR', 'it is a directory', 'name a file, for example a new file inside that directory');
  if (typeof target === 'object' && !target.isFile()) refuse('EINVAL', 'it is not a regular file', 'name a regular file');
  // The transcript is written beside the file and renamed over it, so its directory must be writable too.
  if (!writable(file) || (purpose === 'record' && !writable(directory))) refuse('EACCES', 'permission denied', 'choose a file you can write to');
}

function statOf(file: string): Stats | 'missing' | 'not-a-directory' {
  try {
    return statSync(file);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR') return 'not-a-directory';
    if (code === 'ENOENT') return 'missing';
    throw new ZotboxError('ZB_IO_FAILED', `cannot check ${file} before the run: ${(cause as Error).message}. Fix: choose another file.`, { cause, details: { path: file, errno: code ?? 'error' } });
  }
}

function writable(file: string): boolean {
  try {
    accessSync(file, constants.W_OK);
    return true;
  } catch {
    // Not writable (or gone since stat): the caller refuses it with the reason.
    return false;
  }
}
