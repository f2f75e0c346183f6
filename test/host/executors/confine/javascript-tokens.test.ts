// JavaScript read as node's tokenizer reads it (javascript-tokens.ts): what is code and what is a comment, a string,
// a template's text or a regular expression, and where the text alone cannot tell. The blanked texts are written out
// by hand; each hiding case was run under node 20 (the code after the `/` runs there).
import test from 'ava';
import { javascriptTokens } from '../../../../src/host/executors/confine/javascript-tokens.js';

const blanked = (code: string) => javascriptTokens(code).blanked;
const ambiguous = (code: string) => javascriptTokens(code).ambiguous.map((each) => each.at);

test('a "/" after an operand divides: the code after it is code, whatever the operand', (t) => {
  for (const [code, expected] of [
    ['a /**/ / run(x) / 1', 'a      / run(x) / 1'],
    ['n++ / run(x) / 1', 'n++ / run(x) / 1'],
    ['q = 1. / run(x) / 1', 'q = 1. / run(x) / 1'],
    ['q = café / run(x) / 1', 'q = café / run(x) / 1'],
    ['q = o.return / run(x) / 1', 'q = o.return / run(x) / 1'],
    ['q = o?.delete / run(x) / 1', 'q = o?.delete / run(x) / 1'],
    ["q = '1' / run(x) / 1", "q = ' ' / run(x) / 1"],
    ['q = `1` / run(x) / 1', 'q = ` ` / run(x) / 1'],
    ['q = /1/ / run(x) / 1', 'q = / / / run(x) / 1'],
    ['q = o.delete++ / run(x) / 1', 'q = o.delete++ / run(x) / 1'],
    ['q = (a + b) / run(x) / 1', 'q = (a + b) / run(x) / 1'],
    ['q = a[0] / run(x) / 1', 'q = a[0] / run(x) / 1'],
    ['q = this.#n / run(x) / 1', 'q = this.#n / run(x) / 1'],
    // A name whose first character is outside the BMP (two UTF-16 units).
    ['q = \u{1d465} / run(x) / 1', 'q = \u{1d465} / run(x) / 1'],
    ['q = o.\u{1d465} / run(x) / 1', 'q = o.\u{1d465} / run(x) / 1'],
    // TypeScript's non-null assertion is postfix after an operand on its line.
    ['q = b! / run(x) / 1', 'q = b! / run(x) / 1'],
    // A run of postfix operators reads as one operand (review s00w).
    ['q = b!! / run(x) / 1', 'q = b!! / run(x) / 1'],
    ['q = this!! / run(x) / 1', 'q = this!! / run(x) / 1'],
    // A call of a member named like a statement's word is no statement's head.
    ['q = o.if(x) / run(x) / 1', 'q = o.if(x) / run(x) / 1'],
  ] as const)
    t.is(blanked(code), expected, code);
});

test('a "/" where an expression starts begins a regular expression, whose text is no code', (t) => {
  for (const [code, expected] of [
    ["if (x) /'/.test(s) || run(x); //'", 'if (x) / /.test(s) || run(x);    '],
    ["if (x) !/'/.test(s) && run(x); //'", 'if (x) !/ /.test(s) && run(x);    '],
    ["for await (const l of r) /'/.test(l); run(x); //'", 'for await (const l of r) / /.test(l); run(x);    '],
    ["do x(); while (y) /'/.test(s); run(x); //'", 'do x(); while (y) / /.test(s); run(x);    '],
    ['return /a"b/.test(s)', 'return /   /.test(s)'],
    ['s.split(/,/)', 's.split(/ /)'],
    ['a.map((x) => /y/.test(x))', 'a.map((x) => / /.test(x))'],
    ['x = !/"/.test(s)', 'x = !/ /.test(s)'],
    ['x = y\n++/"/.lastIndex', 'x = y\n++/ /.lastIndex'],
    // A block comment that holds a line break is one: the `++` after it is a prefix.
    ['x = y /*\n*/ ++/"/.lastIndex', 'x = y   \n   ++/ /.lastIndex'],
    ['x = /[/"]/g.test(s)', 'x = /    /g.test(s)'],
  ] as const)
    t.is(blanked(code), expected, code);
  t.deepEqual(ambiguous("if (x) /'/.test(s) || run(x); //'"), []);
});

test('a line comment ends at any line break node knows (CR, U+2028, U+2029), a #! line is a comment, a string goes on over an escaped CRLF', (t) => {
  t.is(blanked('// a\rrun(x)'), '    \rrun(x)');
  t.is(blanked('// a\u2028run(x)'), '    \u2028run(x)');
  t.is(blanked('// a\u2029run(x)'), '    \u2029run(x)');
  t.is(blanked('#!/usr/bin/env node `\nrun(x)\n//`'), '                     \nrun(x)\n   ');
  t.is(blanked("q = '\\\r\n'; run(x) //'"), "q = ' \r\n'; run(x)    ");
  // U+2028 may stand in a string: it does not end it.
  t.is(blanked("q = 'a\u2028'; run(x)"), "q = ' \u2028'; run(x)");
  t.deepEqual(javascriptTokens("q = '\\\r\n'; run(x)").literals, [{ start: 4, end: 9, text: '\\\r\n', expands: false }]);
});

test("where the text cannot tell a division from a regular expression, or the file's kind decides, it is ambiguous", (t) => {
  for (const [code, at] of [
    ['q = {} / run(x) / 1', 7],
    ['f = function () {} / run(x) / 1', 19],
    ['if (a) {}\n/re/.test(s)', 10],
    ['q = {}! / run(x) / 1', 8],
    ['q = await / run(x) / 1', 10],
    ['q = yield / run(x) / 1', 10],
    ['q = of / run(x) / 1', 7],
    ['q = x as void / run(x) / 1', 14],
    ['q = x as Array<number> / run(x) / 1', 23],
    ['q = a >> /x/g', 9],
    ['q = 1 <!-- `', 6],
    ['q = 1;\n--> `', 7],
    ['q = 1;\n  /* c */ --> `', 17],
    // A line that starts with `/` after an operand: the statement may end there (review s98u).
    ['var x\n/re/.test(s)', 6],
    ['outer: for (;;) { continue outer\n/re/.test(s) }', 33],
    ['import "m"\n/re/.test(s)', 11],
    ['let seen: string[]\n/re/.test(s)', 19],
    ['const r = a\n  / b;', 14],
    // A character no rule here knows, before a `/`.
    ['q = a\u00a7 / run(x) / 1', 7],
  ] as const)
    t.deepEqual(ambiguous(code), [at], code);
});

test('ordinary code is read without ambiguity', (t) => {
  for (const code of [
    'const half = (a + b) / 2;\nconst r = s.split(/,/);\nif (!/^v\\d/.test(v)) throw new Error("bad");',
    'while (i --> 0) total += a[i] / 2;',
    'class A {\n  m() { return this.n / 2; }\n}\n// done\n/* and */',
    'const t = `${ {a: 1}.a / 2 }/${ x }`; const u = a < b && c > d;',
    'const f = (x) => x / 2; let n = 0; n++; n--; const m = n++ / 2;',
    'function g() {}\nexport default g;',
    // A name outside the BMP is a name.
    'const \u{1d465} = 1;\nconst y = \u{1d465} / 2;',
  ])
    t.deepEqual(ambiguous(code), [], code);
});

test('templates nested past the limit are not read on: the place is ambiguous, and the reading does not overflow the stack', (t) => {
  const code = '`${'.repeat(300_000);
  t.deepEqual(ambiguous(code), [256 * 3 + 1]);
});
