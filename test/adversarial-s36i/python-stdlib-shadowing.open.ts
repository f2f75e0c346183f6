// Severity: high. Class: "first-search-directory" — Python looks every import up in sys.path[0] first: the script's
// own directory for `python3 tools/check.py` (the working directory for -m/-c). The reader protects only the modules
// the program names itself (`import argparse` → tools/argparse.py), but the modules those import in turn, the standard
// library's own imports among them, are found there too: argparse imports gettext, so tools/gettext.py runs on every
// commit (a careful payload re-exports the real module, and nothing shows). The program carries a #! line so that it is
// read as program code (see interpreter-operand-read-as-shell).
// Fix direction: what lies in sys.path[0] is code of every program run from it: protect that directory's modules
// whole (its *.py, packages and extension modules), or at least every name in sys.stdlib_module_names there.
import { existsSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, git, project } from './harness.js';

test('a standard-library name in the directory of a Python script a hook runs is not writable', async (t) => {
  const ws = project(t, {
    '.git/hooks/pre-commit': '#!/bin/sh\npython3 tools/check.py\n',
    'tools/check.py': '#!/usr/bin/env python3\nimport argparse\nprint("checked")\n',
  });
  const pwned = path.join(path.dirname(ws), 'PWNED');
  const output = await agentWrites(t, ws, 'tools/gettext.py', `open(${JSON.stringify(pwned)}, "w").write("ran")\n`);
  t.regex(output, /denied/u, output);
  try {
    git(ws, 'commit', '-q', '--allow-empty', '-m', 'next');
  } catch {
    // The stub breaks argparse's import, so the hook fails; the payload has run by then.
  }
  t.false(existsSync(pwned), 'the pre-commit hook imported tools/gettext.py written by the agent');
});
