// Reading git config entries with their lines (issue 21 §3): what git reads,
// read at least as widely, so a path it names is never missed.
import test from 'ava';
import { isStdlibShadow } from '../../../fixtures/python-stdlib-shadows.js';
import { commandWords, isDataEntry, pathWords, type CommandWord } from '../../../../src/host/executors/confine/git-config-lines.js';
import { readConfigEntries } from '../../../../src/host/executors/confine/git-config-text.js';

test('entries carry their section, subsection, key as written, unquoted value and line', (t) => {
  const text = '# c\n[core]\n\thooksPath = .husky ; comment\n[includeIf "gitdir:~/w/"]\n\tpath = "../a b.inc"\n[Alias]\n\tx = "!./run \\"q\\""\n';
  t.deepEqual(
    readConfigEntries(text).entries.map((e) => [e.written, e.value, e.line]),
    [
      ['core.hooksPath', '.husky', 3],
      ['includeIf.gitdir:~/w/.path', '../a b.inc', 5],
      ['Alias.x', '!./run "q"', 7],
    ],
  );
});

test('an entry on its header line, a bare key, a continuation and the old dotted subsection are read', (t) => {
  const text = '[core] fsmonitor = ./a\n[core]\n\tbare\n\teditor = vim \\\n  ./b\n[filter.x]\n\tclean = ./c\n';
  t.deepEqual(
    readConfigEntries(text).entries.map((e) => [e.section, e.subsection, e.key, e.value, e.line]),
    [
      ['core', undefined, 'fsmonitor', './a', 1],
      ['core', undefined, 'bare', undefined, 3],
      ['core', undefined, 'editor', 'vim   ./b', 4],
      ['filter', 'x', 'clean', './c', 7],
    ],
  );
});

test('the words of a value that name files: relative, absolute, home and option values; bare names are left to PATH', (t) => {
  t.deepEqual(pathWords('sh -c "./x.sh && /opt/y" --upload-pack=tools/up ~/z plain'), ['./x.sh', '/opt/y', 'tools/up', '~/z']);
  t.deepEqual(pathWords('file:///ws/repo'), ['/ws/repo']);
});

const plain = (text: string): CommandWord => ({ kind: 'path', text, anchor: 'plain', tree: false });
const paths = (value: string, mode?: 'shell' | 'git') =>
  commandWords(value, mode)
    .flatMap((w) => (w.kind === 'path' ? [`${w.anchor}:${w.text}${w.tree ? '/**' : ''}`] : []))
    .filter((shown) => !isStdlibShadow(shown));
const unresolved = (value: string, mode?: 'shell' | 'git') => commandWords(value, mode).flatMap((w) => (w.kind === 'unresolved' ? [w.text] : []));

test('every word of a command names a file where git runs it, with or without a slash, and each part of an option value', (t) => {
  t.deepEqual(commandWords('sh fsmon.sh'), [plain('sh'), plain('fsmon.sh')]);
  t.deepEqual(paths('tools/run --config=conf.d/x.toml'), ['plain:tools/run', 'plain:--config=conf.d/x.toml', 'plain:--config', 'plain:conf.d/x.toml']);
  // An interpreter's operand may be a directory it runs the __main__.py of: the operand whole.
  t.deepEqual(paths("python3 'my tool.py' | less"), ['plain:python3', 'plain:my tool.py', 'plain:my', 'plain:tool.py', 'plain:my tool.py/**', 'plain:tool.py/**', 'plain:less']);
  t.deepEqual(unresolved('sh fsmon.sh'), []);
});

test('what a shell expands is resolved where it is known: the home, the top of the worktree', (t) => {
  t.deepEqual(paths('$HOME/ws/tools/fsmon.sh'), ['home:ws/tools/fsmon.sh']);
  t.deepEqual(paths('"${HOME}/bin/x" ~/bin/y'), ['home:bin/x', 'home:bin/y']);
  t.deepEqual(paths('sh -c "$(git rev-parse --show-toplevel)/tools/fsmon.sh"'), ['plain:sh', 'plain:-c', 'top:tools/fsmon.sh']);
  t.deepEqual(paths('`git rev-parse --show-toplevel`/a $(pwd)/b $PWD/c'), ['top:a', 'top:b', 'top:c']);
});

