// Review s72u, finding 3: a node ES module names a file beside it by a URL, and a URL's path is percent-encoded:
// `import "./%6cint.mjs"` (node resolves a relative specifier as a URL against import.meta.url and loads the decoded
// file, tools/lint.mjs), `fileURLToPath(new URL("./%6cint.sh", import.meta.url))` (tools/lint.sh), and the URL
// parser's own `%2e%2e` segment (`new URL("./cache/%2e%2e/lint.sh", import.meta.url)`: a `..`, tools/lint.sh).
// zotbox takes the text as a file name (program-path-joins.ts `knownDirectoryAt`, the code-name readers), so it
// protects `tools/%6cint.mjs` and the like, never the file node loads. One confined call rewrites tools/lint.mjs or
// tools/lint.sh: no stop, and the user's `git commit` (hook: `exec node tools/check.mjs`) runs the agent's code.
// A query or fragment (`import "./lint.mjs?v=1"`, `#main`) is no part of the name node loads either.
// SAFE outcome asserted: it never does. Controls: the same programs spelled without a percent-escape are stopped.
import test from 'ava';
import { project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit } from '../adversarial-s64m/fixtures.js';

const MJS = 'import { writeFileSync } from "node:fs"; writeFileSync("PWNED", "");';
const SH = 'touch PWNED';
const RUN = 'import { execFileSync } from "node:child_process";\nimport { fileURLToPath } from "node:url";\n';

const CASES = [
  ['import "./%6cint.mjs"', 'import "./%6cint.mjs";\n', 'import "./lint.mjs";\n', 'lint.mjs', 'export {};\n', MJS],
  // A URL's query and fragment are no part of the file's name: node loads tools/lint.mjs.
  ['import "./lint.mjs?v=1"', 'import "./lint.mjs?v=1";\n', 'import "./lint.mjs";\n', 'lint.mjs', 'export {};\n', MJS],
  ['import "./lint.mjs#main"', 'import "./lint.mjs#main";\n', 'import "./lint.mjs";\n', 'lint.mjs', 'export {};\n', MJS],
  [
    'fileURLToPath(new URL("./%6cint.sh", import.meta.url)) run by sh',
    `${RUN}execFileSync("sh", [fileURLToPath(new URL("./%6cint.sh", import.meta.url))]);\n`,
    `${RUN}execFileSync("sh", [fileURLToPath(new URL("./lint.sh", import.meta.url))]);\n`,
    'lint.sh',
    'exit 0\n',
    SH,
  ],
  [
    'fileURLToPath(new URL("./cache/%2e%2e/lint.sh", import.meta.url)) run by sh',
    `${RUN}execFileSync("sh", [fileURLToPath(new URL("./cache/%2e%2e/lint.sh", import.meta.url))]);\n`,
    `${RUN}execFileSync("sh", [fileURLToPath(new URL("./cache/../lint.sh", import.meta.url))]);\n`,
    'lint.sh',
    'exit 0\n',
    SH,
  ],
] as const;

const files = (program: string, file: string, original: string, payload: string) => ({
  'src.txt': '1\n',
  'one.sh': `printf '%s\\n' '${payload}' > 'tools/${file}'\n`,
  'tools/cache/.keep': '',
  [`tools/${file}`]: original,
  'tools/check.mjs': program,
  '.git/hooks/pre-commit': '#!/bin/sh\nexec node tools/check.mjs\n',
});

for (const [title, program, , file, original, payload] of CASES) {
  test(`pre-commit hook runs node tools/check.mjs with ${title}; the call rewrites tools/${file}: git runs the user's code only`, async (t) => {
    const ws = project(t, files(program, file, original, payload));
    t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's code");
  });
}

// Controls (held): the same program with the name spelled plainly; the call rewriting the file is stopped.
for (const [title, , plain, file, original, payload] of CASES) {
  test(`control: ${title} spelled plainly; the call rewrites tools/${file}: stopped`, async (t) => {
    const ws = project(t, files(plain, file, original, payload));
    t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's code");
  });
}
