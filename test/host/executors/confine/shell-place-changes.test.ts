// What sourcing a file does to where the sourcer's shell is (shell-place-changes.ts): the expected readings are
// written out by hand, from what bash does with each text.
import test from 'ava';
import { placeChangesOf, setsPwd } from '../../../../src/host/executors/confine/shell-place-changes.js';

const movesWhenSourced = (text: string) => placeChangesOf(text).movesWhenSourced;
const moving = (text: string) => [...placeChangesOf(text).movingFunctions].sort();

test('a cd, pushd or popd at the top level moves the sourcer, in any spelling a shell reads as one', (t) => {
  for (const text of [
    'cd scripts\n',
    'pushd web\n',
    'popd\n',
    'if true; then cd a; fi\n',
    '[ -d a ] && cd a\n',
    'X=1 cd a\n',
    'builtin cd a\n',
    'command cd a\n',
    '\\cd a\n',
    '"cd" a\n',
    '{ cd a; }\n',
    'true || cd a\n',
  ])
    t.true(movesWhenSourced(text), text);
});

test('a cd in a subshell, a command substitution, a comment, a here-document or as an argument moves nothing', (t) => {
  for (const text of [
    'x=$(cd a && pwd)\n',
    '(cd a; make)\n',
    'x="$(cd "$(dirname "$0")" && pwd)"\n',
    'x=`cd a && pwd`\n',
    '# cd a\n',
    'cat <<EOF\ncd a\nEOF\n',
    'cat <<-"EOF"\n\tcd a\n\tEOF\n',
    'echo cd a\n',
    "echo 'cd'\n",
  ])
    t.false(movesWhenSourced(text), text);
});

test('PWD given a value in any spelling moves the sourcer; reading it does not', (t) => {
  for (const text of ['PWD=/x\n', 'read PWD\n', 'export PWD=/x\n', ': "${PWD:=/x}"\n', 'printf -v PWD %s x\n', 'declare PWD=/x\n']) t.true(setsPwd(text) && movesWhenSourced(text), text);
  for (const text of ['echo "$PWD"\n', 'x=${PWD}/a\n', 'x=${PWD%/*}\n', 'echo "$OLDPWD"\n']) t.false(setsPwd(text) || movesWhenSourced(text), text);
});

test("a function's cd moves the shell when the function is called: the file's own calls, and the calls of those that call it", (t) => {
  t.false(movesWhenSourced('f() { cd "$1"; }\n'));
  t.deepEqual(moving('f() { cd "$1"; }\n'), ['f']);
  t.true(movesWhenSourced('f() { cd "$1"; }\nf a\n'));
  t.deepEqual(moving('g() { f; }\nfunction f {\n  cd a\n}\n'), ['f', 'g']);
  // Called in a subshell, or a body in parentheses: the caller stays.
  t.deepEqual(moving('g() { (f); }\nf() { cd a; }\n'), ['f']);
  t.deepEqual(moving('f() ( cd a )\n'), []);
  // A comment's apostrophe does not end or stretch the body.
  t.deepEqual(moving("f() {\n  # don't\n  true\n}\ncd_it() { cd a; }\n"), ['cd_it']);
  t.false(movesWhenSourced("f() {\n  # don't\n  cd a\n}\necho 'x'\n"));
});

test('the moving functions of the files it sources count as its own', (t) => {
  const up = new Set(['up']);
  t.true(placeChangesOf('up\n', up).movesWhenSourced);
  t.true(placeChangesOf('up\n', up).callsInherited);
  const caller = placeChangesOf('h() { up; }\n', up);
  t.false(caller.movesWhenSourced);
  t.true(caller.callsInherited);
  t.deepEqual([...caller.movingFunctions].sort(), ['h', 'up']);
  t.false(placeChangesOf('echo up\n', up).callsInherited);
});

test('text zotbox cannot take apart (a quote, a parenthesis, a body or a here-document never closed) moves the sourcer', (t) => {
  for (const text of ['echo "x\ncd a\n', 'f() {\n cd a\n', 'x=$(true\n', 'cat <<EOF\n(\nEOF\ncd a\n', 'cat <<EOF\nno end\n']) t.true(movesWhenSourced(text), text);
});

test('past a redirection written apart from its file, the next word is the command', (t) => {
  t.true(movesWhenSourced('> /dev/null cd scripts\n'));
  t.true(movesWhenSourced('2> err.log pushd scripts\n'));
});

test('at a top level, a command word zotbox does not spell out may be a moving function', (t) => {
  const up = new Set(['up']);
  // The name is in no word: only the expansion can be it.
  t.true(placeChangesOf('fn=$(printf up)\n"$fn"\n', up).callsInherited);
  t.true(placeChangesOf('fn=$(printf up)\n"$fn"\n', up).movesWhenSourced);
  t.false(placeChangesOf('fn=$(printf up)\necho "$fn"\n', up).callsInherited);
});

