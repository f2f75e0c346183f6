// How git reads the files that send it to another directory: a gitfile (`.git` as a file, setup.c
// read_gitfile_gently) and a git directory's `commondir` (get_common_dir_noenv). zotbox must read them exactly as
// git does: a directory zotbox reads another name from than git is a directory zotbox never judges.
import { isUtf8 } from 'node:buffer';
import { readlinkSync } from 'node:fs';

/** The C string git is left with: the first NUL ends it. */
function upToNul(text: string): string {
  const nul = text.indexOf('\0');
  return nul === -1 ? text : text.slice(0, nul);
}

/** As git reads these files: the line ends at the end of the whole file taken off first, then the first NUL ends it; nothing else trimmed. */
function asGitReadsIt(text: string): string {
  return upToNul(text.replace(/[\r\n]+$/u, ''));
}

/**
 * The directory a gitfile's text names, as written (relative to the gitfile's folder unless absolute): git requires
 * `gitdir: ` at the very start, then takes the rest of the file less its trailing line ends, spaces and later lines
 * included. Undefined when git finds no path in it (it then refuses the repository).
 */
export function gitfileDirectory(text: string): string | undefined {
  const read = asGitReadsIt(text);
  if (!read.startsWith('gitdir: ')) return undefined;
  const written = read.slice('gitdir: '.length);
  return written === '' ? undefined : written;
}

/** The common directory a `commondir` file's text names (relative to its git directory unless absolute), as git reads it. */
export function commondirDirectory(text: string): string | undefined {
  const written = asGitReadsIt(text);
  return written === '' ? undefined : written;
}

/**
 * Where a linked worktree is, from its `worktrees/NAME/gitdir` file (worktree.c get_linked_worktree): trailing
 * whitespace taken off (strbuf_rtrim), the first NUL ends it, then a trailing `/.git` is taken off.
 */
export function worktreeLocation(text: string): string | undefined {
  const written = upToNul(text.replace(/[ \t\n\v\f\r]+$/u, ''));
  const folder = written.endsWith('/.git') ? written.slice(0, -'/.git'.length) : written;
  return folder === '' ? undefined : folder;
}

/**
 * Marks a pointer text that is not UTF-8 (a gitfile's bytes, a link's target): Node spells paths as strings, so zotbox
 * cannot follow it to what git opens. `spelled` gives such a text as this mark and the bytes in hex, so two texts
 * compare equal only when their bytes are equal, and a link put back gets its own bytes again (linkTargetOf).
 */
export const UNSPELLABLE = '\u0000zotbox: a path that is not UTF-8:';

/** The bytes as a string when they are UTF-8 exactly (a U+FFFD spelled in UTF-8 included), else UNSPELLABLE and the bytes in hex. */
export function spelled(raw: Buffer): string {
  return isUtf8(raw) ? raw.toString('utf8') : `${UNSPELLABLE}${raw.toString('hex')}`;
}

/** Whether `text` is a `spelled` text that is not UTF-8 (it names nothing zotbox can look at). */
export function isUnspellable(text: string | undefined): boolean {
  return text?.startsWith(UNSPELLABLE) === true;
}

/** A link's target as `readlinkSync` would give it, compared by bytes (`spelled`). */
export function linkTextOf(link: string): string {
  return spelled(readlinkSync(link, { encoding: 'buffer' }));
}

/** What to hand `symlinkSync` to make a link whose target is `text` (a `spelled` text): its own bytes. */
export function linkTargetOf(text: string): string | Buffer {
  return isUnspellable(text) ? Buffer.from(text.slice(UNSPELLABLE.length), 'hex') : text;
}
