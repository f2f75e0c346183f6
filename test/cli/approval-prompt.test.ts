// The approval prompt of `zotbox run --approve` (src/cli/approval-prompt.ts): every
// program and argument is shown escaped, so a command cannot draw on the terminal,
// break the prompt's lines or reorder its text with bidi characters.
import test from 'ava';
import { formatApprovalPrompt, shownWord } from '../../src/cli/approval-prompt.js';

/** Anything a terminal would interpret: C0 and C1 controls, DEL, and the bidi and invisible formatting characters. */
const INTERPRETED = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/;

test('a command holding ANSI escapes, a line break and bidi characters is shown with each one as a visible escape', (t) => {
  const hostile = ['cat', 'a\u001b[31mred\u001b[0m', 'two\nlines\r', 'abc\u202edcba', '\u009b2J', 'ok\u0007'];
  const text = formatApprovalPrompt({ id: 1, program: { name: 'cat\u001b]0;x\u0007', program: '/usr/bin/cat' }, argv: [hostile] });
  t.false(INTERPRETED.test(text), JSON.stringify(text));
  t.true(text.includes('"a\\u001b[31mred\\u001b[0m"'));
  t.true(text.includes('"two\\u000alines\\u000d"'));
  t.true(text.includes('"abc\\u202edcba"'));
  t.true(text.includes('"\\u009b2J"'));
  t.true(text.includes('cat\\u001b]0;x\\u0007'));
  // Only the prompt's own line breaks: one line per word, framed.
  t.is(text.split('\n').filter((line) => line.startsWith('│   argument')).length, 5);
});

test('a word is quoted so that it reads as exactly what runs: quotes and backslashes escaped, a long one cut saying so', (t) => {
  t.is(shownWord('say "hi"'), '"say \\"hi\\""');
  t.is(shownWord('\\u001b'), '"\\\\u001b"', 'the text \\u001b is told apart from an escape character');
  t.regex(shownWord('x'.repeat(1000)), /^"x{300}" … \(700 more characters\)$/);
});