test('a script handed to sh -c or eval is read as shell text of its own', (t) => {
  t.deepEqual(paths("sh -c 'sh a.sh; ./b.sh'"), ['plain:sh', 'plain:-c', 'plain:sh a.sh; ./b.sh', 'plain:a.sh', 'plain:./b.sh']);
  t.deepEqual(unresolved("bash -ec 'x=$(cat f); $x'"), ['x=$(cat f)', '$(cat f)', '$x']);
  t.deepEqual(unresolved("eval 'sh *.sh'"), ['*.sh']);
});

test('an expansion that only the run can know is unresolved; a pattern under a fixed directory covers that directory', (t) => {
  t.deepEqual(unresolved('$TOOLS/fsmon.sh'), ['$TOOLS/fsmon.sh']);
  t.deepEqual(unresolved('sh "$(dirname $0)/x.sh"'), ['$(dirname $0)/x.sh']);
  t.deepEqual(unresolved('`cat .tool`'), ['`cat .tool`']);
  t.deepEqual(unresolved('~bob/bin/x'), ['~bob/bin/x']);
  t.deepEqual(unresolved('sh *.sh'), ['*.sh']);
  t.deepEqual(unresolved('sh {a,b}.sh'), ['{a,b}.sh', '{a']);
  t.deepEqual(paths('sh tools/*.sh'), ['plain:sh', 'plain:tools/**']);
  // Quoted, the shell matches nothing: a file of that very name.
  t.deepEqual(paths('sh "tools/*.sh"'), ['plain:sh', 'plain:tools/*.sh']);
});

test('the user\'s own arguments ($1, "$@") are theirs; a function body\'s braces are no files', (t) => {
  t.deepEqual(commandWords('f() { git commit --fixup=$1 "$@"; }; f'), [plain('f'), plain('git'), plain('commit'), plain('--fixup')]);
  t.deepEqual(unresolved('git checkout -b $1 origin/$1'), []);
  t.deepEqual(unresolved('git checkout $1 $(cat x)'), ['$(cat x)']);
});

test('a plain alias is split as git splits it: no expansion, no pattern', (t) => {
  t.deepEqual(unresolved("log --pretty=format:'%C(yellow)%h [%an]' $HOME *", 'git'), []);
  t.true(paths('log --output=out/log.txt', 'git').includes('plain:out/log.txt'));
});

test('data keys are a closed list: names, colours, refspecs and formats; any other key is read as a command', (t) => {
  const entry = (text: string) => readConfigEntries(text).entries[0]!;
  t.true(isDataEntry(entry('[user]\n\tname = x\n')));
  t.true(isDataEntry(entry('[remote "origin"]\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n')));
  t.true(isDataEntry(entry('[safe]\n\tdirectory = *\n')));
  t.false(isDataEntry(entry('[core]\n\tfsmonitor = x\n')));
  t.false(isDataEntry(entry('[remote "origin"]\n\tuploadpack = x\n')));
  t.false(isDataEntry(entry('[diff "x"]\n\ttextconv = x\n')));
  t.false(isDataEntry(entry('[color "diff"]\n\tmeta = x\n')), 'color.<slot>.key has a subsection: not listed, so read as a command');
});

test('after a cd, relative words are also taken from the directory it moves to; a cd to an unknown directory is unresolved', (t) => {
  t.deepEqual(paths("sh -c 'cd tools && sh fsmon.sh'"), [
    'plain:sh',
    'plain:-c',
    'plain:cd tools && sh fsmon.sh',
    'plain:cd',
    'plain:tools',
    'plain:fsmon.sh',
    'plain:tools/sh',
    'plain:tools/fsmon.sh',
  ]);
  t.deepEqual(paths('cd; ./x'), ['plain:cd', 'plain:./x', 'home:x']);
  t.deepEqual(unresolved('cd "$DIR" && ./x'), ['$DIR']);
});
