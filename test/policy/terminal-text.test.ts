import test from 'ava';
import fc from 'fast-check';
import { TerminalTextSanitizer, sanitizeTerminalText } from '../../src/policy/terminal-text.js';

const E = '\u001b';
const BEL = '\u0007';
const ST = `${E}\\`;
const TTY = { keepColour: true };
const PIPE = { keepColour: false };

/** Each case: what a terminal gets and what a pipe gets, both written by hand. */
const sanitizes = test.macro({
  exec(t, input: string, onTerminal: string, onPipe: string) {
    t.is(sanitizeTerminalText(input, TTY), onTerminal, 'terminal');
    t.is(sanitizeTerminalText(input, PIPE), onPipe, 'pipe');
  },
  title: (title) => title ?? '',
});

// OSC: clipboard, title, hyperlinks; BEL or ST; 7-bit and 8-bit.
test('OSC 52 clipboard write ended by BEL is dropped', sanitizes, `copy${E}]52;c;cHduZWQ=${BEL} this`, 'copy this', 'copy this');
test('OSC 52 clipboard write ended by ST is dropped', sanitizes, `copy${E}]52;c;cHduZWQ=${ST} this`, 'copy this', 'copy this');
test('8-bit OSC 52 ended by 8-bit ST is dropped', sanitizes, 'copy\u009d52;c;cHduZWQ=\u009c this', 'copy this', 'copy this');
test('8-bit OSC ended by BEL is dropped', sanitizes, 'a\u009d0;t\u0007b', 'ab', 'ab');
test('title set (OSC 0 and OSC 2) is dropped', sanitizes, `${E}]0;pwned${BEL}one${E}]2;pwned${ST}two`, 'onetwo', 'onetwo');
test('an OSC 8 hyperlink keeps only its visible text', sanitizes, `${E}]8;;https://evil.example${ST}docs${E}]8;;${ST}`, 'docs', 'docs');
test('an unterminated OSC is dropped to the end', sanitizes, `before${E}]52;c;cHduZWQ=`, 'before', 'before');
test('an unterminated OSC is abandoned after 4096 characters; what follows is shown', sanitizes, `a${E}]0;${'x'.repeat(4094)}YZtail`, 'aZtail', 'aZtail');
test('an OSC of exactly 4096 characters is still dropped whole', sanitizes, `a${E}]${'x'.repeat(4096)}${BEL}tail`, 'atail', 'atail');
test('CAN cancels an OSC', sanitizes, `a${E}]0;t\u0018b`, 'ab', 'ab');
test('SUB cancels an OSC', sanitizes, `a${E}]0;t\u001ab`, 'ab', 'ab');
test('ESC inside an OSC ends it and starts the next sequence', sanitizes, `${E}]0;t${E}[31mred`, `${E}[31mred${E}[0m`, 'red');

// CSI other than SGR.
test('clear screen (CSI 2J) is dropped', sanitizes, `x${E}[2J${E}[3J${E}[Hy`, 'xy', 'xy');
test('cursor up and cursor position are dropped', sanitizes, `line${E}[1A${E}[A${E}[10;20Hover`, 'lineover', 'lineover');
test('erase line, scroll and insert are dropped', sanitizes, `a${E}[2K${E}[5S${E}[5T${E}[3@b`, 'ab', 'ab');
test('DECSET, alternate screen and bracketed paste mode are dropped', sanitizes, `${E}[?1049h${E}[?2004h${E}[?25l${E}[?1049lok`, 'ok', 'ok');
test('bracketed paste markers are dropped, the text between them kept', sanitizes, `${E}[200~paste${E}[201~`, 'paste', 'paste');
test('8-bit CSI clear screen is dropped', sanitizes, 'a\u009b2Jb', 'ab', 'ab');
test('a CSI with an intermediate byte is dropped', sanitizes, `a${E}[0 qb`, 'ab', 'ab');
test('CAN cancels a CSI', sanitizes, `${E}[31\u0018x`, 'x', 'x');
test('a newline cancels a CSI and is kept', sanitizes, `a${E}[3\nb`, 'a\nb', 'a\nb');
test('a non-ASCII character cancels a CSI and is shown', sanitizes, `${E}[3é`, 'é', 'é');
test('an unterminated CSI at the end is dropped', sanitizes, `tail${E}[3`, 'tail', 'tail');
test('a CSI longer than 64 parameter bytes is dropped whole, even SGR', sanitizes, `${E}[${'1;'.repeat(40)}mx`, 'x', 'x');

