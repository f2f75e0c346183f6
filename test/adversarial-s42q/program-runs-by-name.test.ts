// Review s42q of issue 21: a hook written as a program (or a program a hook runs) that starts the project's tools
// by name: `execSync("npx acme-lint")`, `execFileSync("npx", ["acme-lint"])`, `subprocess.run(["npx", "acme-lint"])`
// (an npm workspace's bin, through npx's lookup in node_modules/.bin), and `subprocess.run([".venv/bin/python", "-m",
// "mypkg.lint"])` (the project venv's editable install, `src/mypkg/lint.py` through its .pth). Program code protects
// the paths its string literals name; the names those literals run through npx or `-m` are not looked up. The write
// tool rewrites the file that runs; the user's commit runs it. (The venv `-m` case is refused today: a control.)
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { commitAfterWrite, monorepo as workspaces, pythonProject } from '../adversarial-s43r/fixtures.js';

/** s43r's npm-workspaces monorepo, with the project venv ignored as well. */
const monorepo = (t: ExecutionContext, files: Readonly<Record<string, string>>) => workspaces(t, { '.gitignore': 'node_modules/\n.venv/\n', ...files });

for (const [name, program, interpreter] of [
  ['execSync("npx acme-lint") (node)', 'require("node:child_process").execSync("npx acme-lint", { stdio: "inherit" });\n', 'node tools/check.js'],
  ['execFileSync("npx", ["acme-lint"]) (node)', 'require("node:child_process").execFileSync("npx", ["acme-lint"], { stdio: "inherit" });\n', 'node tools/check.js'],
  ['subprocess.run(["npx", "acme-lint"]) (python)', 'import subprocess\nsubprocess.run(["npx", "acme-lint"], check=True)\n', 'python3 tools/check.py'],
] as const)
  test(`a workspace bin a hook program runs through npx is protected: ${name}`, async (t) => {
    const file = interpreter.endsWith('.py') ? 'tools/check.py' : 'tools/check.js';
    const ws = monorepo(t, { '.git/hooks/pre-commit': `#!/bin/sh\nexec ${interpreter}\n`, [file]: program });
    await commitAfterWrite(t, ws);
  });

test('control (passes today, every writer refused): the project venv a hook program runs with -m, subprocess.run([".venv/bin/python", "-m", "mypkg.lint"])', async (t) => {
  const ws = pythonProject(t, {
    '.git/hooks/pre-commit': '#!/bin/sh\nexec python3 tools/check.py\n',
    'tools/check.py': 'import subprocess\nsubprocess.run([".venv/bin/python", "-m", "mypkg.lint"], check=True)\n',
  });
  await commitAfterWrite(t, ws, 'src/mypkg/lint.py', (marker) => `open(${JSON.stringify(marker)}, "w").write("agent code ran")\n`);
});

test('control (passes today): the hook runs npx acme-lint itself', async (t) => {
  const ws = monorepo(t, { '.git/hooks/pre-commit': '#!/bin/sh\nexec npx acme-lint\n' });
  await commitAfterWrite(t, ws);
});
