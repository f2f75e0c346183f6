// Which lines of a script surely run at its top level (shell-top-level-lines.ts). Expected flags written out by hand.
import test from 'ava';
import { topLevelLines } from '../../../../src/host/executors/confine/shell-top-level-lines.js';

test('inside an if, a case, a loop, a function, a group or a subshell is not the top level; after it is', (t) => {
  // A closer's own line (`fi`) is still inside: no more than needed is top level.
  t.deepEqual(topLevelLines('A=1\nif x; then\n  A=2\nfi\nB=1'), [true, true, false, false, true]);
  t.deepEqual(topLevelLines('case $x in\n  a)\n    A=2 ;;\nesac\nB=1'), [true, false, false, false, true]);
  t.deepEqual(topLevelLines('while read -r l; do\n  A=2\ndone\nB=1'), [true, false, false, true]);
  t.deepEqual(topLevelLines('f() {\n  A=2\n}\nB=1'), [true, false, false, true]);
  t.deepEqual(topLevelLines('(\n  A=2\n)\nB=1'), [true, false, false, true]);
  t.deepEqual(topLevelLines('{ echo; }\nB=1'), [true, true]);
});

test("a here-document's body is not the top level; a count that cannot be trusted ends the top level", (t) => {
  t.deepEqual(topLevelLines('cat <<EOF\nA=2\nEOF\nB=1'), [true, false, false, true]);
  t.deepEqual(topLevelLines('cat <<-"EOF"\n\tA=2\n\tEOF\nB=1'), [true, false, false, true]);
  // More closers than openers (a `$(` over lines): no later line is trusted.
  t.deepEqual(topLevelLines('X=$(\n  cmd\n)\nB=1'), [true, true, true, false]);
  t.deepEqual(topLevelLines('cat <<EOF\nA=2'), [false, false]);
});
