// `[[ … ]]` read as bash reads it (shell-lexer.ts): inside it `&&`, `||`, `<`, `>`, `(`, `)` and `!` are the test's
// operators, not a command's end nor a redirection; a quoted `[[` or `]]` is a word. Expected commands by hand.
import test from 'ava';
import { scriptWords } from '../../../../src/host/executors/confine/shell-command-words.js';
import { lexShell, unmark } from '../../../../src/host/executors/confine/shell-lexer.js';
import { mayAlias } from '../../../../src/host/executors/confine/shell-top-level-lines.js';

const commands = (text: string) => {
  const notes = { hereDocuments: [], pipes: new Map(), processSubstitutions: [], unclosed: false, redirected: new Set<string[]>() };
  // An expansion shows as `$`.
  return lexShell(text, [], undefined, notes).map((command) => command.map((word) => unmark(word.replace(/[\uE000-\uEFFF]/gu, '$'))).join(' '));
};

test("a test's operators inside [[ ]] end no command; after ]] they do", (t) => {
  t.deepEqual(commands('if [[ -n "$CI" && $n -gt 1 ]]; then echo x; fi'), ['if [[ -n $ $ -gt 1 ]]', 'then echo x', 'fi']);
  t.deepEqual(commands('[[ $a < $b || ( -f x ) ]] && sh x.sh'), ['[[ $ $ -f x ]]', 'sh x.sh']);
  t.deepEqual(commands('! [[ -f a && -f b ]] || sh x.sh'), ['[[ -f a -f b ]]', 'sh x.sh']);
});

test('a quoted [[ or ]] is a word: the commands around it are read as commands', (t) => {
  t.deepEqual(commands('echo "[[" && sh a.sh'), ['echo [[', 'sh a.sh']);
  t.deepEqual(commands('[[ "]]" == x || -f y ]] && sh z.sh'), ['[[ ]] == x -f y ]]', 'sh z.sh']);
  // A quoted `[[` at a command's start is a program's name, no test: the `&&` after it ends the command.
  t.deepEqual(commands('"[[" x && sh a.sh'), ['[[ x', 'sh a.sh']);
  // `[[` as an argument opens no test.
  t.deepEqual(commands('echo [[ && sh b.sh'), ['echo [[', 'sh b.sh']);
});

test("a test's operand is no command word: a counting hook's [[ … && $n -gt 1 ]] reads; a computed command after ]] may alias", (t) => {
  const hook = 'n=$(git diff --cached --name-only | wc -l)\nif [[ -n "$CI" && $n -gt 1 ]]; then echo "$n"; fi\n';
  t.deepEqual(
    scriptWords(hook, { workingDirectory: '/ws', environment: { HOME: '/home/u' }, shell: 'bash' }).filter((word) => word.kind === 'unresolved'),
    [],
  );
  t.false(mayAlias(hook));
  t.true(mayAlias('[[ -n "$CI" ]] && $cmd x\n'));
  // An arithmetic command's operands are no command words either.
  t.false(mayAlias('n=1\nif (( $n > 0 )); then echo; fi\n'));
  t.true(mayAlias('(( n > 0 )) && $cmd x\n'));
  // A quoted `((` opens nothing: the computed command word between is seen.
  t.true(mayAlias('echo "((" ; $cmd ; echo "))"\n'));
  t.true(mayAlias('echo "x\n((" ; $cmd ; echo "))"\n'));
  t.false(mayAlias('for (( i = 0; i < $n; i++ )); do :; done\n'));
  t.true(mayAlias('X=1 "$@"\n'));
});
