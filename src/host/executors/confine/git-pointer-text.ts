// How git reads the two files that send it to another directory: a gitfile (`.git` as a file, setup.c
// read_gitfile_gently) and a git directory's `commondir` (get_common_dir_noenv). zotbox must read them exactly as
// git does: a directory zotbox reads another name from than git is a directory zotbox never judges.

/** The text up to the first NUL (git reads the file as a C string), less trailing line ends, and nothing else trimmed. */
function asGitReadsIt(text: string): string {
  const nul = text.indexOf('\0');
  return (nul === -1 ? text : text.slice(0, nul)).replace(/[\r\n]+$/u, '');
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
