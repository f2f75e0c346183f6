// Python by logical lines (python-logical-lines.ts): what the language reference joins into one statement and what
// it splits, offsets kept. Each expectation is written out by hand.
import test from 'ava';
import { pythonLogicalLines } from '../../../../src/host/executors/confine/python-logical-lines.js';

for (const [name, code, expected] of [
  ['a `;` ends a statement', 'import sys; sys.path.insert(0, "x")', 'import sys\n sys.path.insert(0, "x")'],
  ['a backslash continuation joins the next line', 'from . import a, \\\n    b\n', 'from . import a,       b\n'],
  ['a newline inside brackets is joined, a comment there blanked', 'f(a,  # one\n  b); g()\n', 'f(a,          b)\n g()\n'],
  ['a `;` or bracket inside a string is text', 'x = "a;(b"; y = \'c;\'\n', 'x = "a;(b"\n y = \'c;\'\n'],
  ['a triple-quoted string keeps its lines and its `;`', 'x = """a;\n(b"""; y\n', 'x = """a;\n(b"""\n y\n'],
  ['an f-string is a string', 'x = f"{a};{b}"; y\n', 'x = f"{a};{b}"\n y\n'],
  ['an escaped quote does not end a string', 'x = "a\\";b"; y\n', 'x = "a\\";b"\n y\n'],
  ['a `;` inside brackets is no statement end', 'f(a;b)\n', 'f(a;b)\n'],
  // Not Python that compiles: no bracket joins lines, every `;` outside strings breaks one (nothing hidden in an open bracket).
  ['unbalanced brackets join nothing', 'x = (\nimport sys; sys.path.insert(0, p)\n', 'x = (\nimport sys\n sys.path.insert(0, p)\n'],
] as const)
  test(`logical lines: ${name}`, (t) => {
    const view = pythonLogicalLines(code);
    t.is(view, expected);
    t.is(view.length, code.length);
  });

test('logical lines: reading the view again changes nothing', (t) => {
  const code = 'import sys; x = (1,\n 2)  # c\ny = "a;b" \\\n + z\n';
  t.is(pythonLogicalLines(pythonLogicalLines(code)), pythonLogicalLines(code));
});
