// Severity: medium-high. Class: "process-substitution" — `source <(cat scripts/env)` (and `bash <(cat FILE)`, `. <(sed
// … FILE)`) runs FILE's text as a script, but the lexer splits `<(` into a separate command, so FILE is only a word of
// `cat`: read as a words file (one level), never as a script that runs. What it runs is protected, but that file's own
// chain (tools/run → tools/deeper) is not followed, so the second script in the chain stays writable.
// Fix direction: read a process substitution that is sourced or run as the program its producer writes, as
// pipedProgram does for `… | sh` (cat FILE: FILE read as a script; echo/printf: their text; anything else unresolved).
import { existsSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, git, project } from './harness.js';

test('a script reached through a sourced process substitution is not writable', async (t) => {
  const ws = project(t, {
    '.git/hooks/pre-commit': '#!/bin/bash\nsource <(cat scripts/env)\n',
    'scripts/env': 'sh tools/run\n',
    'tools/run': 'sh tools/deeper\n',
    'tools/deeper': 'echo checked\n',
  });
  const pwned = path.join(path.dirname(ws), 'PWNED');
  const output = await agentWrites(t, ws, 'tools/deeper', `touch ${JSON.stringify(pwned)}\n`);
  t.regex(output, /denied/u, output);
  git(ws, 'commit', '-q', '--allow-empty', '-m', 'next');
  t.false(existsSync(pwned), 'the pre-commit hook ran tools/deeper written by the agent');
});
