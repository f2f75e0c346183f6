// What the entries of a git config (read by git-config-text.ts, as git reads them) name: the words of a value that
// are paths, the keys whose values git never runs, and the programs git derives a name for. Pure, no I/O. What a
// command value names is read by shell-command-words.ts.
import type { ConfigEntry } from './git-config-text.js';

/**
 * The words of a value that name a file: a shell command's words and option
 * values ("--upload-pack=./x"), split at blanks, quotes and shell operators,
 * kept when they hold a "/" or start with "~" (a bare name is looked up on PATH).
 */
export function pathWords(value: string): string[] {
  return value
    .split(/[\s"'`;|&()<>=,!]+/u)
    .map((word) => word.replace(/^file:\/\//u, ''))
    .filter((word) => word.includes('/') || word.startsWith('~'));
}

/**
 * Keys whose values git never runs and never reads as a program (data: names, colours, refspecs, formats, patterns).
 * Their values are read leniently (pathWords). Every other key is read as a command git may hand to a shell, from the
 * top of the worktree (commandWords): the closed world is the list of keys that run nothing, not of keys that do.
 * Entries: "section.key" (no subsection), "section.*.key" (any subsection), "section.*" (every key, no subsection).
 */
const DATA_KEYS: readonly string[] = [
  'user.*',
  'color.*',
  'advice.*',
  'i18n.*',
  'column.*',
  'status.*',
  'log.*',
  'pretty.*',
  'extensions.*',
  'safe.directory',
  'init.defaultbranch',
  'format.pretty',
  'core.repositoryformatversion',
  'core.filemode',
  'core.bare',
  'core.logallrefupdates',
  'core.ignorecase',
  'core.precomposeunicode',
  'core.symlinks',
  'core.autocrlf',
  'core.eol',
  'core.safecrlf',
  'core.quotepath',
  'core.whitespace',
  'core.abbrev',
  'core.compression',
  'core.commentchar',
  'core.commentstring',
  'remote.*.fetch',
  'remote.*.push',
  'remote.*.tagopt',
  'remote.*.prune',
  'remote.*.mirror',
  'branch.*.remote',
  'branch.*.pushremote',
  'branch.*.merge',
  'branch.*.rebase',
  'branch.*.description',
  'push.default',
  'push.autosetupremote',
  'pull.rebase',
  'pull.ff',
  'fetch.prune',
  'merge.conflictstyle',
  'rebase.autosquash',
  'rebase.autostash',
  'rebase.updaterefs',
  'rerere.enabled',
  'commit.verbose',
  'diff.algorithm',
  'diff.colormoved',
  'diff.renames',
  'help.autocorrect',
];

/** True when git never runs the value of this entry (DATA_KEYS). */
export function isDataEntry(entry: ConfigEntry): boolean {
  const key = entry.subsection === undefined ? `${entry.section}.${entry.key}` : `${entry.section}.*.${entry.key}`;
  return DATA_KEYS.includes(key) || (entry.subsection === undefined && DATA_KEYS.includes(`${entry.section}.*`));
}

/** A URL's transport helper name: "evil" of "evil://host/x" and of "evil::address" (git runs git-remote-evil for both). */
function urlScheme(url: string): string | undefined {
  return /^([A-Za-z][A-Za-z0-9+.-]*)(?::\/\/|::)/u.exec(url.trim())?.[1];
}

/** The strategies `-s X`, `-sX`, `--strategy=X`, `--strategy X` of merge options (branch.*.mergeoptions). */
export function strategyOptions(value: string): string[] {
  const words = value.split(/\s+/u).filter((word) => word !== '');
  return words.flatMap((word, index) => {
    if (word === '-s' || word === '--strategy') return words[index + 1] === undefined ? [] : [words[index + 1]!];
    const joined = /^(?:-s|--strategy=)(.+)$/u.exec(word)?.[1];
    return joined === undefined ? [] : [joined];
  });
}

/**
 * The programs git derives a name for from this entry and looks up on PATH (after its own exec-path), so a file of
 * that name in a relative PATH entry runs as the user's: git-NAME for alias.NAME (git tries an external git-NAME
 * before it expands the alias), git-remote-SCHEME for a URL's scheme or "TRANSPORT::" (remote.*.url, pushurl, vcs,
 * url.BASE.insteadOf), git-credential-NAME for a credential helper's bare name, git-merge-NAME for a strategy
 * (pull.twohead, pull.octopus, -s of branch.*.mergeoptions). Other programs a value names are its command words.
 */
export function derivedPrograms(entry: ConfigEntry): string[] {
  const value = entry.value ?? '';
  const sub = entry.subsection !== undefined;
  if (entry.section === 'alias' && !sub) return [`git-${entry.key}`];
  if (entry.section === 'remote' && sub && entry.key === 'vcs') return value.trim() === '' ? [] : [`git-remote-${value.trim()}`];
  if (entry.section === 'remote' && sub && (entry.key === 'url' || entry.key === 'pushurl')) return [urlScheme(value)].filter((s) => s !== undefined).map((s) => `git-remote-${s}`);
  if (entry.section === 'url' && sub && (entry.key === 'insteadof' || entry.key === 'pushinsteadof'))
    return [urlScheme(entry.subsection), urlScheme(value)].filter((s) => s !== undefined).map((s) => `git-remote-${s}`);
  if (entry.section === 'credential' && entry.key === 'helper') {
    const first = value.trim().split(/\s+/u)[0] ?? '';
    return first === '' || first.startsWith('!') || first.includes('/') ? [] : [`git-credential-${first}`];
  }
  if (entry.section === 'pull' && !sub && (entry.key === 'twohead' || entry.key === 'octopus'))
    return value
      .split(/\s+/u)
      .filter((word) => word !== '')
      .map((word) => `git-merge-${word}`);
  if (entry.section === 'branch' && sub && entry.key === 'mergeoptions') return strategyOptions(value).map((word) => `git-merge-${word}`);
  return [];
}

export { type CommandWord, commandWords } from './shell-command-words.js';
