// Reads git config text entry by entry, character by character as git's own reader does (config.c
// git_parse_source, get_base_var, get_extended_base_var, get_value, parse_value, as of git 2.39): continuation
// lines only inside a value and never in a comment, quoted subsections that may hold `]`, blanks outside quotes
// made spaces, `\r\n` taken as `\n`, a UTF-8 byte order mark skipped. A second reading that differs from git's is
// a hole: zotbox would protect what one text names while git uses another (test/host/executors/confine/
// git-config-text.test.ts compares the two on odd spellings). Where git stops with "bad config line N" (and dies:
// it runs nothing), the reading stops too, and says so: what follows is not read, so a caller that must know
// everything a file names fails closed on it. Pure, no I/O. What a value names is read by git-config-lines.ts.
import { spelled } from './git-pointer-text.js';

export interface ConfigEntry {
  /** Lower case, as git compares it. */
  readonly section: string;
  /** As git keeps it (the quoted form keeps its case, the dotted one is lower case), or undefined. */
  readonly subsection: string | undefined;
  /** Lower case. */
  readonly key: string;
  /** The value as git reads it, or undefined for a bare key (boolean true). */
  readonly value: string | undefined;
  /** 1-based line the entry starts on. */
  readonly line: number;
  /** The name as written ("core.hooksPath"), for messages. */
  readonly written: string;
}

export interface ConfigReading {
  readonly entries: readonly ConfigEntry[];
  /** The line where git stops reading the file ("bad config line N", and git dies); undefined when it reads it all. */
  readonly badLine?: number;
}

/** `section.subsection.key`: the name git hands its config callbacks (section and key lower case). */
export function entryName(entry: ConfigEntry): string {
  if (entry.section === '' && entry.subsection === undefined) return entry.key; // an entry above every header
  return entry.subsection === undefined ? `${entry.section}.${entry.key}` : `${entry.section}.${entry.subsection}.${entry.key}`;
}

/** git's isspace (sane_ctype): only these four, never \v or \f. */
const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\n' || c === '\r';
const isAlpha = (c: string) => /^[A-Za-z]$/u.test(c);
const isKeyChar = (c: string) => /^[A-Za-z0-9-]$/u.test(c);

/** git's get_next_char: `\r\n` reads as `\n`, and past the end every read is `\n` with `eof` set. */
class ConfigSource {
  private at = 0;
  /** Line of the character read last (1-based). */
  line = 1;
  private nextLine = 1;
  eof = false;

  constructor(private readonly text: string) {}

  next(): string {
    this.line = this.nextLine;
    if (this.at >= this.text.length) {
      this.eof = true;
      return '\n';
    }
    let c = this.text[this.at++]!;
    if (c === '\r' && this.text[this.at] === '\n') c = this.text[this.at++]!;
    if (c === '\n') this.nextLine++;
    return c;
  }
}

interface Header {
  /** git's variable prefix without its final dot: "core", "includeif.gitdir:x". */
  readonly name: string;
  readonly written: string;
}

/** After `[`: git's get_base_var and get_extended_base_var. Undefined where git stops. */
function readHeader(source: ConfigSource): Header | undefined {
  let name = '';
  let written = '';
  for (;;) {
    const c = source.next();
    if (source.eof) return undefined;
    if (c === ']') return name === '' ? undefined : { name, written };
    if (isSpace(c)) return readQuotedSubsection(source, c, name, written);
    if (!isKeyChar(c) && c !== '.') return undefined;
    name += c.toLowerCase();
    written += c;
  }
}

function readQuotedSubsection(source: ConfigSource, first: string, name: string, written: string): Header | undefined {
  let c = first;
  do {
    if (c === '\n') return undefined;
    c = source.next();
  } while (isSpace(c));
  if (c !== '"') return undefined;
  let subsection = '';
  for (;;) {
    let d = source.next();
    if (d === '\n') return undefined;
    if (d === '"') break;
    if (d === '\\') {
      d = source.next();
      if (d === '\n') return undefined;
    }
    subsection += d;
  }
  if (source.next() !== ']') return undefined;
  return { name: `${name}.${subsection}`, written: `${written}.${subsection}` };
}

