// sed scripts given on the command line (issue 10 item 1): read the way GNU
// sed's compile_program reads them (addresses, commands, s and y delimiters,
// bracket expressions, a/i/c text), so what is checked is what sed runs. Only a
// safe subset passes: no command or s flag that runs a program or opens a file
// (e, w, W, r, R, s///e, s///w), and none outside the subset (F, v, L).
// Assumes sed reads the text as UTF-8 or bytes (the fixed C.UTF-8 locale).

/** Why a script is refused; thrown inside the parser only, caught by findSedDenial. */
class SedRefusal extends Error {}

const EOF = '';
const ADDRESS_FLAGS = new Set(['I', 'M']);
const SIMPLE_COMMANDS = new Set(['=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z']);
const REFUSED_COMMANDS: Readonly<Record<string, string>> = {
  e: 'the e command runs a shell command',
  r: 'the r command reads a file the rule cannot check',
  R: 'the R command reads a file the rule cannot check',
  w: 'the w command writes a file the rule cannot check',
  W: 'the W command writes a file the rule cannot check',
  F: 'the F command is outside the allowed subset',
  v: 'the v command is outside the allowed subset',
  L: 'the L command is outside the allowed subset',
};

class SedReader {
  private at = 0;
  constructor(private readonly text: string) {}

  next(): string {
    return this.at < this.text.length ? this.text[this.at++]! : EOF;
  }

  /** Puts back the character just read (nothing, for the end). */
  back(ch: string): void {
    if (ch !== EOF) this.at -= 1;
  }

  /** The next character that is not a space or a tab. */
  nextNonblank(): string {
    let ch = this.next();
    while (ch === ' ' || ch === '\t') ch = this.next();
    return ch;
  }

  /** Digits starting with `first`; the character after them is put back. */
  integer(first: string): number {
    let value = 0;
    let ch = first;
    while (isDigit(ch)) {
      value = value * 10 + Number(ch);
      ch = this.next();
    }
    this.back(ch);
    return value;
  }
}

function isDigit(ch: string): boolean {
  return ch >= '0' && ch <= '9' && ch.length === 1;
}

function refuse(reason: string): never {
  throw new SedRefusal(reason);
}

/** After '[' in a regex: GNU's snarf_char_class; returns the character that ended it (']' when closed). */
function readBracket(reader: SedReader, delimiter: string): string {
  const next = (): string => {
    const ch = reader.next();
    // Other seds end the regex at this delimiter: refused, so every sed reads the same script.
    if (ch === delimiter) refuse(`the delimiter ${JSON.stringify(delimiter)} inside a bracket expression is read differently by different seds; pick another delimiter (s|[/]|x|)`);
    return ch;
  };
  let ch = next();
  if (ch === '^') ch = next();
  if (ch === ']') ch = next();
  // 0 outside a class, 1 after '[', 2 after its opening . : or =, 3 after the closing one.
  let state = 0;
  let classDelimiter = '';
  for (; ; ch = next()) {
    if (ch === EOF || ch === '\n') return ch;
    if (ch === '.' || ch === ':' || ch === '=') {
      if (state === 1) {
        classDelimiter = ch;
        state = 2;
        continue;
      }
      if (state === 2 && ch === classDelimiter) {
        state = 3;
        continue;
      }
    } else if (ch === '[') {
      if (state === 0) state = 1;
      continue;
    } else if (ch === ']') {
      if (state === 0 || state === 1) return ch;
      if (state === 3) state = 0;
    }
    state &= ~1;
  }
}

/** GNU's match_slash: the text up to `delimiter`, backslash pairs kept; false when unterminated. */
function readDelimited(reader: SedReader, delimiter: string, regex: boolean): boolean {
  for (let ch = reader.next(); ch !== EOF && ch !== '\n'; ch = reader.next()) {
    if (ch === delimiter) return true;
    if (ch === '\\') {
      if (reader.next() === EOF) return false;
    } else if (ch === '[' && regex) {
      if (readBracket(reader, delimiter) !== ']') return false;
    }
  }
  return false;
}

