// Reads git config text entry by entry, with the line each entry starts on
// (issue 21 §3: a denial names the config line). Lenient where git is strict:
// what git would refuse to parse is still read as far as it goes, so a path it
// names is protected rather than missed. Pure, no I/O.
import path from 'node:path';

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

/** A file a command value may name, resolved as far as the text allows; or why it cannot be. */
export type CommandWord =
  | {
      readonly kind: 'path';
      /** Relative to `anchor` unless absolute ("plain": to every directory git may run it from, and PATH). */
      readonly text: string;
      readonly anchor: 'plain' | 'home' | 'top';
      /** True when the word is a pattern: everything below `text` may match. */
      readonly tree: boolean;
    }
  | { readonly kind: 'unresolved'; readonly text: string; readonly why: string };

/** Marks for an unquoted pattern character (the shell expands it), and the first code point of expansions. */
const GLOB_MARKS: Readonly<Record<string, string>> = { '*': '\uF001', '?': '\uF002', '[': '\uF003', '{': '\uF004' };
const GLOB_CHARACTERS = '*?[{';
/** A pattern mark back to the character written. */
const unmark = (text: string) => text.replace(/[\uF001-\uF004]/gu, (ch) => GLOB_CHARACTERS[ch.charCodeAt(0) - 0xf001]!);
const EXPANSION_BASE = 0xe000;
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'busybox', 'eval']);
/** What a shell expands these to is known: the user's home, the directory git runs the command in, the user's own arguments. */
const HOME_EXPANSIONS = new Set(['$HOME', '${HOME}']);
const TOP_EXPANSIONS = new Set(['$PWD', '${PWD}', '$(pwd)', '`pwd`', '$(git rev-parse --show-toplevel)', '`git rev-parse --show-toplevel`']);
const POSITIONAL = /^\$(\{?[0-9@*#]\}?)$/u;

/** Splits shell text into words (quotes removed, expansions as placeholders, unquoted pattern characters marked). */
function lexShell(text: string, expansions: string[]): string[][] {
  const commands: string[][] = [[]];
  let word = '';
  const push = () => {
    // A lone "{" or "}" is a reserved word (a function body), not a file.
    if (word !== '' && word !== '\uF004' && word !== '}') commands.at(-1)!.push(word);
    word = '';
  };
  const expansionEnd = (at: number): number => {
    // at points to "$" or "`"; returns the index after the expansion, or at + 1 for a plain "$".
    if (text[at] === '`') {
      let j = at + 1;
      while (j < text.length && text[j] !== '`') j += text[j] === '\\' ? 2 : 1;
      return Math.min(j + 1, text.length);
    }
    const next = text[at + 1];
    if (next === '(') {
      let depth = 0;
      for (let j = at + 1; j < text.length; j++) {
        if (text[j] === '(') depth++;
        else if (text[j] === ')' && --depth === 0) return j + 1;
      }
      return text.length;
    }
    if (next === '{') {
      const close = text.indexOf('}', at);
      return close === -1 ? text.length : close + 1;
    }
    if (next !== undefined && /[A-Za-z_]/u.test(next)) {
      let j = at + 1;
      while (j < text.length && /[A-Za-z0-9_]/u.test(text[j]!)) j++;
      return j;
    }
    if (next !== undefined && /[0-9@*#?$!-]/u.test(next)) return at + 2;
    return at + 1;
  };
  let quote: '' | "'" | '"' = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote === "'") {
      if (c === "'") quote = '';
      else word += c;
      continue;
    }
    if ((c === '$' || c === '`') && expansionEnd(i) > i + 1) {
      const end = expansionEnd(i);
      expansions.push(text.slice(i, end).replace(/\s+/gu, ' '));
      word += String.fromCharCode(EXPANSION_BASE + expansions.length - 1);
      i = end - 1;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = '';
      else if (c === '\\' && i + 1 < text.length && '$`"\\\n'.includes(text[i + 1]!)) word += text[++i]!;
      else word += c;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
    } else if (c === '\\' && i + 1 < text.length) word += text[++i]!;
    else if (/\s/u.test(c)) push();
    else if (';|&()<>!'.includes(c)) {
      push();
      if (commands.at(-1)!.length > 0) commands.push([]);
    } else word += GLOB_MARKS[c] ?? c;
  }
  push();
  return commands.filter((command) => command.length > 0);
}

function resolvePart(part: string, expansions: readonly string[], shell: boolean, out: CommandWord[]): void {
  const expansionAt = (index: number) => expansions[part.charCodeAt(index) - EXPANSION_BASE];
  const isExpansion = (index: number) => {
    const code = part.charCodeAt(index);
    return code >= EXPANSION_BASE && code < EXPANSION_BASE + expansions.length;
  };
  const written = unmark(part.replace(/[\uE000-\uEFFF]/gu, (ch) => expansions[ch.charCodeAt(0) - EXPANSION_BASE] ?? ch));
  const used = Array.from({ length: part.length }, (_, index) => index).filter(isExpansion);
  const known = (index: number) => HOME_EXPANSIONS.has(expansionAt(index)!) || TOP_EXPANSIONS.has(expansionAt(index)!);
  // The user's own arguments ("$1", "$@") name what the user types when running it: theirs to choose.
  if (used.some((index) => POSITIONAL.test(expansionAt(index)!))) {
    const other = used.filter((index) => !POSITIONAL.test(expansionAt(index)!) && !known(index));
    if (other.length === 0) return;
    out.push({ kind: 'unresolved', text: written, why: `${other.map((index) => expansionAt(index)).join(', ')} is expanded only when git runs it` });
    return;
  }
  let anchor: 'plain' | 'home' | 'top' = 'plain';
  let rest = part;
  if (used.length > 0) {
    const first = expansionAt(0);
    const leading = used.length === 1 && used[0] === 0 && first !== undefined ? (HOME_EXPANSIONS.has(first) ? 'home' : TOP_EXPANSIONS.has(first) ? 'top' : undefined) : undefined;
    if (leading === undefined || (part.length > 1 && part[1] !== '/')) {
      out.push({ kind: 'unresolved', text: written, why: `${used.map((index) => expansionAt(index)).join(', ')} is expanded only when git runs it` });
      return;
    }
    anchor = leading;
    rest = part.slice(2);
  } else if (part === '~' || part.startsWith('~/')) {
    anchor = 'home';
    rest = part.slice(2);
  } else if (part.startsWith('~') && shell) {
    out.push({ kind: 'unresolved', text: written, why: "another user's home directory" });
    return;
  }
  const glob = rest.search(/[\uF001-\uF004]/u);
  if (glob === -1) {
    out.push({ kind: 'path', text: rest, anchor, tree: false });
    return;
  }
  const prefix = rest.slice(0, glob);
  const directory = prefix.slice(0, prefix.lastIndexOf('/') + 1).replace(/\/+$/u, '');
  if (directory === '' && !prefix.startsWith('/')) {
    out.push({ kind: 'unresolved', text: written, why: 'a pattern the shell matches against the files where git runs it' });
    return;
  }
  out.push({ kind: 'path', text: directory === '' ? '/' : directory, anchor, tree: true });
}

/**
 * Every file a command value may name, as git runs it: through a shell (`shell`, the default: "!" aliases, editors,
 * pagers, drivers, helpers, fsmonitor), or split as git splits a plain alias (no expansion). Every word counts, with
 * or without a "/" (an interpreter's argument, "sh fsmon.sh", names a file relative to where git runs it), and so does
 * each part of it between "=", ":" and ",". A shell script handed to "sh -c" or "eval" is read the same way. A word
 * whose expansion cannot be known before git runs it ($X, $(cmd), `cmd`, ~user, a pattern with no fixed directory)
 * comes back unresolved; "$HOME/…", "~/…", "$PWD/…", "$(pwd)/…" and "$(git rev-parse --show-toplevel)/…" are known.
 */
export function commandWords(value: string, mode: 'shell' | 'git' = 'shell'): CommandWord[] {
  const out: CommandWord[] = [];
  const expansions: string[] = [];
  const seen = new Set<string>();
  // Directories a "cd" in the command moved to: later relative words are relative to them too.
  const moved: { readonly text: string; readonly anchor: 'plain' | 'home' | 'top' }[] = [];
  const parts = (word: string) => {
    for (const part of new Set([word, ...word.split(/[\s"'`;|&()<>{}=,:!]+/u)])) {
      const key = `${moved.length}\u0000${part}`;
      if (part === '' || seen.has(key)) continue;
      seen.add(key);
      const from = out.length;
      resolvePart(part, expansions, mode === 'shell', out);
      for (const found of out.slice(from)) {
        if (found.kind !== 'path' || found.anchor !== 'plain' || path.isAbsolute(found.text)) continue;
        for (const directory of moved) out.push({ ...found, text: path.join(directory.text, found.text), anchor: directory.anchor });
      }
    }
  };
  const changeDirectory = (command: readonly string[]) => {
    const target = command.slice(1).find((word) => !word.startsWith('-'));
    if (target === undefined) return moved.push({ text: '', anchor: 'home' });
    const resolved: CommandWord[] = [];
    resolvePart(target, expansions, true, resolved);
    // An unresolved target is already reported as a word of the command.
    for (const found of resolved) if (found.kind === 'path') moved.push({ text: found.text, anchor: found.anchor });
    return moved.length;
  };
  const read = (text: string, depth: number) => {
    for (const command of lexShell(text, expansions)) {
      command.forEach((word, index) => {
        parts(word);
        // "sh -c SCRIPT", "bash -ec SCRIPT", "eval SCRIPT": the script is shell text of its own.
        const program = path.basename(command[0] ?? '');
        const scriptFollows = (program === 'eval' && index > 0) || (SHELLS.has(program) && index > 0 && /^-[a-z]*c[a-z]*$/u.test(command[index - 1] ?? ''));
        if (scriptFollows && depth < 4) read(unmark(word), depth + 1);
      });
      if (['cd', 'pushd'].includes(command[0] ?? '')) changeDirectory(command);
    }
  };
  if (mode === 'git') {
    for (const word of lexShell(
      value.replace(/[$`*?[{~]/gu, (c) => `\\${c}`),
      expansions,
    ).flat())
      parts(word);
  } else read(value, 0);
  const unique = new Map(out.map((word) => [JSON.stringify(word.kind === 'path' ? [word.anchor, word.text, word.tree] : [word.text]), word]));
  return [...unique.values()];
}
