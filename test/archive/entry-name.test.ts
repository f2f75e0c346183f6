import test from 'ava';
import { checkEntryName, compareUtf8 } from '../../src/archive/entry-name.js';

const accepted = test.macro({
  exec(t, raw: string, name: string, isDirectory: boolean) {
    t.deepEqual(checkEntryName(raw), { ok: true, skip: false, name, isDirectory });
  },
  title: (_title, raw: string) => `${JSON.stringify(raw)} is accepted`,
});

const rejected = test.macro({
  exec(t, raw: string, reason: RegExp) {
    const result = checkEntryName(raw);
    t.false(result.ok);
    if (!result.ok) t.regex(result.reason, reason);
  },
  title: (_title, raw: string) => `${JSON.stringify(raw)} is rejected`,
});

test(accepted, 'AGENT.md', 'AGENT.md', false);
test(accepted, 'skills/review/SKILL.md', 'skills/review/SKILL.md', false);
test(accepted, 'assets/', 'assets', true);
test(accepted, './manifest.json', 'manifest.json', false);
test(accepted, '././a/b/', 'a/b', true);
test(accepted, '..foo', '..foo', false);
test(accepted, 'a/...', 'a/...', false);
test(accepted, 'café.md', 'café.md', false);
test(accepted, '.hidden', '.hidden', false);

test(rejected, '', /empty/);
test(rejected, '../escape', /\.\./);
test(rejected, 'a/../../b', /\.\./);
test(rejected, 'a/..', /\.\./);
test(rejected, '/etc/passwd', /absolute/);
test(rejected, '//etc/passwd', /absolute/);
test(rejected, 'a\\..\\b', /backslash/);
test(rejected, 'C:\\x', /backslash/);
test(rejected, 'a\u0000b', /NUL/);
test(rejected, 'a\nb', /control/);
test(rejected, 'a\rb', /control/);
test(rejected, 'a\u001bb', /control/);
test(rejected, 'a\u0085b', /control/);
test(rejected, 'a//b', /empty path component/);
test(rejected, 'a/./b', /"\." component/);
test(rejected, 'bad\ufffdname', /UTF-8/);
test(rejected, `${'x'.repeat(256)}`, /longer than 255/);
test(rejected, `${'a/'.repeat(2100)}x`, /longer than 4096/);

test('bare "." and "./" entries are skipped, as GNU tar writes them for -C dir .', (t) => {
  for (const raw of ['.', './', '././']) t.deepEqual(checkEntryName(raw), { ok: true, skip: true });
});

test('canonical order compares UTF-8 bytes, not UTF-16 code units', (t) => {
  // U+FF5E (EF BD 9E) sorts before U+1F600 (F0 9F 98 80) by bytes, after it by UTF-16 units.
  t.true(compareUtf8('\uff5e', '\u{1f600}') < 0);
  t.true('\uff5e' > '\u{1f600}');
  t.true(compareUtf8('docs', 'docs-extra.md') < 0);
  t.true(compareUtf8('docs.txt', 'docs/guides') < 0);
  t.true(compareUtf8('Zebra.txt', 'data') < 0);
});
