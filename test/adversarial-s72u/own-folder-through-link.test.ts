// Review s72u, finding 4: a program's "own folder" reached through the user's own directory link. The user's repository
// keeps `scripts` as a link to `vendor/tools` (a committed compatibility link), and the hook runs `scripts/check.py`,
// which loads `lint.py` from one folder above its own (`os.path.join(os.path.dirname(__file__), "..", "lint.py")`,
// perl's `"$FindBin::Bin/../lint.pl"`, sh's `. "$(dirname "$0")/../lint.sh"`, node's `path.join(__dirname, "..",
// "lint.js")`: the climb out of the program's own folder that lexical-climb.ts allows).
// zotbox takes the own folder as the text `scripts` and tidies `scripts/..` to the top: it protects `lint.py` at the
// top. The kernel walks `scripts` first, which leads to `vendor/tools`, so the interpreter opens `vendor/lint.py`,
// which nothing protects. One confined call rewrites `vendor/lint.py` (a plain write, no link made): no stop, and the
// user's `git commit` runs the agent's code. SAFE outcome asserted: it never does. Control: the same call rewriting
// `lint.py` at the top (what zotbox protects) is stopped.
import { symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { git, project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit } from '../adversarial-s64m/fixtures.js';

const CASES = [
  [
    'python exec(open(os.path.join(os.path.dirname(__file__), "..", "lint.py")).read())',
    'python3',
    'check.py',
    'import os\nexec(open(os.path.join(os.path.dirname(__file__), "..", "lint.py")).read())\n',
    'lint.py',
    'pass\n',
    'import subprocess; subprocess.run(["touch", "PWNED"])',
  ],
  // A literal absolute path through the own folder (@WS@ is the workspace): the kernel climbs out of vendor/tools.
  // The same path handed to a command the program runs: read as a word of the program, the own-folder rule alone.
  ['python subprocess.run(["sh", "@WS@/scripts/../lint.sh"])', 'python3', 'check.py', 'import subprocess\nsubprocess.run(["sh", "@WS@/scripts/../lint.sh"])\n', 'lint.sh', 'true\n', 'touch PWNED'],
  ['node execFileSync("sh", ["@WS@/scripts/../lint.sh"])', 'node', 'check.js', 'require("node:child_process").execFileSync("sh", ["@WS@/scripts/../lint.sh"]);\n', 'lint.sh', 'true\n', 'touch PWNED'],
  ['python open("@WS@/scripts/../lint.py")', 'python3', 'check.py', 'exec(open("@WS@/scripts/../lint.py").read())\n', 'lint.py', 'pass\n', 'import subprocess; subprocess.run(["touch", "PWNED"])'],
  ['perl do "$FindBin::Bin/../lint.pl"', 'perl', 'check.pl', 'use FindBin;\ndo "$FindBin::Bin/../lint.pl";\n', 'lint.pl', '1;\n', 'system("touch", "PWNED"); 1;'],
  ['sh . "$(dirname "$0")/../lint.sh"', 'sh', 'check.sh', '. "$(dirname "$0")/../lint.sh"\n', 'lint.sh', 'true\n', 'touch PWNED'],
  [
    'node require(path.join(__dirname, "..", "lint.js"))',
    'node',
    'check.js',
    'const path = require("node:path");\nrequire(path.join(__dirname, "..", "lint.js"));\n',
    'lint.js',
    '\n',
    'require("node:fs").writeFileSync("PWNED", "");',
  ],
] as const;

function linkedProject(t: Parameters<typeof project>[0], interpreter: string, program: string, text: string, file: string, original: string, rewritten: string, payload: string): string {
  const ws = project(t, {
    'src.txt': '1\n',
    'one.sh': `printf '%s\\n' '${payload}' > '${rewritten}'\n`,
    [`vendor/tools/${program}`]: text,
    [`vendor/${file}`]: original,
    [file]: original,
    '.git/hooks/pre-commit': `#!/bin/sh\nexec ${interpreter} scripts/${program}\n`,
  });
  writeFileSync(path.join(ws, 'vendor', 'tools', program), text.replace('@WS@', ws));
  symlinkSync('vendor/tools', path.join(ws, 'scripts'));
  git(ws, 'add', '-A');
  git(ws, 'commit', '-q', '--no-verify', '-m', 'scripts link');
  return ws;
}

for (const [title, interpreter, program, text, file, original, payload] of CASES) {
  test(`hook runs ${interpreter} scripts/${program} (scripts -> vendor/tools), which does ${title}; the call rewrites vendor/${file}: git runs the user's code only`, async (t) => {
    const ws = linkedProject(t, interpreter, program, text, file, original, `vendor/${file}`, payload);
    t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's code");
  });
  test(`control: ${title}, the call rewrites ${file} at the top (what zotbox protects): stopped`, async (t) => {
    const ws = linkedProject(t, interpreter, program, text, file, original, file, payload);
    t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's code");
  });
}