// SGR: kept on a terminal (7-bit), dropped on a pipe.
test('SGR is kept on a terminal and dropped on a pipe', sanitizes, `${E}[1;31mbold red${E}[0m plain`, `${E}[1;31mbold red${E}[0m plain`, 'bold red plain');
test('the empty SGR (reset) is kept as written', sanitizes, `${E}[32mg${E}[m`, `${E}[32mg${E}[m`, 'g');
test('256-colour and truecolour SGR are kept on a terminal', sanitizes, `${E}[38;5;208mo${E}[48;2;1;2;3mb${E}[0m`, `${E}[38;5;208mo${E}[48;2;1;2;3mb${E}[0m`, 'ob');
test('8-bit CSI SGR becomes 7-bit on a terminal', sanitizes, '\u009b31mred\u009b0m', `${E}[31mred${E}[0m`, 'red');
test('colour left on at the end is reset', sanitizes, `${E}[31mred`, `${E}[31mred${E}[0m`, 'red');
test('SGR with colon sub-parameters is dropped', sanitizes, `${E}[38:2::1:2:3mx`, 'x', 'x');
test('a private-marker "m" sequence is not SGR', sanitizes, `${E}[?1mx${E}[>4;2mx`, 'xx', 'xx');

// DCS, SOS, PM, APC.
test('DCS is dropped up to ST', sanitizes, `a${E}P1$r0m${ST}b`, 'ab', 'ab');
test('8-bit DCS is dropped up to 8-bit ST', sanitizes, 'a\u0090q#0;2;0;0;0\u009cb', 'ab', 'ab');
test('a BEL does not end a DCS (only OSC takes BEL)', sanitizes, `a${E}Px${BEL}y${ST}b`, 'ab', 'ab');
test('SOS, PM and APC strings are dropped', sanitizes, `1${E}Xsos${ST}2${E}^pm${ST}3${E}_apc${ST}4\u0098s\u009c5\u009ep\u009c6\u009fa\u009c7`, '1234567', '1234567');

// Single-character ESC sequences and charset designations.
test('single-character ESC sequences are dropped', sanitizes, `a${E}cb${E}7c${E}8d${E}Me${E}=f${E}>g${E}Dh`, 'abcdefgh', 'abcdefgh');
test('charset designation (ESC ( 0, line drawing) is dropped', sanitizes, `${E}(0lqk${E}(B`, 'lqk', 'lqk');
test('DEC screen alignment (ESC # 8) is dropped', sanitizes, `a${E}#8b`, 'ab', 'ab');
test('a run of intermediate bytes is abandoned after 16; the rest is shown', sanitizes, `a${E}${' '.repeat(20)}b`, 'a   b', 'a   b');
test('a stray ST is dropped', sanitizes, `a${ST}b`, 'ab', 'ab');
test('ESC ESC restarts the sequence', sanitizes, `a${E}${E}[2Jb`, 'ab', 'ab');
test('ESC before a newline is dropped, the newline kept', sanitizes, `a${E}\nb`, 'a\nb', 'a\nb');
test('a lone ESC at the end is dropped', sanitizes, `a${E}`, 'a', 'a');

// C0 and C1 controls.
test('C0 controls other than newline and tab are dropped', sanitizes, 'a\u0000\u0001\u0007\u0008\u000b\u000c\u000e\u001fb\tc\nd', 'ab\tc\nd', 'ab\tc\nd');
test('DEL is dropped', sanitizes, 'a\u007fb', 'ab', 'ab');
test('CR LF becomes LF', sanitizes, 'one\r\ntwo\r\n', 'one\ntwo\n', 'one\ntwo\n');
test('a lone CR cannot overwrite a line', sanitizes, 'rm -rf ~\rls -la', 'rm -rf ~ls -la', 'rm -rf ~ls -la');
test('backspaces cannot erase text', sanitizes, 'evil\u0008\u0008\u0008\u0008good', 'evilgood', 'evilgood');
test('C1 controls (NEL, RI, stray ST, and the rest) are dropped', sanitizes, 'a\u0080\u0085\u008d\u009c\u0099b', 'ab', 'ab');

// Bidi overrides and isolates.
test('bidi embeddings and overrides (U+202A–U+202E) are dropped', sanitizes, 'a\u202ab\u202bc\u202cd\u202de\u202ef', 'abcdef', 'abcdef');
test('bidi isolates (U+2066–U+2069) are dropped', sanitizes, 'a\u2066b\u2067c\u2068d\u2069e', 'abcde', 'abcde');
test('a file name hidden by RLO reads as written', sanitizes, 'invoice\u202efdp.exe', 'invoicefdp.exe', 'invoicefdp.exe');

// Text that must pass untouched.
const UNICODE = 'héllo wörld, 日本語, عربى, Ελληνικά, 👩‍💻 🇫🇷 😀, zero\u200bwidth, «quotes» — ok';
test('UTF-8 text and emoji pass untouched', sanitizes, UNICODE, UNICODE, UNICODE);
test('tabs and newlines pass untouched', sanitizes, 'a\tb\n\nc\n', 'a\tb\n\nc\n', 'a\tb\n\nc\n');
test('the empty string stays empty', sanitizes, '', '', '');

// Streaming.
test('plain text is returned at once, never held back', (t) => {
  const s = new TerminalTextSanitizer(TTY);
  t.is(s.feed('hello'), 'hello');
  t.is(s.feed(' world\n'), ' world\n');
  t.is(s.end(), '');
});

