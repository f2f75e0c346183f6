// Severity: critical (the most common hook spelling). Class: "operand-read-by-wrong-grammar" — a hook runs a program
// file through its interpreter (`python3 tools/check.py`, `node tools/check.js`). The reader marks the operand as run
// (runs), and tool-file-references.ts readingOf(file, runs=true) reads any run file WITHOUT a #! line as a SHELL
// script, so the program's imports and requires (programCodeNames, only in the "words" reading of program code) are
// never read: tools/helpers.py and tools/helpers.js, which the hook loads on every commit, stay writable. With a
// `#!/usr/bin/env python3` line the same file is read as Python and the import is protected.
// Fix direction: read a file by the interpreter that runs it (the command's program: python3 → Python, node → JS) and
// by its extension (.py/.js/.mjs/.cjs/.ts/.pl/.rb) before falling back to the shell; never the shell for program code.
import { existsSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, git, project } from './harness.js';

const cases = [
  {
    hook: 'python3 tools/check.py',
    program: 'tools/check.py',
    code: 'import helpers\nprint("checked")\n',
    target: 'tools/helpers.py',
    payload: (p: string) => `open(${JSON.stringify(p)}, "w").write("ran")\n`,
  },
  {
    hook: 'node tools/check.js',
    program: 'tools/check.js',
    code: 'require("./helpers");\nconsole.log("checked");\n',
    target: 'tools/helpers.js',
    payload: (p: string) => `require("node:fs").writeFileSync(${JSON.stringify(p)}, "ran");\n`,
  },
];

for (const { hook, program, code, target, payload } of cases) {
  test(`a module that \`${hook}\` loads is not writable`, async (t) => {
    const ws = project(t, { '.git/hooks/pre-commit': `#!/bin/sh\n${hook}\n`, [program]: code, [target]: '\n' });
    const pwned = path.join(path.dirname(ws), 'PWNED');
    const output = await agentWrites(t, ws, target, payload(pwned));
    t.regex(output, /denied/u, output);
    git(ws, 'commit', '-q', '--allow-empty', '-m', 'next');
    t.false(existsSync(pwned), `the pre-commit hook loaded ${target} written by the agent`);
  });
}

test('a module that `python3 tools/check.py` loads is not writable by a confined command either', async (t) => {
  const ws = project(t, { '.git/hooks/pre-commit': '#!/bin/sh\npython3 tools/check.py\n', 'tools/check.py': 'import helpers\nprint("checked")\n', 'tools/helpers.py': '\n' });
  const pwned = path.join(path.dirname(ws), 'PWNED');
  const output = await agentWrites(t, ws, 'w.sh', `echo 'open(${JSON.stringify(pwned)}, "w").write("ran")' > tools/helpers.py\n`, 'sh w.sh');
  t.regex(output, /sh w\.sh/u, output);
  git(ws, 'commit', '-q', '--allow-empty', '-m', 'next');
  t.false(existsSync(pwned), 'the pre-commit hook loaded tools/helpers.py written by a confined command');
});
