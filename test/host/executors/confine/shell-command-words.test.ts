// A whole script read as the shell reads it, where it runs (shell-command-words.ts, script mode): what the user's
// tools would run when they run a hook or a script a hook names. The expected words are written out by hand.
import test from 'ava';
import { type CommandWord, scriptWords } from '../../../../src/host/executors/confine/shell-command-words.js';

const context = { scriptDirectory: '/ws/.husky', workingDirectory: '/ws', environment: { HOME: '/home/u', TOOLS: 'tools' } };
const show = (word: CommandWord) => (word.kind === 'path' ? `${word.anchor}:${word.text}${word.tree ? '/**' : ''}${word.runs === true ? ' (runs)' : ''}` : `unresolved:${word.text}`);
const words = (text: string, environment: Readonly<Record<string, string>> = context.environment) => scriptWords(text, { ...context, environment }).map(show);

test("a script's own directory, as scripts spell it, is where the script lies", (t) => {
  for (const spelling of ['"$(dirname -- "$0")"', '"$(dirname "$0")"', '"${0%/*}"', '"$(cd "$(dirname "$0")" && pwd)"', '`dirname "$0"`'])
    t.deepEqual(words(`. ${spelling}/_/husky.sh`), ['plain:. (runs)', 'plain:/ws/.husky/_/husky.sh (runs)'], spelling);
  t.deepEqual(words('sh "$(dirname "$(dirname "$0")")/check.sh"'), ['plain:sh (runs)', 'plain:/ws/check.sh (runs)']);
});

test('a variable the script sets to a plain value is spelled out; one the environment holds is its value; a default is used when unset', (t) => {
  // DIR is named like a search path: the directory it sets is protected whole.
  t.deepEqual(words('DIR=scripts/ci\nsh "$DIR/check.sh"'), [
    'plain:DIR=scripts/ci',
    'plain:DIR',
    'plain:scripts/ci',
    'plain:scripts/ci/** (runs)',
    'plain:sh (runs)',
    'plain:scripts/ci/check.sh (runs)',
  ]);
  t.deepEqual(words('sh $TOOLS/run.sh'), ['plain:sh (runs)', 'plain:tools/run.sh (runs)']);
  t.deepEqual(words('sh ${CHECKS:-scripts}/check.sh'), ['plain:sh (runs)', 'plain:scripts/check.sh (runs)']);
  t.deepEqual(words('sh ${CHECKS:-scripts}/check.sh', { CHECKS: 'ci' }), ['plain:sh (runs)', 'plain:ci/check.sh (runs)']);
  t.deepEqual(words('. "${XDG_CONFIG_HOME:-$HOME/.config}/husky/init.sh"'), ['plain:. (runs)', 'plain:/home/u/.config/husky/init.sh (runs)']);
});

test('what cannot be spelled out: a lone word names nothing; within a path that is run, it is unresolved; a pattern that is run covers its directory', (t) => {
  // An unset variable or a command's output alone: data for the program ([ -n "$CI" ]), or a program zotbox cannot name.
  // A builtin run as a command is the shell's own, no file.
  t.deepEqual(words('[ -n "$CI" ] && exit 0'), ['plain:-n', 'plain:0']);
  t.deepEqual(words('n=$(basename "$0")\nsh -e "$n"'), ['plain:n', 'plain:sh (runs)', 'plain:-e', 'plain:basename (runs)']);
  t.deepEqual(words('sh $UNSET/check.sh'), ['plain:sh (runs)', 'unresolved:$UNSET/check.sh']);
  t.deepEqual(words('cat $UNSET/list'), ['plain:cat (runs)']);
  t.deepEqual(words('for f in scripts/*.sh; do sh "$f"; done'), ['plain:f', 'plain:in', 'plain:scripts/** (runs)', 'plain:do', 'plain:sh (runs)']);
  // A pattern given to a program as data (eslint src/*.ts, case ... in *.md) names no program.
  t.deepEqual(words('eslint src/*.ts'), ['plain:eslint (runs)']);
  t.deepEqual(words('sh *.sh'), ['plain:sh (runs)', 'unresolved:*.sh']);
  t.deepEqual(words('x=$(git diff --name-only)\nsh "$x/run.sh"'), ['plain:x', 'plain:sh (runs)', 'unresolved:$x/run.sh', 'plain:git (runs)', 'plain:diff', 'plain:--name-only']);
});