const ESCAPES: ReadonlyMap<string, string> = new Map([
  ['t', '\t'],
  ['b', '\b'],
  ['n', '\n'],
  ['\\', '\\'],
  ['"', '"'],
]);

/** After `=`: git's parse_value. Undefined where git stops (an unknown escape, a quote open at the line's end). */
function readValue(source: ConfigSource): string | undefined {
  let quoted = false;
  let comment = false;
  let spaces = 0;
  let value = '';
  for (;;) {
    const c = source.next();
    if (c === '\n') return quoted ? undefined : value;
    if (comment) continue;
    if (isSpace(c) && !quoted) {
      if (value !== '') spaces++;
      continue;
    }
    if (!quoted && (c === ';' || c === '#')) {
      comment = true;
      continue;
    }
    value += ' '.repeat(spaces);
    spaces = 0;
    if (c === '\\') {
      const escaped = source.next();
      if (escaped === '\n') continue; // a continuation line
      const meant = ESCAPES.get(escaped);
      if (meant === undefined) return undefined;
      value += meant;
    } else if (c === '"') quoted = !quoted;
    else value += c;
  }
}

/**
 * The entry git's callbacks get: the variable as git builds it (header, dot, key), cut at a NUL as a C string is
 * (`[core "hookspath\0x"] k = v` is core.hookspath to git), split as parse_config_key splits it (section to the first
 * dot, key after the last one); a value is cut at a NUL too.
 */
function entryOf(header: Header | undefined, key: string, value: string | undefined, line: number): ConfigEntry {
  const cut = (text: string, at: number) => (at === -1 ? text : text.slice(0, at));
  const full = header === undefined ? key.toLowerCase() : `${header.name}.${key.toLowerCase()}`;
  const nul = full.indexOf('\u0000');
  const variable = cut(full, nul);
  const first = variable.indexOf('.');
  const last = variable.lastIndexOf('.');
  return {
    section: first === -1 ? '' : variable.slice(0, first),
    subsection: first === last ? undefined : variable.slice(first + 1, last),
    key: variable.slice(last + 1),
    value: value === undefined ? undefined : cut(value, value.indexOf('\u0000')),
    line,
    // The same length as the variable: only ASCII letters of the section and key differ in case.
    written: cut(header === undefined ? key : `${header.written}.${key}`, nul),
  };
}

/** Every entry of a config text, in order, as git reads them; and where git stops, if it does. */
export function readConfigEntries(text: string): ConfigReading {
  const entries: ConfigEntry[] = [];
  const source = new ConfigSource(text.startsWith('\uFEFF') ? text.slice(1) : text);
  let header: Header | undefined;
  let comment = false;
  for (;;) {
    const c = source.next();
    if (c === '\n') {
      if (source.eof) return { entries };
      comment = false;
      continue;
    }
    if (comment || isSpace(c)) continue;
    if (c === '#' || c === ';') {
      comment = true;
      continue;
    }
    if (c === '[') {
      header = readHeader(source);
      if (header === undefined) return { entries, badLine: source.line };
      continue;
    }
    if (!isAlpha(c)) return { entries, badLine: source.line };
    const line = source.line;
    let key = c;
    let d = source.next();
    for (; !source.eof && isKeyChar(d); d = source.next()) key += d;
    while (d === ' ' || d === '\t') d = source.next();
    let value: string | undefined;
    if (d !== '\n') {
      if (d !== '=') return { entries, badLine: source.line };
      value = readValue(source);
      if (value === undefined) return { entries, badLine: source.line };
    }
    entries.push(entryOf(header, key, value, line));
  }
}

/**
 * An entry read from a config's bytes (its text decoded as Latin-1, one character per byte: git reads bytes), spelled
 * as UTF-8: a value that is not UTF-8 becomes UNSPELLABLE (git-pointer-text.ts), never another path; the names, shown
 * in messages only, with U+FFFD where their bytes are not UTF-8.
 */
export function spelledEntry(entry: ConfigEntry): ConfigEntry {
  const lossy = (text: string) => Buffer.from(text, 'latin1').toString('utf8');
  return {
    ...entry,
    subsection: entry.subsection === undefined ? undefined : lossy(entry.subsection),
    value: entry.value === undefined ? undefined : spelled(Buffer.from(entry.value, 'latin1')),
    written: lossy(entry.written),
  };
}