function readDelimiter(reader: SedReader, what: string): string {
  const delimiter = reader.next();
  if (delimiter === EOF || delimiter === '\n' || delimiter === '\\' || delimiter.charCodeAt(0) > 0x7e) refuse(`${what} needs a printable ASCII delimiter other than a backslash`);
  return delimiter;
}

type Address = 'number' | 'zero' | 'step' | 'regex' | 'last';

/** GNU's compile_address: an address starting with `ch`, or undefined (nothing read) when it is none. */
function readAddress(reader: SedReader, ch: string): Address | undefined {
  if (ch === '/' || ch === '\\') {
    const delimiter = ch === '\\' ? readDelimiter(reader, 'a \\cREGEXc address') : ch;
    if (!readDelimited(reader, delimiter, true)) refuse('an address regex is not terminated');
    let flag = reader.nextNonblank();
    while (ADDRESS_FLAGS.has(flag)) flag = reader.nextNonblank();
    reader.back(flag);
    return 'regex';
  }
  if (isDigit(ch)) {
    const line = reader.integer(ch);
    const tilde = reader.nextNonblank();
    let step = 0;
    if (tilde === '~') step = reader.integer(reader.nextNonblank());
    else reader.back(tilde);
    return line === 0 && step === 0 ? 'zero' : 'number';
  }
  if (ch === '+' || ch === '~') {
    reader.integer(reader.nextNonblank());
    return 'step';
  }
  return ch === '$' ? 'last' : undefined;
}

/** GNU's read_end_of_cmd: only blanks, then the end, a newline, ';', '}' or '#'. */
function readEndOfCommand(reader: SedReader, command: string): void {
  const ch = reader.nextNonblank();
  if (ch === '}' || ch === '#') reader.back(ch);
  else if (ch !== EOF && ch !== '\n' && ch !== ';') refuse(`unexpected ${JSON.stringify(ch)} after the ${command} command`);
}

/** A label for :, b, t and T: up to a blank, newline, ';', '}' or '#'. */
function readLabel(reader: SedReader): string {
  let label = '';
  let ch = reader.nextNonblank();
  while (ch !== EOF && ch !== '\n' && ch !== ' ' && ch !== '\t' && ch !== ';' && ch !== '}' && ch !== '#') {
    label += ch;
    ch = reader.next();
  }
  reader.back(ch);
  return label;
}

/** a, i and c: text to the end of the line, a backslash escaping the next character (a newline too). */
function readText(reader: SedReader): void {
  let ch = reader.nextNonblank();
  if (ch === EOF) refuse('a, i and c need text');
  if (ch === '\\') ch = reader.next();
  else reader.back(ch);
  if (ch === EOF) return;
  for (let next = reader.next(); next !== EOF && next !== '\n'; next = reader.next()) {
    if (next === '\\' && reader.next() === EOF) return;
  }
}

function readSubstituteFlags(reader: SedReader): void {
  const seen = new Set<string>();
  for (;;) {
    const ch = reader.nextNonblank();
    if (ch === 'e') refuse('the s///e flag runs the pattern space as a shell command');
    if (ch === 'w') refuse('the s///w flag writes a file the rule cannot check');
    if (ch === 'i' || ch === 'I' || ch === 'm' || ch === 'M') continue;
    if (ch === 'g' || ch === 'p' || isDigit(ch)) {
      const flag = isDigit(ch) ? 'number' : ch;
      if (seen.has(flag)) refuse(`the s flag ${flag} is given twice`);
      seen.add(flag);
      if (isDigit(ch) && reader.integer(ch) === 0) refuse('the s flag number must be at least 1');
      continue;
    }
    if (ch === '}' || ch === '#') return reader.back(ch);
    if (ch === EOF || ch === '\n' || ch === ';') return;
    refuse(`${JSON.stringify(ch)} is not an s flag zotbox allows (g, p, i, I, m, M, a number)`);
  }
}

