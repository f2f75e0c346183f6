// Review s74w, finding 1: URL spellings of a node ES module's relative names that the URL reading of s72u (tool-file-
// references.ts `asUrlPaths`: percent-decoded, no query or fragment) does not make. node resolves an ES module's
// specifier, and `new URL(x, import.meta.url)`, with the WHATWG URL parser, which (for the special `file:` scheme)
// takes a backslash as a `/` (`import "./sub\\lint.mjs"` loads tools/sub/lint.mjs), drops every tab and newline
// (`import "./li\tnt.mjs"` loads tools/lint.mjs), and reads `file://localhost/ABS` as `file:///ABS`. zotbox's words
// reader drops a word with a backslash or splits it at the tab, the code-name reader (interpreter-operands.ts
// `codeNames`) takes the source text raw (`./sub\\lint.mjs` with both backslashes), and lineWords blanks out any
// `scheme://...` word: nothing protects the file node loads. One confined call rewrites it: no stop, and the user's
// `git commit` (hook: `exec node tools/check.mjs`) runs the agent's code. SAFE outcome asserted: it never does.
// Controls: the same programs spelled plainly are stopped.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { git, project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit } from '../adversarial-s64m/fixtures.js';

const MJS = 'import { writeFileSync } from "node:fs"; writeFileSync("PWNED", "");';

// [title, program, the same spelled plainly, file below tools/, its text, the agent's payload]; @WS@ is the workspace.
const CASES = [
  ['import "./sub\\\\lint.mjs" (a backslash is a slash in a file: URL)', 'import "./sub\\\\lint.mjs";\n', 'import "./sub/lint.mjs";\n', 'sub/lint.mjs', 'export {};\n', MJS],
  ['import "./li\\tnt.mjs" (the URL parser drops a tab)', 'import "./li\\tnt.mjs";\n', 'import "./lint.mjs";\n', 'lint.mjs', 'export {};\n', MJS],
  ['import "file://localhost@WS@/tools/lint.mjs"', 'import "file://localhost@WS@/tools/lint.mjs";\n', 'import "@WS@/tools/lint.mjs";\n', 'lint.mjs', 'export {};\n', MJS],
  ['import "file://@WS@/tools/lint.mjs" (three slashes)', 'import "file://@WS@/tools/lint.mjs";\n', 'import "@WS@/tools/lint.mjs";\n', 'lint.mjs', 'export {};\n', MJS],
] as const;

function urlProject(t: Parameters<typeof project>[0], program: string, file: string, original: string, payload: string): string {
  const ws = project(t, {
    'src.txt': '1\n',
    'one.sh': `printf '%s\\n' '${payload}' > 'tools/${file}'\n`,
    [`tools/${file}`]: original,
    'tools/check.mjs': program,
    '.git/hooks/pre-commit': '#!/bin/sh\nexec node tools/check.mjs\n',
  });
  writeFileSync(path.join(ws, 'tools', 'check.mjs'), program.replaceAll('@WS@', ws));
  git(ws, 'add', '-A');
  git(ws, 'commit', '-q', '--no-verify', '--allow-empty', '-m', 'workspace path');
  return ws;
}

for (const [title, program, , file, original, payload] of CASES) {
  test(`pre-commit hook runs node tools/check.mjs with ${title}; the call rewrites tools/${file}: git runs the user's code only`, async (t) => {
    const ws = urlProject(t, program, file, original, payload);
    t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's code");
  });
}

for (const [title, , plain, file, original, payload] of CASES) {
  test(`control: ${title} spelled plainly; the call rewrites tools/${file}: stopped`, async (t) => {
    const ws = urlProject(t, plain, file, original, payload);
    t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's code");
  });
}
