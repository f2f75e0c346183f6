// What an agent's text may do to the user's terminal (issue 9, item 7): nothing
// but colour. Keeps plain text, \n, \t and, when asked, SGR (`ESC [ digits;... m`);
// drops every other escape sequence, control character and bidi override. Pure
// and stateful per stream, so a sequence split across chunks never leaks. No I/O.

export interface TerminalTextOptions {
  /** Keep SGR (colour) sequences: true when the destination is a terminal, false for a pipe or file. */
  readonly keepColour: boolean;
}

/** Payload length after which an unterminated OSC/DCS/SOS/PM/APC string is abandoned (docs/cli.md). */
const STRING_CAP = 4096;
/** Parameter and intermediate bytes kept for one CSI sequence; a longer one is dropped whole. */
const CSI_CAP = 64;
/** Intermediate bytes of an `ESC <0x20–0x2F>… final` sequence before it is abandoned. */
const INTERMEDIATE_CAP = 16;

const ESC = 0x1b;
const BEL = 0x07;
const CAN = 0x18;
const SUB = 0x1a;
const C1_CSI = 0x9b;
const C1_OSC = 0x9d;
const C1_ST = 0x9c;
/** C1 DCS, SOS, PM and APC: strings ended by ST only. */
const C1_STRINGS = new Set([0x90, 0x98, 0x9e, 0x9f]);
/** `ESC P`, `ESC X`, `ESC ^`, `ESC _`: the 7-bit forms of DCS, SOS, PM and APC. */
const ESC_STRINGS = new Set(['P', 'X', '^', '_']);
const SGR_PARAMETERS = /^[0-9;]*$/;

type State =
  | { readonly kind: 'ground' }
  | { readonly kind: 'escape' }
  | { readonly kind: 'escape-intermediate'; length: number }
  | { readonly kind: 'csi'; parameters: string; overflow: boolean }
  | { readonly kind: 'string'; readonly osc: boolean; length: number };

const GROUND: State = { kind: 'ground' };

