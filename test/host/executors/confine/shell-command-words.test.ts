// A whole script read as the shell reads it, where it runs (shell-command-words.ts, script mode): what the user's
// tools would run when they run a hook or a script a hook names. The expected words are written out by hand.
import test from 'ava';
import { isStdlibShadow } from '../../../fixtures/python-stdlib-shadows.js';
import { type CommandWord, scriptWords, shebangProgram } from '../../../../src/host/executors/confine/shell-command-words.js';

const context = { scriptDirectory: '/ws/.husky', workingDirectory: '/ws', environment: { HOME: '/home/u', TOOLS: 'tools' } };
const show = (word: CommandWord) => (word.kind === 'path' ? `${word.anchor}:${word.text}${word.tree ? '/**' : ''}${word.runs === true ? ' (runs)' : ''}` : `unresolved:${word.text}`);
const words = (text: string, environment: Readonly<Record<string, string>> = context.environment) =>
  scriptWords(text, { ...context, environment })
    .map(show)
    .filter((shown) => !isStdlibShadow(shown));

test("a script's own directory, as scripts spell it, is where the script lies", (t) => {
  // `${0%/*}` is spelled out only from a known file: of a $0 with no "/" (`sh -c`'s "sh") it is $0 itself.
  const hook = (text: string) => scriptWords(text, { ...context, scriptFile: '/ws/.husky/pre-commit' }).map(show);
  for (const spelling of ['"$(dirname -- "$0")"', '"$(dirname "$0")"', '"${0%/*}"', '"$(cd "$(dirname "$0")" && pwd)"', '`dirname "$0"`'])
    t.deepEqual(hook(`. ${spelling}/_/husky.sh`), ['plain:. (runs)', 'plain:/ws/.husky/_/husky.sh (runs)'], spelling);
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
  // A value the script computes and zotbox cannot spell out (no $0 known here), run: anything.
  t.deepEqual(words('n=$(basename "$0")\nsh -e "$n"'), ['plain:n', 'plain:sh (runs)', 'plain:-e', 'unresolved:$n', 'plain:basename (runs)']);
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
  // Every relative word counts from every place the cds reach, the cd's own target too (a loop or a function may run
  // it again from there): tools/tools.
  t.deepEqual(words('cd tools && sh lint.sh'), ['plain:tools', 'plain:sh (runs)', 'plain:tools/sh (runs)', 'plain:lint.sh (runs)', 'plain:tools/lint.sh (runs)', 'plain:tools/tools']);
});

test('a command substitution inside another expansion runs: a default, an assigned default, an alternative, arithmetic', (t) => {
  for (const text of [
    'X="${Y:-$(sh tools/lint.sh)}"',
    ': "${Y:=$(sh tools/lint.sh)}"',
    'echo "${Y:+`sh tools/lint.sh`}"',
    'echo $(( $(sh tools/lint.sh) + 1 ))',
    'echo "${Y:-${Z:-$(sh tools/lint.sh)}}"',
  ])
    t.true(words(text).includes('plain:tools/lint.sh (runs)'), text);
});

test("cd looks in the folders CDPATH lists first: the script's own CDPATH, else the environment's; one zotbox cannot spell out refuses", (t) => {
  // bash, dash and zsh: `cd lib` is vendor/lib when CDPATH=vendor and that folder exists, else ./lib.
  t.deepEqual(
    words('CDPATH=vendor\ncd lib && sh lint.sh').filter((word) => word.includes('lint.sh')),
    ['plain:lint.sh (runs)', 'plain:lib/lint.sh (runs)', 'plain:vendor/lib/lint.sh (runs)'],
  );
  t.deepEqual(
    words('cd lib && sh lint.sh', { CDPATH: ':/opt/tools' }).filter((word) => word.includes('lint.sh')),
    ['plain:lint.sh (runs)', 'plain:lib/lint.sh (runs)', 'plain:/opt/tools/lib/lint.sh (runs)'],
  );
  // A target starting with / . or .. is not looked for in CDPATH.
  t.deepEqual(
    words('CDPATH=vendor\ncd ./lib && sh lint.sh').filter((word) => word.includes('lint.sh')),
    ['plain:lint.sh (runs)', 'plain:lib/lint.sh (runs)'],
  );
  t.deepEqual(
    words('read -r CDPATH < .cdpath\ncd lib && sh lint.sh').filter((word) => word.startsWith('unresolved')),
    ['unresolved:cd lib'],
  );
  t.deepEqual(
    words('cdpath=(vendor)\ncd lib && sh lint.sh').filter((word) => word.startsWith('unresolved')),
    ['unresolved:cdpath='],
  );
});

