// Reads git config text entry by entry, with the line each entry starts on
// (issue 21 §3: a denial names the config line). Lenient where git is strict:
// what git would refuse to parse is still read as far as it goes, so a path it
// names is protected rather than missed. Pure, no I/O. What a command value names
// is read by shell-command-words.ts.

export interface ConfigEntry {
  /** Lower case. */
  readonly section: string;
  /** As written (case matters for subsections), or undefined. */
  readonly subsection: string | undefined;
  /** Lower case. */
  readonly key: string;
  /** The value after git's unquoting, or undefined for a bare key (boolean true). */
  readonly value: string | undefined;
  /** 1-based line the entry starts on. */
  readonly line: number;
  /** The name as written ("core.hooksPath"), for messages. */
  readonly written: string;
}

/** `section.subsection.key`, section and key lower case (what git compares). */
export function entryName(entry: ConfigEntry): string {
  return entry.subsection === undefined ? `${entry.section}.${entry.key}` : `${entry.section}.${entry.subsection}.${entry.key}`;
}

/** Unquotes a value as git does: quotes removed, \" \\ \n \t \b escapes, comments outside quotes dropped, edges trimmed. */
function unquote(raw: string): string {
  let out = '';
  let quoted = false;
  let pendingSpace = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '\\' && i + 1 < raw.length) {
      const next = raw[++i]!;
      out += pendingSpace + (next === 'n' ? '\n' : next === 't' ? '\t' : next === 'b' ? '\b' : next);
      pendingSpace = '';
    } else if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '#' || c === ';')) break;
    else if (!quoted && (c === ' ' || c === '\t')) pendingSpace += out === '' ? '' : c;
    else {
      out += pendingSpace + c;
      pendingSpace = '';
    }
  }
  return out;
}

/** Every entry of a config text, in order. Continuation lines (a trailing backslash) are joined. */
export function parseConfigEntries(text: string): ConfigEntry[] {
  const entries: ConfigEntry[] = [];
  const lines = text.split('\n');
  let section = '';
  let writtenSection = '';
  let subsection: string | undefined;
  for (let index = 0; index < lines.length; index++) {
    const start = index + 1;
    let logical = lines[index]!.replace(/\r$/u, '');
    while (/(^|[^\\])(\\\\)*\\$/u.test(logical) && index + 1 < lines.length) logical = logical.slice(0, -1) + lines[++index]!.replace(/\r$/u, '');
    let rest = logical.trimStart();
    if (rest.startsWith('[')) {
      const close = rest.indexOf(']');
      const header = close === -1 ? rest.slice(1) : rest.slice(1, close);
      const quoted = /^\s*([^\s"]+)\s+"((?:[^"\\]|\\.)*)"\s*$/u.exec(header);
      if (quoted !== null) {
        writtenSection = quoted[1]!;
        section = writtenSection.toLowerCase();
        subsection = quoted[2]!.replace(/\\(.)/gu, '$1');
      } else {
        const dotted = header.trim();
        const dot = dotted.indexOf('.');
        writtenSection = dot === -1 ? dotted : dotted.slice(0, dot);
        section = writtenSection.toLowerCase();
        subsection = dot === -1 ? undefined : dotted.slice(dot + 1);
      }
      // git accepts an entry on the same line as its header: "[core] hooksPath = x".
      rest = close === -1 ? '' : rest.slice(close + 1).trimStart();
    }
    if (rest === '' || rest.startsWith('#') || rest.startsWith(';')) continue;
    const key = /^([A-Za-z0-9-]+)\s*(=?)(.*)$/su.exec(rest);
    if (key === null) continue;
    const written = `${writtenSection}${subsection === undefined ? '' : `.${subsection}`}.${key[1]!}`;
    entries.push({ section, subsection, key: key[1]!.toLowerCase(), value: key[2] === '=' ? unquote(key[3]!) : undefined, line: start, written });
  }
  return entries;
}

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
