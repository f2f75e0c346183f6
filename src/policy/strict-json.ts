// A strict RFC 8259 JSON parser for manifests. JSON.parse silently keeps the
// last of two duplicate keys and zot's Go decoder folds key case and merges
// duplicate objects (spec B §1.2), so two parsers can read different
// permissions from one file. This parser sees every key: it rejects duplicate
// keys and keys that differ only by case folding within one object, lone
// surrogates, invalid UTF-8, a byte-order mark and excessive nesting, and it
// records the raw text of every number so integer fields can require integer
// literals (Part A). It never throws: it returns a value or a located failure.

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface StrictJsonSuccess {
  readonly ok: true;
  readonly value: JsonValue;
  /** Raw literal of every number, by JSON path ("$.model.min_context" → "1.0"). */
  readonly numberLiterals: ReadonlyMap<string, string>;
}

export interface StrictJsonFailure {
  readonly ok: false;
  /** JSON path of the place the problem was found ("$" for the document). */
  readonly path: string;
  readonly message: string;
  /** 1-based line and column (in characters) where it was found; absent for problems of the whole file (encoding, BOM). */
  readonly line?: number;
  readonly column?: number;
}

const MAX_DEPTH = 64;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Folds a key the way a case-insensitive decoder could match it: Go's simple
 * folding maps "ſ" (U+017F) to "s" and the Kelvin sign to "k"; upper- then
 * lower-casing covers those and ASCII. It may fold more than Go does ("ß"),
 * which only makes the duplicate check stricter.
 */
export function foldKey(key: string): string {
  return key.toUpperCase().toLowerCase();
}

/** JSON path of a key below `parent`, in the $.a.b form, quoting keys that are not plain words. */
export function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

class Failure extends Error {
  constructor(
    readonly path: string,
    message: string,
    readonly index: number,
  ) {
    super(message);
  }
}

/** The 1-based line and column of a character index in `text`. */
function lineAndColumn(text: string, index: number): { line: number; column: number } {
  const before = text.slice(0, index);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: index - lineStart + 1 };
}

class Parser {
  /** How deep the document may nest (MAX_DEPTH unless the caller chose another bound). */
  maxDepth = MAX_DEPTH;

  private index = 0;
  readonly numberLiterals = new Map<string, string>();

  constructor(private readonly text: string) {}

  parseDocument(): JsonValue {
    this.skipWhitespace();
    const value = this.parseValue('$', 0);
    this.skipWhitespace();
    if (this.index < this.text.length) this.fail('$', `unexpected ${this.describeHere()} after the JSON value`);
    return value;
  }

  private fail(path: string, message: string): never {
    throw new Failure(path, message, this.index);
  }

  private describeHere(): string {
    const ch = this.text[this.index];
    if (ch === undefined) return 'end of input';
    return `character ${JSON.stringify(ch)} at offset ${this.index}`;
  }

  private skipWhitespace(): void {
    for (;;) {
      const ch = this.text.charCodeAt(this.index);
      if (ch === 0x20 || ch === 0x09 || ch === 0x0a || ch === 0x0d) this.index++;
      else return;
    }
  }

