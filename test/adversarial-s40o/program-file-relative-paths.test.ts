// Review s40o of issue 21: a hook's program that loads or runs a file beside itself through its own location —
// node's `require(path.join(__dirname, "plug.js"))`, `require(__dirname + "/plug.js")`, `createRequire(__filename)`,
// `require.resolve("./plug.js")` handed to `fork`, `new Worker(path.resolve(__dirname, …))`, ESM's
// `import(new URL("./plug.mjs", import.meta.url))`, `path.join(import.meta.dirname, …)`, `fileURLToPath(new URL(…))`
// handed to `sh`, Python's `subprocess.run(["sh", str(Path(__file__).parent / "fmt.sh")])` — names that file with a
// string literal anchored at the program's directory. zotbox's closed path grammar (file-relative-paths.ts) anchors
// Python `__file__` only for sys.path changes and Perl/Ruby only for @INC/$LOAD_PATH, and node's `__dirname`,
// `import.meta.url`/`dirname` not at all; the literal is not protected where it points (tools/). These are the usual
// spellings of "the file next to me" in each language (the `__file__` analogue the review brief names). The write
// tool rewrites tools/plug.js (or .mjs, fmt.sh); the user's commit runs it.
import test from 'ava';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

const nodeJs = 'require("fs").writeFileSync("PWNED", "agent code ran")\n';
const nodeMjs = 'import fs from "node:fs"; fs.writeFileSync("PWNED", "agent code ran")\n';
const shell = 'echo agent code ran > PWNED\n';
const cases: readonly (readonly [string, string, string, string, string])[] = [
  ['node require(path.join(__dirname, …))', 'node tools/check.js', 'tools/check.js', 'const path = require("path");\nrequire(path.join(__dirname, "plug.js"));\n', 'tools/plug.js'],
  ['node require(__dirname + "/…")', 'node tools/check.js', 'tools/check.js', 'require(__dirname + "/plug.js");\n', 'tools/plug.js'],
  ['node import(new URL("./…", import.meta.url))', 'node tools/check.mjs', 'tools/check.mjs', 'await import(new URL("./plug.mjs", import.meta.url));\n', 'tools/plug.mjs'],
  [
    'node import(path.join(import.meta.dirname, …))',
    'node tools/check.mjs',
    'tools/check.mjs',
    'import path from "node:path";\nawait import(path.join(import.meta.dirname, "plug.mjs"));\n',
    'tools/plug.mjs',
  ],
  [
    'node execFileSync("sh", [fileURLToPath(new URL(…))])',
    'node tools/check.mjs',
    'tools/check.mjs',
    'import { execFileSync } from "node:child_process";\nimport { fileURLToPath } from "node:url";\nexecFileSync("sh", [fileURLToPath(new URL("./fmt.sh", import.meta.url))]);\n',
    'tools/fmt.sh',
  ],
  ['node createRequire(__filename)("./…")', 'node tools/check.js', 'tools/check.js', 'require("module").createRequire(__filename)("./plug.js");\n', 'tools/plug.js'],
  ['node fork(require.resolve("./…"))', 'node tools/check.js', 'tools/check.js', 'require("child_process").fork(require.resolve("./plug.js"));\n', 'tools/plug.js'],
  [
    'node new Worker(path.resolve(__dirname, …))',
    'node tools/check.js',
    'tools/check.js',
    'const { Worker } = require("worker_threads");\nnew Worker(require("path").resolve(__dirname, "plug.js"));\n',
    'tools/plug.js',
  ],
  [
    'python subprocess.run(["sh", Path(__file__).parent / …])',
    'python3 tools/check.py',
    'tools/check.py',
    'import subprocess\nfrom pathlib import Path\nsubprocess.run(["sh", str(Path(__file__).parent / "fmt.sh")])\n',
    'tools/fmt.sh',
  ],
];
for (const [name, command, program, code, target] of cases)
  test(`a file a hook program reaches from its own location is protected: ${name}`, async (t) => {
    const ws = project(t, { '.git/hooks/pre-commit': `#!/bin/sh\nexec ${command}\n`, [program]: code, [target]: target.endsWith('.sh') ? 'true\n' : '\n' });
    const payload = target.endsWith('.sh') ? shell : target.endsWith('.mjs') ? nodeMjs : nodeJs;
    t.log(await agentWrites(t, ws, target, payload));
    try {
      git(ws, 'commit', '-q', '--allow-empty', '-m', 'user commit');
    } catch {
      // what the hook ran is what counts
    }
    t.false(existsSync(path.join(ws, 'PWNED')), `the agent-written ${target} ran in the user's pre-commit hook`);
  });

test('control (passes today): the same file required as "./plug.js" is refused', async (t) => {
  const ws = project(t, { '.git/hooks/pre-commit': '#!/bin/sh\nexec node tools/check.js\n', 'tools/check.js': 'require("./plug.js");\n', 'tools/plug.js': '\n' });
  t.log(await agentWrites(t, ws, 'tools/plug.js', nodeJs));
  try {
    git(ws, 'commit', '-q', '--allow-empty', '-m', 'user commit');
  } catch {
    // what the hook ran is what counts
  }
  t.false(existsSync(path.join(ws, 'PWNED')));
});