/** One command after its addresses; returns the change in block depth. */
function readCommand(reader: SedReader, command: string, addresses: readonly Address[]): number {
  if (SIMPLE_COMMANDS.has(command)) {
    readEndOfCommand(reader, command);
    return 0;
  }
  switch (command) {
    case '{':
      return 1;
    case '}':
      if (addresses.length > 0) refuse('} takes no address');
      readEndOfCommand(reader, command);
      return -1;
    case 'a':
    case 'i':
    case 'c':
      readText(reader);
      return 0;
    case ':':
      if (addresses.length > 0) refuse(': takes no address');
      if (readLabel(reader) === '') refuse(': needs a label');
      return 0;
    case 'b':
    case 't':
    case 'T':
      readLabel(reader);
      return 0;
    case 'q':
    case 'Q':
    case 'l': {
      if (command !== 'l' && addresses.length > 1) refuse(`${command} takes one address`);
      const ch = reader.nextNonblank();
      if (isDigit(ch)) reader.integer(ch);
      else reader.back(ch);
      readEndOfCommand(reader, command);
      return 0;
    }
    case 's': {
      const delimiter = readDelimiter(reader, 's');
      if (!readDelimited(reader, delimiter, true) || !readDelimited(reader, delimiter, false)) refuse('an s command is not terminated');
      readSubstituteFlags(reader);
      return 0;
    }
    case 'y': {
      const delimiter = readDelimiter(reader, 'y');
      if (!readDelimited(reader, delimiter, false) || !readDelimited(reader, delimiter, false)) refuse('a y command is not terminated');
      readEndOfCommand(reader, command);
      return 0;
    }
  }
  const refused = Object.hasOwn(REFUSED_COMMANDS, command) ? REFUSED_COMMANDS[command] : undefined;
  if (refused !== undefined) refuse(refused);
  return refuse(command === EOF ? 'an address has no command' : `${JSON.stringify(command)} is not a sed command zotbox allows`);
}

/** Addresses (none, one or two), then '!': returns them and the command character. */
function readAddresses(reader: SedReader, first: string): { addresses: Address[]; command: string } {
  const addresses: Address[] = [];
  let ch = first;
  const start = readAddress(reader, ch);
  if (start !== undefined) {
    if (start === 'step') refuse('a +N or ~N address may only follow a comma');
    addresses.push(start);
    ch = reader.nextNonblank();
    if (ch === ',') {
      const end = readAddress(reader, reader.nextNonblank());
      if (end === undefined) refuse('a comma must be followed by an address');
      addresses.push(end);
      ch = reader.nextNonblank();
    }
    if (start === 'zero' && addresses[1] !== 'regex') refuse('line 0 is an address only in 0,/regex/');
  }
  if (ch === '!') {
    ch = reader.nextNonblank();
    if (ch === '!') refuse('multiple ! after an address');
  }
  return { addresses, command: ch };
}

/** Why `script` is refused, or undefined when every command in it is in the allowed subset. */
export function findSedDenial(script: string): string | undefined {
  if (/[\u0000-\u0008\u000b-\u001f\u007f]/.test(script)) return 'the script contains a control character';
  const reader = new SedReader(script);
  let depth = 0;
  try {
    for (;;) {
      let ch = reader.next();
      while (ch === ';' || ch === ' ' || ch === '\t' || ch === '\n') ch = reader.next();
      if (ch === EOF) break;
      const { addresses, command } = readAddresses(reader, ch);
      if (command === '#') {
        if (addresses.length > 0) refuse('a comment cannot follow an address');
        for (let c = reader.next(); c !== EOF && c !== '\n'; c = reader.next());
        continue;
      }
      depth += readCommand(reader, command, addresses);
      if (depth < 0) refuse('a } has no matching {');
    }
    if (depth > 0) refuse('a { has no matching } (keep a block within one script argument)');
  } catch (error) {
    // Only the parser's own refusals are expected; anything else is a bug and must not pass silently.
    if (error instanceof SedRefusal) return error.message;
    throw error;
  }
  return undefined;
}
