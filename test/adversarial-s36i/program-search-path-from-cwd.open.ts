// Severity: high. Class: "program-search-root" — a program a hook runs adds a RELATIVE directory to its module search
// path (Perl's `use lib "lib"`, Python's `sys.path.insert(0, "lib")`): the interpreter takes it relative to the working
// directory (the top of the repository, where git runs the hook), but the reader (interpreter-operands.ts codeNames via
// tool-file-references.ts programCodeNames) joins it to the FILE's directory (tools/lib), and the word "lib" itself
// names a directory, which a words file does not protect. So lib/Check.pm, which the hook loads, stays writable.
// Fix direction: a search-path directory a program adds is relative to where it runs (and, closed world, to its own
// directory too), protected whole (the programs here carry a #! line, so they are read as program code, not as
// shell: see interpreter-operand-read-as-shell); read Python's sys.path.insert/append and PYTHONPATH-like literals the same way.
import { existsSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, git, project } from './harness.js';

test('a module that a hook\'s Perl program loads through `use lib "lib"` is not writable', async (t) => {
  const ws = project(t, {
    '.git/hooks/pre-commit': '#!/bin/sh\nperl tools/check.pl\n',
    'tools/check.pl': '#!/usr/bin/perl\nuse strict;\nuse lib "lib";\nuse Check;\nprint "check ok\\n";\n',
    'lib/Check.pm': 'package Check;\n1;\n',
  });
  const pwned = path.join(path.dirname(ws), 'PWNED');
  const output = await agentWrites(t, ws, 'lib/Check.pm', `package Check;\nopen(my $f, ">", ${JSON.stringify(pwned)});\n1;\n`);
  t.regex(output, /denied/u, output);
  git(ws, 'commit', '-q', '--allow-empty', '-m', 'next');
  t.false(existsSync(pwned), 'the pre-commit hook loaded lib/Check.pm written by the agent');
});

test('a module that a hook\'s Python program imports after `sys.path.insert(0, "lib")` is not writable', async (t) => {
  const ws = project(t, {
    '.git/hooks/pre-commit': '#!/bin/sh\npython3 tools/check.py\n',
    'tools/check.py': '#!/usr/bin/env python3\nimport sys\nsys.path.insert(0, "lib")\nimport checks\nprint("check ok")\n',
    'lib/checks.py': '',
  });
  const pwned = path.join(path.dirname(ws), 'PWNED');
  const output = await agentWrites(t, ws, 'lib/checks.py', `open(${JSON.stringify(pwned)}, "w").write("ran")\n`);
  t.regex(output, /denied/u, output);
  git(ws, 'commit', '-q', '--allow-empty', '-m', 'next');
  t.false(existsSync(pwned), 'the pre-commit hook imported lib/checks.py written by the agent');
});