test('every redirection operator bash has, written before the command, leaves the next word the command', (t) => {
  for (const operator of ['>', '>>', '<', '<>', '>|', '&>', '&>>', '2>', '2>>', '{fd}>', '{fd}<'])
    for (const text of [`${operator}/dev/null cd scripts\n`, `${operator} /dev/null cd scripts\n`]) t.true(movesWhenSourced(text), text);
  for (const text of ['2>&1 cd scripts\n', '>&2 cd scripts\n', '<&0 cd scripts\n', '2>&- cd scripts\n']) t.true(movesWhenSourced(text), text);
  // A target named like a command that only prints its operands is still the redirection's: bash makes a file `echo`.
  for (const operator of ['>', '>>', '>|', '2>', '<>']) t.true(movesWhenSourced(`${operator} echo cd scripts\n`), operator);
});

test("a command word zotbox does not spell out may be cd: it moves, but the caller's own arguments run what the caller names", (t) => {
  for (const text of ["$'cd' scripts\n", "$'\\x63d' scripts\n", '$"cd" scripts\n', 'C=cd\n$C scripts\n', '${CD:-cd} scripts\n', 'cd${x} scripts\n', '`echo cd` scripts\n', '"$(echo cd)" scripts\n'])
    t.true(movesWhenSourced(text), text);
  // "$@" and "$1" in a body run what the caller hands them: read where the caller names it.
  t.deepEqual(moving('run() { "$@"; }\nfirst() { $1; }\nall() { "${@}"; }\n'), []);
  // A cd among a command's operands (a runner this reader does not know) may run it; echo's only prints it.
  t.true(movesWhenSourced('xargs_like cd scripts\n'));
  t.false(movesWhenSourced('echo cd scripts\n'));
});

test('a here-document delimiter is the word the shell takes, its quoted and unquoted parts joined', (t) => {
  t.true(movesWhenSourced("cat <<E'O'F >/dev/null\nhi\nEOF\ncd scripts\nE\n"));
  t.true(movesWhenSourced('cat <<"EOF"x >/dev/null\nhi\nEOFx\ncd scripts\nEOF\n'));
  t.false(movesWhenSourced("cat <<E'O'F >/dev/null\ncd scripts\nEOF\n"));
});

test('a function defined twice keeps both bodies: it moves if either does', (t) => {
  t.deepEqual(moving('up() { cd scripts; }\nup() { :; }\n'), ['up']);
  t.deepEqual(moving('up() { :; }\nfunction up { cd scripts; }\n'), ['up']);
});

test('given where the sourcer is, each cd is judged by its operand: to where it is, or to the top where it runs at the top', (t) => {
  const at = (text: string, atTop: boolean) => placeChangesOf(text, new Set(), { atTop }).movesWhenSourced;
  t.false(at('cd "$(git rev-parse --show-toplevel)" || exit 1\n', true));
  t.true(at('cd "$(git rev-parse --show-toplevel)" || exit 1\n', false));
  t.false(at('cd .\ncd "$PWD"\n', false));
  // Another cd beside the one to here, whatever the script reader counted (a subshell's cd is none of the file's).
  t.true(at('(cd .)\n>/dev/null cd scripts\n', true));
  t.true(at('cd "$(git rev-parse --show-toplevel)"\nfunction web { cd scripts; }\nweb\n', true));
  // pushd and popd move whatever their operand; pwd or git of the file's own, or git's place variables, make it unknown.
  t.true(at('pushd .\n', true));
  t.true(at('pwd() { echo scripts; }\ncd "$(pwd)"\n', true));
  t.true(at('git() { echo scripts; }\ncd "$(git rev-parse --show-toplevel)"\n', true));
  t.true(at('export GIT_WORK_TREE=scripts\ncd "$(git rev-parse --show-toplevel)"\n', true));
  // Without a place, every cd moves.
  t.true(placeChangesOf('cd .\n').movesWhenSourced);
});

test('a case pattern is matched, never run: an expansion in it is no command word; the commands after esac are read', (t) => {
  t.false(movesWhenSourced('case "$v" in\n  "$P"*) echo v ;;\n  *) : ;;\nesac\n'));
  t.deepEqual(moving('is_v() {\n  case "$1" in\n    "${PREFIX}"-*) return 0 ;;\n  esac\n  return 1\n}\n'), []);
  t.true(movesWhenSourced('case "$v" in\n  a) echo ;;\nesac\ncd scripts\n'));
  t.true(movesWhenSourced('case "$v" in a) cd a\nesac\n'));
  t.true(movesWhenSourced('x=$(case a in a) echo;; esac)\ncd scripts\n'));
});

test('a command word with a / outside its expansions is a file bash runs, never cd', (t) => {
  t.false(movesWhenSourced('"${NVM_DIR}/nvm-exec" x\n'));
  t.false(movesWhenSourced('"$(dirname "$0")/check-env"\n'));
  t.true(movesWhenSourced('"$(echo /x)" scripts\n'));
});

test('$[…] is arithmetic: its << is no here-document', (t) => {
  t.true(movesWhenSourced("x=$[1<<2]\ncd scripts\ncat >/dev/null <<'EOF'\n2]\nEOF\n"));
});