test('a cd to a directory the environment does not hold is unresolved: every relative word after it could be anywhere', (t) => {
  t.deepEqual(
    words('cd "$HOOK_DIR" && sh lint.sh').filter((word) => word.startsWith('unresolved')),
    ['unresolved:$HOOK_DIR'],
  );
  t.deepEqual(words('cd tools && sh lint.sh'), ['plain:tools', 'plain:sh (runs)', 'plain:tools/sh (runs)', 'plain:lint.sh (runs)', 'plain:tools/lint.sh (runs)']);
});

test('what is run or sourced is marked: a command, . FILE, an input redirection, an interpreter script; comments are not read', (t) => {
  t.deepEqual(words('. ./scripts/common'), ['plain:. (runs)', 'plain:./scripts/common (runs)']);
  t.deepEqual(words('sh <scripts/check.sh'), ['plain:sh (runs)', 'plain:scripts/check.sh (runs)']);
  t.deepEqual(words('# run $UNSET/x.sh\nnpx lint-staged'), ['plain:npx (runs)', 'plain:lint-staged']);
  t.deepEqual(words('python3 -m scripts.check'), [
    'plain:python3 (runs)',
    'plain:-m',
    'plain:scripts.check',
    'plain:scripts.py',
    'plain:scripts/__init__.py',
    'plain:scripts/check.py',
    'plain:scripts/check/__init__.py',
    'plain:scripts/check/__main__.py',
    'plain:scripts/check/** (runs)',
  ]);
  t.deepEqual(words('sh "scripts/pre commit.sh"').slice(0, 2), ['plain:sh (runs)', 'plain:scripts/pre commit.sh (runs)']);
});

test("generated hooks of husky 9 and lefthook read whole, with nothing unresolved; lefthook's pick from node_modules is the dependencies'", (t) => {
  const husky = [
    '#!/usr/bin/env sh',
    '[ "$HUSKY" = "2" ] && set -x',
    'n=$(basename "$0")',
    's=$(dirname "$(dirname "$0")")/$n',
    '[ ! -f "$s" ] && exit 0',
    'i="${XDG_CONFIG_HOME:-$HOME/.config}/husky/init.sh"',
    '[ -f "$i" ] && . "$i"',
    '[ "${HUSKY-}" = "0" ] && exit 0',
    'export PATH="node_modules/.bin:$PATH"',
    'sh -e "$s" "$@"',
    'c=$?',
    'exit $c',
  ].join('\n');
  const read = words(husky);
  t.deepEqual(
    read.filter((word) => word.startsWith('unresolved')),
    [],
  );
  t.true(read.includes('plain:/home/u/.config/husky/init.sh (runs)'));
  const lefthook = [
    'call_lefthook()',
    '{',
    '  if test -n "$LEFTHOOK_BIN"',
    '  then',
    '    "$LEFTHOOK_BIN" "$@"',
    '  else',
    '    dir="$(git rev-parse --show-toplevel)"',
    "    osArch=$(uname | tr '[:upper:]' '[:lower:]')",
    '    "$dir/node_modules/lefthook-${osArch}/bin/lefthook" "$@"',
    '  fi',
    '}',
    'call_lefthook run "pre-commit" "$@"',
  ].join('\n');
  const hook = words(lefthook);
  t.deepEqual(
    hook.filter((word) => word.startsWith('unresolved') || word.includes('node_modules/**')),
    [],
  );
  t.true(hook.includes('plain:dir=/ws'));
});

test('env -C DIR moves the command; find that runs what it finds covers its starting points; find that lints them does not', (t) => {
  t.true(words('env -C tools sh lint.sh').includes('plain:tools/lint.sh (runs)'));
  t.true(words('env --chdir=tools sh lint.sh').includes('plain:tools/lint.sh (runs)'));
  t.true(words("find scripts -name '*.sh' -exec sh {} ';'").includes('plain:scripts/** (runs)'));
  t.true(words('find checks -type f -exec {} \\;').includes('plain:checks/** (runs)'));
  t.false(words("find src -name '*.py' -exec black {} +").some((word) => word.includes('src/**')));
  t.true(words('sh scripts/{a,b}.sh').includes('plain:scripts/** (runs)'));
});

