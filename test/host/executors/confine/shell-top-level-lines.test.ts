// Which lines of a script start at its top level (shell-top-level-lines.ts), as bash parses it. Expected flags written
// out by hand, one per line; the real bash parses.
import test from 'ava';
import { startsAtTopLevel } from '../../../../src/host/executors/confine/shell-top-level-lines.js';

const flags = (code: string) => code.split('\n').map((_, line) => startsAtTopLevel(code, line));

test('inside an if, a case, a loop, a function, a group or a subshell is not the top level; after it is', (t) => {
  t.deepEqual(flags('A=1\nif x; then\n  A=2\nfi\nB=1'), [true, true, false, false, true]);
  t.deepEqual(flags('case $x in\n  a)\n    A=2 ;;\nesac\nB=1'), [true, false, false, false, true]);
  t.deepEqual(flags('while read -r l; do\n  A=2\ndone\nB=1'), [true, false, false, true]);
  t.deepEqual(flags('f() {\n  A=2\n}\nB=1'), [true, false, false, true]);
  t.deepEqual(flags('(\n  A=2\n)\nB=1'), [true, false, false, true]);
  t.deepEqual(flags('{ echo; }\nB=1'), [true, true]);
  t.deepEqual(flags('if x; then A=2; fi\nB=1'), [true, true]);
});

test('words that look like openers or closers are read as bash reads them (review s89l)', (t) => {
  // An array, `done` as an argument, a case pattern `done)`, `f(){` with no blank, a subshell over lines.
  t.deepEqual(flags('exts=( js ts )\nB=1'), [true, true]);
  t.deepEqual(flags('echo done\nB=1'), [true, true]);
  t.deepEqual(flags('case $x in\n  done) A=2 ;;\nesac\nB=1'), [true, false, false, true]);
  t.deepEqual(flags('f(){\n  A=2\n}\nB=1'), [true, false, false, true]);
  t.deepEqual(flags('(cd sub\n  A=2)\nB=1'), [true, false, true]);
  t.deepEqual(flags('mask=$(( 1 << 4 ))\nB=1'), [true, true]);
});

test("a here-document's body, a quote or $(…) over lines, a continued line and a continued list are not the top level", (t) => {
  t.deepEqual(flags('cat <<EOF\nA=2\nEOF\nB=1'), [true, false, false, true]);
  t.deepEqual(flags('cat <<-"EOF"\n\tA=2\n\tEOF\nB=1'), [true, false, false, true]);
  t.deepEqual(flags('cat <<\\EOF\nA=2\nEOF\nB=1'), [true, false, false, true]);
  t.deepEqual(flags('X=$(\n  cmd\n)\nB=1'), [true, false, false, true]);
  t.deepEqual(flags('echo "a\nA=2"\nB=1'), [true, false, true]);
  t.deepEqual(flags('echo a \\\nA=2\nB=1'), [true, false, true]);
  t.deepEqual(flags('true &&\nA=2\nB=1'), [true, false, true]);
  // An unclosed here-document: bash warns, and the warning is a doubt.
  t.deepEqual(flags('cat <<EOF\nA=2'), [true, false]);
});

test('a script that defines an alias has no line known to be top level (sh expands aliases where they run)', (t) => {
  t.deepEqual(flags('alias x=true\nA=2'), [false, false]);
  t.deepEqual(flags('\\alias x=true\nA=2'), [false, false]);
  // In any spelling (review s91n), and a command word the script computes, which may be alias itself.
  t.deepEqual(flags("'al''ias' x=true\nA=2"), [false, false]);
  t.deepEqual(flags('cmd=ali\n${cmd}as x=true\nA=2'), [false, false, false]);
  t.deepEqual(flags('shopt -s expand_aliases\nA=2'), [false, false]);
});