  private parseValue(path: string, depth: number): JsonValue {
    if (depth > this.maxDepth) this.fail(path, `nesting deeper than ${this.maxDepth} levels`);
    const ch = this.text[this.index];
    switch (ch) {
      case '{':
        return this.parseObject(path, depth);
      case '[':
        return this.parseArray(path, depth);
      case '"':
        return this.parseString(path);
      case 't':
        return this.parseLiteral(path, 'true', true);
      case 'f':
        return this.parseLiteral(path, 'false', false);
      case 'n':
        return this.parseLiteral(path, 'null', null);
      default:
        if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) return this.parseNumber(path);
        return this.fail(path, `expected a JSON value, found ${this.describeHere()}`);
    }
  }

  private parseLiteral(path: string, word: string, value: JsonValue): JsonValue {
    if (!this.text.startsWith(word, this.index)) this.fail(path, `expected a JSON value, found ${this.describeHere()}`);
    this.index += word.length;
    return value;
  }

  private parseNumber(path: string): number {
    const match = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(this.text.slice(this.index, this.index + 400));
    if (match === null) this.fail(path, `invalid number at offset ${this.index}`);
    const literal = match[0];
    const next = this.text[this.index + literal.length];
    if (next !== undefined && /[0-9.eE+-]/.test(next)) this.fail(path, `invalid number at offset ${this.index}`);
    this.index += literal.length;
    const value = Number(literal);
    if (!Number.isFinite(value)) this.fail(path, `the number ${literal} is out of range`);
    this.numberLiterals.set(path, literal);
    return value;
  }

  private parseString(path: string): string {
    this.index++; // opening quote
    let out = '';
    for (;;) {
      const code = this.text.charCodeAt(this.index);
      if (Number.isNaN(code)) this.fail(path, 'unterminated string');
      if (code === 0x22) {
        this.index++;
        return out;
      }
      if (code < 0x20) this.fail(path, `control character U+${code.toString(16).padStart(4, '0')} inside a string; escape it`);
      if (code === 0x5c) {
        out += this.parseEscape(path);
        continue;
      }
      if (code >= 0xd800 && code <= 0xdfff) {
        // Only a well-formed pair can come from decoded UTF-8; check anyway.
        const low = this.text.charCodeAt(this.index + 1);
        if (code > 0xdbff || !(low >= 0xdc00 && low <= 0xdfff)) this.fail(path, 'a lone surrogate inside a string');
        out += this.text.slice(this.index, this.index + 2);
        this.index += 2;
        continue;
      }
      out += this.text[this.index]!; // code is not NaN, so the index is inside the text
      this.index++;
    }
  }

  private parseEscape(path: string): string {
    const kind = this.text[this.index + 1];
    this.index += 2;
    switch (kind) {
      case '"':
        return '"';
      case '\\':
        return '\\';
      case '/':
        return '/';
      case 'b':
        return '\b';
      case 'f':
        return '\f';
      case 'n':
        return '\n';
      case 'r':
        return '\r';
      case 't':
        return '\t';
      case 'u': {
        const high = this.readHex(path);
        if (high >= 0xdc00 && high <= 0xdfff) this.fail(path, 'a lone low surrogate escape (\\udc00-\\udfff) inside a string');
        if (high >= 0xd800 && high <= 0xdbff) {
          if (this.text[this.index] !== '\\' || this.text[this.index + 1] !== 'u') this.fail(path, 'a lone high surrogate escape inside a string');
          this.index += 2;
          const low = this.readHex(path);
          if (!(low >= 0xdc00 && low <= 0xdfff)) this.fail(path, 'a high surrogate escape not followed by a low one');
          return String.fromCharCode(high, low);
        }
        return String.fromCharCode(high);
      }
      default:
        return this.fail(path, `invalid escape "\\${kind ?? ''}" inside a string`);
    }
  }

  private readHex(path: string): number {
    const hex = this.text.slice(this.index, this.index + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail(path, 'invalid \\u escape inside a string');
    this.index += 4;
    return Number.parseInt(hex, 16);
  }

  private parseArray(path: string, depth: number): JsonValue[] {
    this.index++;
    const items: JsonValue[] = [];
    this.skipWhitespace();
    if (this.text[this.index] === ']') {
      this.index++;
      return items;
    }
    for (;;) {
      this.skipWhitespace();
      items.push(this.parseValue(childPath(path, items.length), depth + 1));
      this.skipWhitespace();
      const ch = this.text[this.index];
      this.index++;
      if (ch === ']') return items;
      if (ch !== ',') this.fail(path, `expected "," or "]" in an array, found ${ch === undefined ? 'end of input' : JSON.stringify(ch)}`);
    }
  }

  private parseObject(path: string, depth: number): { [key: string]: JsonValue } {
    this.index++;
    // A null prototype: keys such as "__proto__" are plain data here.
    const object = Object.create(null) as { [key: string]: JsonValue };
    const folded = new Map<string, string>();
    this.skipWhitespace();
    if (this.text[this.index] === '}') {
      this.index++;
      return object;
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text[this.index] !== '"') this.fail(path, `expected a key in double quotes, found ${this.describeHere()}`);
      const keyStart = this.index;
      const key = this.parseString(path);
      const keyPath = childPath(path, key);
      const fold = foldKey(key);
      const earlier = folded.get(fold);
      if (earlier !== undefined) {
        this.index = keyStart; // the failure points at the second key
        this.fail(
          keyPath,
          earlier === key
            ? `the key ${JSON.stringify(key)} appears twice; JSON readers disagree on which one counts, so remove one`
            : `the keys ${JSON.stringify(earlier)} and ${JSON.stringify(key)} differ only in case; some JSON readers treat them as one key, so keep only the exact one`,
        );
      }
      folded.set(fold, key);
      this.skipWhitespace();
      if (this.text[this.index] !== ':') this.fail(keyPath, `expected ":" after the key, found ${this.describeHere()}`);
      this.index++;
      this.skipWhitespace();
      object[key] = this.parseValue(keyPath, depth + 1);
      this.skipWhitespace();
      const ch = this.text[this.index];
      this.index++;
      if (ch === '}') return object;
      if (ch !== ',') this.fail(path, `expected "," or "}" in an object, found ${ch === undefined ? 'end of input' : JSON.stringify(ch)}`);
    }
  }
}

/** Parses JSON bytes strictly (see the file comment). `maxDepth`: the nesting allowed (64 unless given; the parser recurses). */
export function parseStrictJson(bytes: Uint8Array, options: { readonly maxDepth?: number } = {}): StrictJsonSuccess | StrictJsonFailure {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { ok: false, path: '$', message: 'the file starts with a UTF-8 byte-order mark; save it as UTF-8 without a BOM' };
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { ok: false, path: '$', message: 'the file is not valid UTF-8' };
  }
  const parser = new Parser(text);
  if (options.maxDepth !== undefined) parser.maxDepth = options.maxDepth;
  try {
    return { ok: true, value: parser.parseDocument(), numberLiterals: parser.numberLiterals };
  } catch (thrown) {
    if (thrown instanceof Failure) return { ok: false, path: thrown.path, message: thrown.message, ...lineAndColumn(text, thrown.index) };
    throw thrown;
  }
}