test('$\'...\' is read as bash reads it, escapes spelled out; $"..." is its text', (t) => {
  t.deepEqual(words("sh $'scripts/check.sh'"), ['plain:sh (runs)', 'plain:scripts/check.sh (runs)']);
  t.deepEqual(words("sh $'scripts/\\x63heck.sh'"), ['plain:sh (runs)', 'plain:scripts/check.sh (runs)']);
  t.deepEqual(words('sh $"scripts/check.sh"'), ['plain:sh (runs)', 'plain:scripts/check.sh (runs)']);
});

test("a command's output run as a program is unresolved: eval, sh -c and a command position alike", (t) => {
  for (const line of ['eval "$(cat scripts/cmd)"', 'sh -c "$(cat scripts/cmd)"', '$(cat scripts/cmd) --check', '`cat scripts/cmd`'])
    t.deepEqual(
      words(line).filter((word) => word.startsWith('unresolved')),
      [line.includes('`') ? 'unresolved:`cat scripts/cmd`' : 'unresolved:$(cat scripts/cmd)'],
      line,
    );
  // Its output as data for a program is not run: a lint over the staged files.
  t.deepEqual(
    words('npx eslint $(git diff --cached --name-only)').filter((word) => word.startsWith('unresolved')),
    [],
  );
});

test("$0 is the script's own file; the arguments its caller gives are values like the script's own", (t) => {
  const read = scriptWords('[ -x "$0.local" ] && exec "$0.local" "$@"', { ...context, scriptFile: '/ws/scripts/check.sh' }).map(show);
  t.true(read.includes('plain:/ws/scripts/check.sh.local (runs)'), read.join(' '));
  // git's argument inside a path given as data names nothing; run, it is a pattern under its fixed directory.
  t.deepEqual(
    words('grep -q fixup "$UNSET/$1"').filter((word) => word.startsWith('unresolved')),
    [],
  );
  t.true(words('sh "scripts/$1.sh"').includes('plain:scripts/** (runs)'));
});

test("a here-document's body is not the script's words: an apostrophe in a message leaves the rest of the hook as it is", (t) => {
  const read = words("cat <<EOF\nDon't commit secrets.\nEOF\nsh tools/evil.sh\n");
  t.true(read.includes('plain:tools/evil.sh (runs)'), read.join(' '));
  t.deepEqual(
    read.filter((word) => word.startsWith('unresolved')),
    [],
  );
  // A shell reads its here-document as a script.
  t.true(words('sh <<EOF\nsh tools/inner.sh\nEOF\n').includes('plain:tools/inner.sh (runs)'));
});

test('a quote never closed is unresolved: zotbox cannot tell where the words end', (t) => {
  t.deepEqual(
    words('sh "tools/x.sh\n').filter((word) => word.startsWith('unresolved')),
    ['unresolved:sh "tools/x.sh\n'],
  );
});

test('a quoted parenthesis inside $(...) does not end it: the words after it are read as the script has them', (t) => {
  for (const line of ['x=$(echo ")"); sh tools/evil.sh', "x=$(printf ')'); sh tools/evil.sh"]) {
    const read = words(line);
    t.true(read.includes('plain:tools/evil.sh (runs)'), `${line}: ${read.join(' ')}`);
    t.deepEqual(
      read.filter((word) => word.startsWith('unresolved')),
      [],
      line,
    );
  }
});

test("a here-document given to a program that is no interpreter is data: a message's words import nothing", (t) => {
  const read = words('cat <<EOF\nimport data from the old system first\nEOF\n');
  t.false(
    read.some((word) => word.includes('data')),
    read.join(' '),
  );
  t.true(words("python3 - <<'EOF'\nimport tools.lint\nEOF\n").includes('plain:tools/lint.py'));
});
