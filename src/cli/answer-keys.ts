// Terminal input read as keys, not bytes, for the --approve prompt (adv27). A key
// that is not a letter arrives as an escape sequence whose bytes include letters:
// Up is ESC [ A, Up in application mode ESC O A, Home ESC O H. Read byte by byte,
// the A would answer "always". Whole sequences are dropped: CSI (ESC [ params
// final), SS3 (ESC O x), OSC and the other string sequences (up to BEL or ESC \),
// Alt+key (ESC x), and everything pasted between ESC [200~ and ESC [201~, so
// only a letter typed on its own can answer. The parser keeps its state between
// chunks: a sequence may be split across reads.

/** A key that means something at the prompt; anything else is dropped. */
export type AnswerKey = { readonly kind: 'letter'; readonly letter: string } | { readonly kind: 'enter' } | { readonly kind: 'erase' } | { readonly kind: 'interrupt' };

const ESC = 0x1b;
const PASTE_END = '\u001b[201~';

type State = 'ground' | 'escape' | 'csi' | 'ss3' | 'string' | 'string-escape' | 'paste';

export class AnswerKeys {
  private state: State = 'ground';
  private csi = '';
  private pasteMatched = 0;

  /** The keys in a chunk, escape sequences and pastes dropped whole. */
  read(chunk: Buffer): AnswerKey[] {
    const keys: AnswerKey[] = [];
    for (const byte of chunk) {
      const key = this.step(byte);
      if (key !== undefined) keys.push(key);
    }
    return keys;
  }

  private step(byte: number): AnswerKey | undefined {
    switch (this.state) {
      case 'ground':
        return this.ground(byte);
      case 'escape':
        this.escape(byte);
        return undefined;
      case 'csi':
        // Parameters and intermediates (0x20-0x3f) until a final byte (0x40-0x7e); anything else cancels it.
        if (byte >= 0x20 && byte <= 0x3f) this.csi += String.fromCharCode(byte);
        else {
          this.state = this.csi === '200' && byte === 0x7e ? 'paste' : 'ground';
          this.pasteMatched = 0;
        }
        return undefined;
      case 'ss3':
        this.state = 'ground';
        return undefined;
      case 'string':
        if (byte === 0x07) this.state = 'ground';
        else if (byte === ESC) this.state = 'string-escape';
        return undefined;
      case 'string-escape':
        this.state = byte === 0x5c ? 'ground' : 'string';
        return undefined;
      case 'paste':
        this.paste(byte);
        return undefined;
    }
  }

  private ground(byte: number): AnswerKey | undefined {
    if (byte === ESC) {
      this.state = 'escape';
      return undefined;
    }
    if (byte === 0x03) return { kind: 'interrupt' };
    if (byte === 0x0d || byte === 0x0a) return { kind: 'enter' };
    if (byte === 0x08 || byte === 0x7f) return { kind: 'erase' };
    if (byte >= 0x20 && byte < 0x7f) return { kind: 'letter', letter: String.fromCharCode(byte) };
    return undefined;
  }

  /** The byte after ESC: which kind of sequence this is. ESC ESC stays an escape (Alt+arrow on some terminals). */
  private escape(byte: number): void {
    this.csi = '';
    if (byte === 0x5b) this.state = 'csi';
    else if (byte === 0x4f) this.state = 'ss3';
    // OSC, DCS, SOS, PM, APC: strings up to BEL or ST.
    else if (byte === 0x5d || byte === 0x50 || byte === 0x58 || byte === 0x5e || byte === 0x5f) this.state = 'string';
    else if (byte !== ESC) this.state = 'ground'; // Alt+key: the key is dropped with its ESC
  }

  /** Inside a bracketed paste: everything is dropped until ESC [201~. */
  private paste(byte: number): void {
    if (byte === PASTE_END.charCodeAt(this.pasteMatched)) this.pasteMatched += 1;
    else this.pasteMatched = byte === ESC ? 1 : 0;
    if (this.pasteMatched === PASTE_END.length) {
      this.state = 'ground';
      this.pasteMatched = 0;
    }
  }
}
