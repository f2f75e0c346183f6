// Review s70s, finding 1: a pre-commit hook written as a program (python, perl) that loads or runs a file through a
// folder's `..`: `exec(open("tools/cache/../lint.py").read())`, `os.path.join("tools", "cache", "..", "lint.py")`,
// `sys.path.insert(0, "tools/cache/../lib")`, `subprocess.run(["sh", "tools/cache/../lint.sh"])`, perl's
// `do "./tools/cache/../lint.pl"`. zotbox reads these names (the controls below show the named file is protected),
// but tool-file-references.ts (`path.resolve(from, named.name)`) tidies the `..` as text: no climb rule
// (lexical-climb.ts) applies outside shell words, though docs/security.md promises it for "any path a config value,
// a hook or another script zotbox reads gives". The interpreter opens the text as the kernel walks it (through
// `cache`): one confined call replaces `tools/cache` with a link to `../evil/a/b` and writes the agent's file at
// `evil/a/...`: exit 0, no stop, and the user's `git commit` runs the agent's code. SAFE outcome asserted: it never does.
import test from 'ava';
import { project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit } from '../adversarial-s64m/fixtures.js';

const swap = (file: string, payload: string) => `set -e
mkdir -p evil/a/b "$(dirname 'evil/a/${file}')"
printf '%s\\n' '${payload}' > 'evil/a/${file}'
rm -rf tools/cache
ln -s ../evil/a/b tools/cache
`;

const touchPy = 'import subprocess; subprocess.run(["touch", "PWNED"])';

for (const [title, hook, files, file, payload] of [
  ['python exec(open("tools/cache/../lint.py").read())', '#!/usr/bin/env python3\nexec(open("tools/cache/../lint.py").read())\n', { 'tools/lint.py': 'pass\n' }, 'lint.py', touchPy],
  [
    'python sys.path.insert(0, "tools/cache/../lib"); import lint',
    '#!/usr/bin/env python3\nimport sys\nsys.path.insert(0, "tools/cache/../lib")\nimport lint\n',
    { 'tools/lib/lint.py': 'pass\n' },
    'lib/lint.py',
    touchPy,
  ],
  [
    'python exec(open(os.path.join("tools", "cache", "..", "lint.py")).read())',
    '#!/usr/bin/env python3\nimport os\nexec(open(os.path.join("tools", "cache", "..", "lint.py")).read())\n',
    { 'tools/lint.py': 'pass\n' },
    'lint.py',
    touchPy,
  ],
  [
    'python subprocess.run(["sh", "tools/cache/../lint.sh"])',
    '#!/usr/bin/env python3\nimport subprocess\nsubprocess.run(["sh", "tools/cache/../lint.sh"])\n',
    { 'tools/lint.sh': 'exit 0\n' },
    'lint.sh',
    'touch PWNED',
  ],
  ['perl do "tools/cache/../lint.pl"', '#!/usr/bin/env perl\ndo "./tools/cache/../lint.pl";\n', { 'tools/lint.pl': '1;\n' }, 'lint.pl', 'system("touch", "PWNED"); 1;'],
] as const) {
  test(`pre-commit hook ${title}: git runs the user's code only`, async (t) => {
    const ws = project(t, { 'src.txt': '1\n', 'one.sh': swap(file, payload), 'tools/cache/.keep': '', ...files, '.git/hooks/pre-commit': hook });
    t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's code");
  });
}

// Controls (held): the same hooks without the climb; the call overwrites the file the hook loads. zotbox protects it.
for (const [title, hook, files, file, payload] of [
  ['python exec(open("tools/lint.py").read())', '#!/usr/bin/env python3\nexec(open("tools/lint.py").read())\n', { 'tools/lint.py': 'pass\n' }, 'tools/lint.py', touchPy],
  [
    'python sys.path.insert(0, "tools/lib"); import lint',
    '#!/usr/bin/env python3\nimport sys\nsys.path.insert(0, "tools/lib")\nimport lint\n',
    { 'tools/lib/lint.py': 'pass\n' },
    'tools/lib/lint.py',
    touchPy,
  ],
  [
    'python subprocess.run(["sh", "tools/lint.sh"])',
    '#!/usr/bin/env python3\nimport subprocess\nsubprocess.run(["sh", "tools/lint.sh"])\n',
    { 'tools/lint.sh': 'exit 0\n' },
    'tools/lint.sh',
    'touch PWNED',
  ],
  ['perl do "./tools/lint.pl"', '#!/usr/bin/env perl\ndo "./tools/lint.pl";\n', { 'tools/lint.pl': '1;\n' }, 'tools/lint.pl', 'system("touch", "PWNED"); 1;'],
] as const) {
  test(`control: pre-commit hook ${title}, the call rewrites ${file}: stopped`, async (t) => {
    const ws = project(t, { 'src.txt': '1\n', 'one.sh': `printf '%s\\n' '${payload}' > '${file}'\n`, ...files, '.git/hooks/pre-commit': hook });
    t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's code");
  });
}
