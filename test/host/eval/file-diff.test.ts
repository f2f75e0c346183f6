// The unified diff of the HTML report's "files changed" (issue 27 §4): hunks with
// three lines of context as `diff -u` writes them, an added or deleted file whole,
// and a diff past its bound cut with a marker.
import test from 'ava';
import { unifiedDiff } from '../../../src/host/eval/file-diff.js';

const lines = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `line ${i + from}`);

test('one changed line in the middle: one hunk with three lines of context each side', (t) => {
  const before = `${lines(10).join('\n')}\n`;
  const after = before.replace('line 5\n', 'line five\n');
  t.deepEqual(unifiedDiff(before, after, 10_000), {
    text: ['@@ -2,7 +2,7 @@', ' line 2', ' line 3', ' line 4', '-line 5', '+line five', ' line 6', ' line 7', ' line 8'].join('\n'),
    cut: false,
  });
});

test('changes far apart make two hunks; an insertion counts only on the after side', (t) => {
  const before = `${lines(20).join('\n')}\n`;
  const after = before.replace('line 2\n', 'line 2\ninserted\n').replace('line 18\n', '');
  t.is(
    unifiedDiff(before, after, 10_000).text,
    ['@@ -1,5 +1,6 @@', ' line 1', ' line 2', '+inserted', ' line 3', ' line 4', ' line 5', '@@ -15,6 +16,5 @@', ' line 15', ' line 16', ' line 17', '-line 18', ' line 19', ' line 20'].join('\n'),
  );
});

test('an added file is all +, a deleted one all -', (t) => {
  t.is(unifiedDiff('', 'a\nb\n', 100).text, '@@ -0,0 +1,2 @@\n+a\n+b');
  t.is(unifiedDiff('a\nb\n', '', 100).text, '@@ -1,2 +0,0 @@\n-a\n-b');
  t.is(unifiedDiff('same\n', 'same\n', 100).text, '', 'no change, no hunk');
});

test('a diff past its bound is cut, and its last line says so', (t) => {
  const diff = unifiedDiff('', `${lines(1000).join('\n')}\n`, 200);
  t.true(diff.cut);
  t.true(diff.text.length < 300);
  t.regex(diff.text.split('\n').at(-1) ?? '', /^… diff cut at 200 characters \(\d+ more lines\)$/);
});
