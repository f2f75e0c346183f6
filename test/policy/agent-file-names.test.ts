// The name rule by hand: what the user's tools would read as an option or as shell code, and ordinary names that stay.
import test from 'ava';
import { isInsideToolData, responseFileReason, unsafeNameReason } from '../../src/policy/agent-file-names.js';

/** The name with every character outside printable ASCII as \u{…}, so titles stay distinct. */
const shown = (name: string) => JSON.stringify(name.replace(/[^\x21-\x7e]/gu, (c) => (c === ' ' ? ' ' : `\\u{${c.codePointAt(0)!.toString(16)}}`)));

const refused = test.macro({
  exec(t, name: string) {
    t.not(unsafeNameReason(name), undefined);
  },
  title: (_title, name: string) => `${shown(name)} is refused`,
});

const accepted = test.macro({
  exec(t, name: string) {
    t.is(unsafeNameReason(name), undefined);
  },
  title: (_title, name: string) => `${shown(name)} is a plain name`,
});

// Options: a leading dash, and a leading brace bash can expand into one (`{-,-}-config=p.cjs`).
for (const name of ['--config=p.cjs', '-rf', '-', '--', '{-,-}-config=p.cjs', '{a,b}', '{a..c}']) test(refused, name);
// Line ends and control characters (a newline ends a command in shell text; python's str.split() splits on 0x1c-0x1f, NEL).
for (const name of ['a\nb', 'a\rb', 'a\tb', 'a\u000bb', 'a\u000cb', 'a\u001cb', 'a\u0085b', 'a\u2028b', 'a\u0001b', 'a\u007fb']) test(refused, name);
// Word splitting (IFS, python's str.split(): every unicode space) that hands a program an option or a brace expansion.
for (const name of ['a --config=p.cjs', 'a -x', 'a\u00a0--config=p.cjs', 'a\u3000-x', 'x -- -y', 'a {-,-}-x', ' -x', 'a @args.txt']) test(refused, name);
// Names with spaces that split into no option stay ordinary work (a `--` ends options).
for (const name of ['a b', 'Chapter 1 - Intro.md', 'a\u00a0b', 'a\u3000b', 'Release Notes.md', 'spec.cy.js -- logs in (failed).png', 'a - b', 'x y-z']) test(accepted, name);
// Shell code anywhere in the word: expansions, separators, redirections, quoting.
for (const name of ['$(sh p.sh).js', '${X}', '$IFS', 'a$IFS-x', '$_', '$1', '$@', "$'x'", '$post_id', '`sh p.sh`.js', 'a;sh p.sh', 'x;y', 'a&b', 'a|b', 'a<b', 'a>b', 'a"b', "a'b", 'a\\b'])
  test(refused, name);

// Ordinary work: routes (Next.js, SvelteKit), scopes, and the rest of the printable characters but those above.
for (const name of [
  '[id].tsx',
  'concerts.$city.tsx',
  '$.tsx',
  '($lang).about.tsx',
  '$postId.tsx',
  'price$',
  '{{cookiecutter.project_slug}}',
  'a {b}',
  '@types',
  'a b@c',
  '(group)',
  '(shop)',
  '[...slug]',
  '@scope',
  '+page.svelte',
  '~',
  'a~1',
  '#notes',
  'a=b',
  'a:b',
  'a,b',
  '100%',
  'café.md',
  '日本語.txt',
  'a-b',
  'x{a,b}',
  '.env.local',
  'a*b',
  'a?b',
  '!x',
  'page.tsx',
]) {
  test(accepted, name);
}

test("only names below a git directory are git's data; package directories are checked like any other", (t) => {
  t.true(isInsideToolData('.git/refs/heads/a;b'));
  t.true(isInsideToolData('sub/.GIT/x'));
  t.false(isInsideToolData('node_modules/x y/index.js'));
  t.false(isInsideToolData('.venv/lib/python3.12/site-packages/setuptools/script (dev).tmpl'));
  t.false(isInsideToolData('src/a b'));
});

test('a leading @ is a response file of options', (t) => {
  t.not(responseFileReason('@args.txt'), undefined);
  t.is(responseFileReason('a@b'), undefined);
});
