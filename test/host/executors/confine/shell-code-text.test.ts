// A shell script's text as bash reads its words (shell-code-text.ts): comments out and continuations joined only where
// bash has them, each line's file line kept. Expected texts written out by hand.
import test from 'ava';
import { shellCodeText } from '../../../../src/host/executors/confine/shell-code-text.js';

test('a comment ends at its line, a backslash there joins nothing; a continuation outside one joins (review s91n)', (t) => {
  t.deepEqual(shellCodeText('# C:\\\nif x; then\n  A=1\nfi\n'), { code: '\nif x; then\n  A=1\nfi\n', fileLines: [0, 1, 2, 3, 4] });
  t.deepEqual(shellCodeText('set -e  # strict \\\nB=1\n'), { code: 'set -e  \nB=1\n', fileLines: [0, 1, 2] });
  t.deepEqual(shellCodeText('echo a \\\n  b\nC=1\n'), { code: 'echo a   b\nC=1\n', fileLines: [0, 2, 3] });
});

test('a # inside quotes, $(( )), ${ } or a word is no comment; a quote over lines is kept whole (review s91n)', (t) => {
  t.deepEqual(shellCodeText("x='\n#'\ny=1\n")?.code, "x='\n#'\ny=1\n");
  t.deepEqual(shellCodeText('x="a\n# b"\n')?.code, 'x="a\n# b"\n');
  t.deepEqual(shellCodeText('n=$(( 16#ff ))\nm=${#x}\nk=a#b\n')?.code, 'n=$(( 16#ff ))\nm=${#x}\nk=a#b\n');
  t.deepEqual(shellCodeText('(( x << 2 ))\nD=1\n')?.code, '(( x << 2 ))\nD=1\n');
  t.deepEqual(shellCodeText("echo $'a\\'#'\nE=1\n")?.code, "echo $'a\\'#'\nE=1\n");
});

test("a here-document's body is kept as written, comment-like lines too; text it cannot read to its end is undefined", (t) => {
  t.deepEqual(shellCodeText('cat <<EOF\n# not a comment \\\nEOF\nF=1\n'), { code: 'cat <<EOF\n# not a comment \\\nEOF\nF=1\n', fileLines: [0, 1, 2, 3, 4] });
  t.deepEqual(shellCodeText("cat <<-'X'\n\tbody\n\tX\n")?.code, "cat <<-'X'\n\tbody\n\tX\n");
  t.is(shellCodeText("echo 'open\n"), undefined);
  t.is(shellCodeText('x=$(echo\n'), undefined);
  t.is(shellCodeText('cat <<EOF\nbody\n'), undefined);
});