test('an SGR split across chunks is released whole when its final byte arrives', (t) => {
  const s = new TerminalTextSanitizer(TTY);
  t.is(s.feed('abc\u001b'), 'abc');
  t.is(s.feed('[3'), '');
  t.is(s.feed('1mred'), '\u001b[31mred');
  t.is(s.end(), '\u001b[0m');
});

test('an OSC 52 split across chunks never leaks a byte', (t) => {
  const s = new TerminalTextSanitizer(PIPE);
  t.deepEqual(
    ['a\u001b', ']5', '2;c;cHdu', 'ZWQ=\u001b', '\\b'].map((chunk) => s.feed(chunk)),
    ['a', '', '', '', 'b'],
  );
  t.is(s.end(), '');
});

test('an emoji split between its surrogates is held until it is whole', (t) => {
  const s = new TerminalTextSanitizer(PIPE);
  t.is(s.feed('a\ud83d'), 'a');
  t.is(s.feed('\ude00b'), '😀b');
  t.is(s.feed('c\ud83d'), 'c');
  t.is(s.end(), '\ud83d', 'a lone surrogate at the end is still written');
});

test('end() resets: a sequence left open does not swallow the next stream', (t) => {
  const s = new TerminalTextSanitizer(TTY);
  t.is(s.feed('x\u001b]0;title'), 'x');
  t.is(s.end(), '');
  t.is(s.feed('next'), 'next');
  t.is(s.end(), '');
});

const HOSTILE = `ok\u001b]52;c;cHduZWQ=\u0007 \u001b[2J\u001b[1;31mred\u001b[0m\r\n\u009b2J\u001bP1$r\u001b\\😀\u202e!`;

test('a hostile text gives the same output at every two-chunk split', (t) => {
  for (const [options, expected] of [
    [TTY, 'ok \u001b[1;31mred\u001b[0m\n😀!'],
    [PIPE, 'ok red\n😀!'],
  ] as const) {
    for (let cut = 0; cut <= HOSTILE.length; cut++) {
      const s = new TerminalTextSanitizer(options);
      t.is(s.feed(HOSTILE.slice(0, cut)) + s.feed(HOSTILE.slice(cut)) + s.end(), expected, `cut at ${cut}`);
    }
    const s = new TerminalTextSanitizer(options);
    t.is([...HOSTILE.split('').map((unit) => s.feed(unit)), s.end()].join(''), expected, 'one code unit at a time');
  }
});

// Inputs drawn from the characters that matter to the parser, plus ordinary text.
const hostileText = fc
  .array(
    fc.oneof(
      fc.constantFrom('\u001b', '[', ']', 'P', 'X', '^', '_', '\\', '\u0007', '\u0018', ';', '?', ' ', '(', '#', 'm', 'J', 'A', '0', '1', '3', '8', '\r', '\n', '\t'),
      fc.constantFrom('\u009b', '\u009d', '\u009c', '\u0090', '\u0085', '\u202e', '\u2066', '\ud83d', '\ude00', 'é', '日'),
      fc.string({ maxLength: 4 }),
    ),
    { maxLength: 60 },
  )
  .map((parts) => parts.join(''));

const splits = (text: string) => fc.array(fc.integer({ min: 0, max: text.length }), { maxLength: 8 }).map((cuts) => [...new Set(cuts)].sort((a, b) => a - b));

function chunked(text: string, cuts: readonly number[]): string[] {
  const bounds = [0, ...cuts, text.length];
  return bounds.slice(1).map((end, i) => text.slice(bounds[i], end));
}

test('property: for any split into chunks, the streamed output equals the one-shot output', (t) => {
  t.notThrows(() =>
    fc.assert(
      fc.property(
        hostileText.chain((text) => fc.tuple(fc.constant(text), splits(text), fc.boolean())),
        ([text, cuts, keepColour]) => {
          const s = new TerminalTextSanitizer({ keepColour });
          const streamed =
            chunked(text, cuts)
              .map((chunk) => s.feed(chunk))
              .join('') + s.end();
          return streamed === sanitizeTerminalText(text, { keepColour });
        },
      ),
      { numRuns: 2000 },
    ),
  );
});

// Everything zotbox can emit: printable text, \n, \t, and (on a terminal) 7-bit SGR.
const FORBIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

test('property: a pipe never gets a control character, an escape or a bidi control', (t) => {
  t.notThrows(() =>
    fc.assert(
      fc.property(hostileText, (text) => !FORBIDDEN.test(sanitizeTerminalText(text, PIPE))),
      { numRuns: 2000 },
    ),
  );
});

test('property: a terminal gets no escape other than 7-bit SGR', (t) => {
  t.notThrows(() =>
    fc.assert(
      fc.property(hostileText, (text) => {
        const withoutSgr = sanitizeTerminalText(text, TTY).replace(/\u001b\[[0-9;]*m/g, '');
        return !FORBIDDEN.test(withoutSgr);
      }),
      { numRuns: 2000 },
    ),
  );
});