test('what is run or sourced is marked: a command, . FILE, an input redirection, an interpreter script; comments are not read', (t) => {
  t.deepEqual(words('. ./scripts/common'), ['plain:. (runs)', 'plain:./scripts/common (runs)']);
  // A redirection's target is one word, read before the command it stands in; the words after it go on with the command.
  t.deepEqual(words('sh <scripts/check.sh'), ['plain:scripts/check.sh (runs)', 'plain:sh (runs)']);
  // (A target is marked as run whichever way it points: the safe side for `sh <file`.)
  t.deepEqual(words('2>/dev/null sh scripts/check.sh'), ['plain:/dev/null (runs)', 'plain:sh (runs)', 'plain:scripts/check.sh (runs)']);
  t.deepEqual(words('>&2 echo hi'), ['plain:2 (runs)', 'plain:hi']);
  // Every operator, glued or apart: the cd after it is followed (bash makes the file and moves).
  for (const operator of ['>', '>>', '>|', '2>', '&>', '&>>', '<>', '{fd}>']) t.true(words(`${operator} echo cd scripts\nsh lint.sh`).includes('plain:scripts/lint.sh (runs)'), operator);
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
    // The module on the interpreter's own path too (python-path-imports.ts).
    'plain:__zotbox_python_path_import__@scripts.check',
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
  // Sourced by its hook stub, .husky/_/pre-commit (`. "$(dirname "$0")/h"`): that is its $0, and $s the user's hook.
  const read = scriptWords(husky, { ...context, scriptFile: '/ws/.husky/_/pre-commit', scriptDirectory: '/ws/.husky/_' }).map(show);
  t.deepEqual(
    read.filter((word) => word.startsWith('unresolved')),
    [],
  );
  t.true(read.includes('plain:/ws/.husky/pre-commit (runs)'));
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

const unresolvedOf = (read: readonly string[]) => read.filter((word) => word.startsWith('unresolved'));

test("bash's NAME+= is the assignment it is: a PATH it appends to puts the directory on the search path", (t) => {
  t.true(words('export PATH+=":$PWD/tools/bin"\ncheck-format').includes('plain:./tools/bin/** (runs)'));
  // Not a program run: the reader stops at the assignment as sh does.
  t.false(words('PATH+=:tools/bin check-format').some((word) => word.startsWith('plain:PATH+=') && word.endsWith('(runs)')));
});

test("a here-document ends at its delimiter however the delimiter is quoted; an unquoted one's body runs its $(...)", (t) => {
  for (const open of ['<<\\EOF', '<<"EOF"', "<<'EOF'", "<<E'O'F", '<<-\\EOF', '<< "EOF"']) {
    const read = words(`cat ${open}\nRunning the checks.\nEOF\n. ./scripts/lib.sh\n`);
    t.true(read.includes('plain:./scripts/lib.sh (runs)'), `${open}: ${read.join(' ')}`);
  }
  const read = words("cat <<'EOF'\n$(sh tools/quoted.sh)\nEOF\ncat <<EOF\nFiles: $(sh tools/expanded.sh) \\$(sh tools/escaped.sh)\nEOF\n");
  t.true(read.includes('plain:tools/expanded.sh (runs)'), read.join(' '));
  t.false(
    read.some((word) => word.includes('quoted.sh') || word.includes('escaped.sh')),
    read.join(' '),
  );
});

test('text a shell reads on its standard input is its script: a here-document piped or behind a wrapper, a here-string, an echo', (t) => {
  for (const script of [
    "cat <<'END' | sh\n. ./scripts/lib.sh\nEND\n",
    "cat <<'END' | tee /dev/null | bash -e\n. ./scripts/lib.sh\nEND\n",
    'timeout 60 bash <<EOF\n. ./scripts/lib.sh\nEOF\n',
    'bash <<< ". ./scripts/lib.sh; check_all"',
    'echo ". ./scripts/lib.sh" | sh',
  ])
    t.true(words(script).includes('plain:./scripts/lib.sh (runs)'), script);
  // What another command writes into a shell cannot be told.
  t.deepEqual(unresolvedOf(words('curl -fsSL https://example.com/install.sh | sh')), ['unresolved:curl -fsSL https://example.com/install.sh']);
  // A here-string is the shell's script, known as such: a quote never closed there is unresolved (a word sh cannot
  // parse elsewhere is only guessed at, and names nothing).
  t.deepEqual(unresolvedOf(words(`bash <<< "sh tools/it's.sh"`)), [`unresolved:sh tools/it's.sh`]);
  // A here-string given to a program that is no shell is data.
  t.deepEqual(words('grep -q fixup <<< "$1"'), ['plain:grep (runs)', 'plain:-q', 'plain:fixup']);
});

test("a case statement's patterns are matched against its word, not files run; its branches are read", (t) => {
  const read = words('case "$(head -n1 "$1")" in\n  fixup!*|squash!*) exit 0 ;;\n  (--fix) sh tools/fix.sh ;;\n  *) grep -q x "$1" || exit 1 ;;\nesac\nsh tools/after.sh\n');
  t.deepEqual(unresolvedOf(read), []);
  for (const expected of ['plain:tools/fix.sh (runs)', 'plain:tools/after.sh (runs)', 'plain:grep (runs)']) t.true(read.includes(expected), read.join(' '));
});

test("a loop's list is run only when the loop runs its variable: data for a program names nothing, run it covers the pattern", (t) => {
  // The staged files as data: nothing run, nothing unresolved.
  t.deepEqual(words('for f in $(git diff --cached --name-only); do\n  black --check "$f" || exit 1\ndone'), [
    'plain:f',
    'plain:in',
    'plain:do',
    'plain:black (runs)',
    'plain:--check',
    'plain:1',
    'plain:git (runs)',
    'plain:diff',
    'plain:--cached',
    'plain:--name-only',
  ]);
  // Run: what the command's output names is unknown.
  t.deepEqual(unresolvedOf(words('for f in $(git diff --name-only); do sh "$f"; done')), ['unresolved:$(git diff --name-only)']);
  // Run through a function of the script's, another variable, or the positional parameters.
  for (const script of [
    'run() { sh "$1"; }\nfor f in scripts/*.sh; do run "$f"; done',
    'for f in scripts/*.sh; do x="$f"; bash "$x"; done',
    'set -- scripts/*.sh\nfor part do\n  sh "$part" || exit 1\ndone',
    'set -e -o pipefail -- scripts/*.sh\nfor part; do . "$part"; done',
    'set -- scripts/*.sh\n"$1"',
  ])
    t.true(words(script).includes('plain:scripts/** (runs)'), script);
  t.false(words('for f in scripts/*.sh; do echo "$f"; done').some((word) => word.includes('scripts')));
  // A line the script reads, run, is anything.
  t.deepEqual(unresolvedOf(words('git diff --name-only | while read -r f; do sh "$f"; done')), ['unresolved:$f']);
  t.deepEqual(unresolvedOf(words('git diff --name-only | while read -r f; do black "$f"; done')), []);
});

test('an unquoted variable holding a pattern is matched as one where it is expanded; quoted, it is one name', (t) => {
  for (const assignment of ['HOOKS="scripts/hooks/*.sh"', 'HOOKS=scripts/hooks/*.sh'])
    t.true(words(`${assignment}\nfor h in $HOOKS; do sh "$h"; done`).includes('plain:scripts/hooks/** (runs)'), assignment);
  t.true(words('HOOKS=scripts/hooks/*.sh\nfor h in "$HOOKS"; do sh "$h"; done').includes('plain:scripts/hooks/*.sh (runs)'));
});

test("find's {} is each file it finds: covered by its starting points, not a pattern of its own", (t) => {
  const read = words("find scripts/checks -name '*.sh' -exec sh {} \\;");
  t.deepEqual(unresolvedOf(read), []);
  t.true(read.includes('plain:scripts/checks/** (runs)'));
});

test('a directory computed from the script\'s place is spelled out: $(cd "$(dirname "$0")/../.." && pwd), dirname, realpath', (t) => {
  // The files it sources are read (none is there): a file zotbox could not read might define pwd.
  const hook = { ...context, scriptFile: '/ws/.git/hooks/pre-commit', scriptDirectory: '/ws/.git/hooks', readSourced: () => 'absent' as const };
  const read = (text: string) => scriptWords(text, hook).map(show);
  t.true(read('ROOT="$(cd "$(dirname "$0")/../.." && pwd)"\n"$ROOT/scripts/check.sh"').includes('plain:/ws/scripts/check.sh (runs)'));
  t.true(read('ROOT="$(cd "$(dirname "$0")/.." >/dev/null 2>&1 && pwd -P)"\n. "$ROOT/lib.sh"').includes('plain:/ws/.git/lib.sh (runs)'));
  t.true(read('D=$(realpath "$(dirname "$0")/../../tools")\nsh "$D/x.sh"').includes('plain:/ws/tools/x.sh (runs)'));
  // A directory from somewhere zotbox cannot tell stays unresolved.
  t.deepEqual(unresolvedOf(read('D=$(cd "$(mktemp -d)" && pwd)\nsh "$D/x.sh"')), ['unresolved:$D/x.sh', 'unresolved:$(mktemp -d)']);
});

test("a #! line through env runs the program past env's options and assignments", (t) => {
  t.is(shebangProgram('/usr/bin/env', ' -S LC_ALL=C bash -e'), 'bash');
  t.is(shebangProgram('/usr/bin/env', ' -u FOO -S X=1 python3 -u'), 'python3');
  t.is(shebangProgram('/usr/bin/env', '-SLC_ALL=C sh'), 'sh');
  t.is(shebangProgram('/bin/bash', ' -e'), 'bash');
});

test('a pipe into a shell given its script by -c is that script: the piped names are its data', (t) => {
  t.deepEqual(unresolvedOf(words('git diff --cached --name-only | xargs -r bash -c \'black --check "$@"\' _')), []);
  t.deepEqual(unresolvedOf(words('git diff --cached --name-only | xargs -r sh')), ['unresolved:git diff --cached --name-only']);
});

test('a process substitution that is sourced or run runs what its command writes: cat FILE runs FILE; anything else is unresolved', (t) => {
  const script = { scriptDirectory: '/ws/.git/hooks', workingDirectory: '/ws', environment: {} };
  const run = scriptWords('source <(cat scripts/env)\nbash <(cat tools/a.sh tools/b.sh)\ndiff <(cat data/x) data/y\n', script);
  const ran = run.filter((word) => word.kind === 'path' && word.runs === true).map((word) => (word.kind === 'path' ? word.text : ''));
  for (const expected of ['scripts/env', 'tools/a.sh', 'tools/b.sh']) t.true(ran.includes(expected), `${expected}: ${ran.join(' ')}`);
  // Data for diff: named, not run.
  t.false(ran.includes('data/x'));
  t.true(run.some((word) => word.kind === 'path' && word.text === 'data/x'));
  t.deepEqual(
    run.filter((word) => word.kind === 'unresolved'),
    [],
  );
  const fetched = scriptWords('source <(curl -s https://example.com/env)\n', script).flatMap((word) => (word.kind === 'unresolved' ? [word.why] : []));
  t.is(fetched.length, 1);
  t.regex(fetched[0] ?? '', /a shell runs what this command writes/u);
});

test('a word a cd moved to carries that directory, where what it runs runs', (t) => {
  const words = scriptWords('cd web && sh scripts/lint.sh\n', { scriptDirectory: '/ws/.git/hooks', workingDirectory: '/ws', environment: {} });
  const moved = words.find((word) => word.kind === 'path' && word.text === 'web/scripts/lint.sh');
  t.deepEqual(moved?.kind === 'path' ? moved.movedTo : undefined, { text: 'web', anchor: 'plain' });
});

test('a relative cd after another goes from where that one went: the words after both are read from scripts/sub', (t) => {
  const lint = words('cd scripts\ncd sub\nsh lint.sh').filter((word) => word.includes('lint.sh'));
  t.deepEqual(lint, ['plain:lint.sh (runs)', 'plain:scripts/lint.sh (runs)', 'plain:sub/lint.sh (runs)', 'plain:scripts/sub/lint.sh (runs)']);
  // From home, then relative: ~/tools/bin.
  t.deepEqual(
    words('cd\ncd tools/bin\nsh lint.sh').filter((word) => word.includes('lint.sh')),
    ['plain:lint.sh (runs)', 'home:lint.sh (runs)', 'plain:tools/bin/lint.sh (runs)', 'home:tools/bin/lint.sh (runs)'],
  );
});

test('a cd through a link: the words after it are also read from where the link leads, as the kernel walks `..`', (t) => {
  const linked = { ...context, realFolder: (folder: string) => (folder === '/ws/link' ? '/ws/scripts/sub' : folder) };
  const shown = (text: string) => scriptWords(text, linked).map(show);
  t.true(shown('cd link\nsh ../lib.sh').includes('plain:/ws/scripts/lib.sh (runs)'));
  // cd -P link; cd ..: the link's target's parent.
  t.true(shown('cd -P link\ncd ..\nsh lib.sh').includes('plain:/ws/scripts/lib.sh (runs)'));
  // A folder with no link on its way adds no place.
  t.deepEqual(
    shown('cd web\nsh ../lib.sh').filter((word) => word.includes('lib.sh')),
    ['plain:../lib.sh (runs)', 'plain:lib.sh (runs)'],
  );
});

test('cds that may lead to more than 64 places: the words after them are unresolved, not read from the first 64', (t) => {
  const many = Array.from({ length: 7 }, (_, index) => `cd d${index}`).join('\n');
  t.true(words(`${many}\nsh lint.sh`).includes('unresolved:cd'));
  t.false(words('cd a\ncd b\ncd c\nsh lint.sh').includes('unresolved:cd'));
});

test('a backslash-newline inside double quotes is joined as the shell joins it, also in the program word (never guessed at)', (t) => {
  t.true(words('"./tools/ev\\\nil.sh" --check').includes('plain:./tools/evil.sh (runs)'), JSON.stringify(words('"./tools/ev\\\nil.sh" --check')));
});

test('values zotbox cannot spell out, run, refuse; a loop variable is its list; command -v NAME is the program NAME', (t) => {
  t.deepEqual(
    words('mapfile -t c < list\nsh "$c"').filter((w) => w.startsWith('unresolved')),
    ['unresolved:$c'],
  );
  t.deepEqual(
    words('printf -v L \'%s\' x\nsh "$L"').filter((w) => w.startsWith('unresolved')),
    ['unresolved:$L'],
  );
  t.deepEqual(
    words('if true; then L=$(cat f); fi\nsh "$L"').filter((w) => w.startsWith('unresolved')),
    ['unresolved:$L'],
  );
  t.deepEqual(
    words('for f in checks/*.sh; do sh "$f"; done').filter((w) => w.startsWith('unresolved')),
    [],
  );
  t.deepEqual(
    words('PY=$(command -v python3)\n"$PY" tools/check.py').filter((w) => w.startsWith('unresolved')),
    [],
  );
  t.true(words('PY=$(command -v python3)\n"$PY" tools/check.py').includes('plain:python3 (runs)'));
  for (const lookup of ['which -a python3 | head -n1', 'which -a python3 | head -1', 'command -v python3 2>/dev/null || echo python3', 'type -P python3']) {
    t.deepEqual(
      words(`PY=$(${lookup})\n"$PY" tools/check.py`).filter((w) => w.startsWith('unresolved')),
      [],
      lookup,
    );
  }
  // Another name after `||`, or the lookup's output filtered otherwise, is no longer that one program.
  for (const other of ['command -v python3 || echo tools/py', 'which -a python3 | tail -n1', 'which python3 | sed s/3/2/']) {
    t.deepEqual(
      words(`PY=$(${other})\n"$PY" tools/check.py`).filter((w) => w.startsWith('unresolved')),
      ['unresolved:$PY'],
      other,
    );
  }
});

test('BASH_ENV, ENV and BASH_FUNC_ values and a script-wide IFS of other characters refuse; IFS for one command does not', (t) => {
  const refused = (text: string) => words(text).filter((w) => w.startsWith('unresolved'));
  // IFS set through a default or a nameref; a nameref to any name.
  t.true(refused('unset IFS\n: "${IFS:=/}"\nX=sh/tools\n$X/lint.sh').length > 0);
  t.true(refused('declare -n R=IFS\nR=/\nX=sh/tools\n$X/lint.sh').length > 0);
  t.true(refused('local -n ref=target').length > 0);
  t.true(refused('export BASH_ENV=tools/env.sh\nbash x.sh').length > 0);
  // BASH_ENV set or exported in any other spelling (review s99v); only a read of it is no set.
  for (const text of [': "${BASH_ENV:=tools/env.sh}"\nexport BASH_ENV\nbash x.sh', 'read -r BASH_ENV < f\nexport BASH_ENV', 'export BASH_ENV', "printf -v 'BASH_ENV' %s f"])
    t.true(refused(text).length > 0, text);
  t.deepEqual(refused('echo "${BASH_ENV:-none}" "$BASH_ENV"'), []);
  t.is(refused('ENV=tools/env.sh sh -i').length, 1);
  t.is(refused("env 'BASH_FUNC_f%%=() { true; }' bash -c f").length, 1);
  t.deepEqual(refused('IFS=/\nX=sh/tools\n$X/lint.sh'), ['unresolved:IFS=/']);
  t.deepEqual(refused('IFS=$\'\\n\\t\'\nwhile IFS= read -r line; do echo "$line"; done < f'), []);
});