/** Text that passes as it is: not a C0 or C1 control, not DEL, not a bidi override or isolate. */
function isPlain(code: number): boolean {
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return false;
  // U+202A–U+202E (LRE, RLE, PDF, LRO, RLO) and U+2066–U+2069 (LRI, RLI, FSI, PDI) reorder what is read.
  return !((code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069));
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/**
 * A sanitizer for one output stream. `feed` returns what may be written now;
 * `end` flushes (and resets colour if the text left it changed) and makes the
 * sanitizer ready for a new stream. Held back: only a CSI sequence's parameters
 * until its final byte, and a trailing high surrogate until its pair arrives.
 */
export class TerminalTextSanitizer {
  readonly #keepColour: boolean;
  #state: State = GROUND;
  #heldSurrogate = '';
  #colourChanged = false;

  constructor(options: TerminalTextOptions) {
    this.#keepColour = options.keepColour;
  }

  feed(chunk: string): string {
    let out = this.#heldSurrogate;
    this.#heldSurrogate = '';
    let index = 0;
    while (index < chunk.length) {
      if (this.#state.kind === 'ground' && isPlain(chunk.charCodeAt(index))) {
        const start = index;
        while (index < chunk.length && isPlain(chunk.charCodeAt(index))) index++;
        out += chunk.slice(start, index);
        continue;
      }
      out += this.#step(chunk.charCodeAt(index), chunk[index]!);
      index++;
    }
    // Half an emoji written alone would reach the terminal as U+FFFD.
    if (out.length > 0 && isHighSurrogate(out.charCodeAt(out.length - 1))) {
      this.#heldSurrogate = out.slice(-1);
      out = out.slice(0, -1);
    }
    return out;
  }

  /** Everything still owed (an unterminated sequence is dropped), then a fresh state. */
  end(): string {
    const out = this.#heldSurrogate + (this.#colourChanged ? '\u001b[0m' : '');
    this.#state = GROUND;
    this.#heldSurrogate = '';
    this.#colourChanged = false;
    return out;
  }

  #step(code: number, char: string): string {
    const state = this.#state;
    switch (state.kind) {
      case 'ground':
        return this.#ground(code, char);
      case 'escape':
        return this.#escape(code, char);
      case 'escape-intermediate':
        return this.#escapeIntermediate(state, code, char);
      case 'csi':
        return this.#csi(state, code, char);
      case 'string':
        return this.#string(state, code);
    }
  }

  #ground(code: number, char: string): string {
    if (code === 0x0a || code === 0x09) return char;
    if (code === ESC) this.#state = { kind: 'escape' };
    else if (code === C1_CSI) this.#state = { kind: 'csi', parameters: '', overflow: false };
    else if (code === C1_OSC) this.#state = { kind: 'string', osc: true, length: 0 };
    else if (C1_STRINGS.has(code)) this.#state = { kind: 'string', osc: false, length: 0 };
    else if (isPlain(code)) return char;
    // Every other control is dropped, \r included: a lone \r can overwrite a line, so \r\n becomes \n.
    return '';
  }

  #escape(code: number, char: string): string {
    this.#state = GROUND;
    if (char === '[') this.#state = { kind: 'csi', parameters: '', overflow: false };
    else if (char === ']') this.#state = { kind: 'string', osc: true, length: 0 };
    else if (ESC_STRINGS.has(char)) this.#state = { kind: 'string', osc: false, length: 0 };
    else if (code >= 0x20 && code <= 0x2f) this.#state = { kind: 'escape-intermediate', length: 1 };
    // Not a sequence: the ESC alone is dropped (a second ESC starts a new one).
    else if (code < 0x30 || code > 0x7e) return this.#ground(code, char);
    return ''; // single-character sequences (ESC c, ESC 7, ESC M, ...) are dropped
  }

  #escapeIntermediate(state: State & { kind: 'escape-intermediate' }, code: number, char: string): string {
    if (code >= 0x20 && code <= 0x2f && state.length < INTERMEDIATE_CAP) {
      state.length++;
      return '';
    }
    this.#state = GROUND;
    if (code === ESC) this.#state = { kind: 'escape' };
    else if (code < 0x20 || code > 0x7e) return this.#ground(code, char);
    return '';
  }

  #csi(state: State & { kind: 'csi' }, code: number, char: string): string {
    if (code >= 0x20 && code <= 0x3f) {
      if (state.parameters.length < CSI_CAP) state.parameters += char;
      else state.overflow = true;
      return '';
    }
    this.#state = GROUND;
    if (code >= 0x40 && code <= 0x7e) return this.#finishCsi(state, char);
    if (code === ESC) this.#state = { kind: 'escape' };
    else return this.#ground(code, char); // a control or non-ASCII character cancels the sequence
    return '';
  }

  /** Only SGR survives, and only in its 7-bit form (an 8-bit CSI is rewritten as ESC [). */
  #finishCsi(state: State & { kind: 'csi' }, final: string): string {
    if (!this.#keepColour || final !== 'm' || state.overflow || !SGR_PARAMETERS.test(state.parameters)) return '';
    this.#colourChanged = !/^0*$/.test(state.parameters);
    return `\u001b[${state.parameters}m`;
  }

  #string(state: State & { kind: 'string' }, code: number): string {
    // ESC ends the string: ESC \ is ST (then dropped as a single-character sequence), and ESC
    // followed by anything else starts a new sequence, as in terminals.
    if (code === ESC) this.#state = { kind: 'escape' };
    else if (code === C1_ST || code === CAN || code === SUB || (code === BEL && state.osc)) this.#state = GROUND;
    // An unterminated string is abandoned at the cap, so later text is shown rather than swallowed;
    // its opening was never written, so what follows is plain text to the terminal.
    else if (++state.length > STRING_CAP) this.#state = GROUND;
    return '';
  }
}

/**
 * One piece of text made safe for a terminal (or, with keepColour false, for a pipe).
 *
 * @example
 * ```ts
 * sanitizeTerminalText('ok\u001b]52;c;aGk=\u0007 \u001b[31mred\u001b[0m', { keepColour: false }); // 'ok red'
 * ```
 */
export function sanitizeTerminalText(text: string, options: TerminalTextOptions): string {
  const sanitizer = new TerminalTextSanitizer(options);
  return sanitizer.feed(text) + sanitizer.end();
}
