// Review s74w, finding 2: a module's code names a file beside the MAIN program, not beside itself. node's
// `process.argv[1]` and `require.main.filename` are the script node was started on, while zotbox takes a module's own
// folder as the module's (`__dirname`, its real folder). The hook runs `node tools/check.js`, which requires
// tools/lib/util.js, which does `require(path.join(path.dirname(process.argv[1]), "lint.js"))`: node loads
// tools/lint.js. zotbox reads util.js's word `lint.js` from the top and from tools/lib (its own folder) only, so
// tools/lint.js is protected by nothing. One confined call rewrites tools/lint.js: no stop, and the user's
// `git commit` runs the agent's code. SAFE outcome asserted: it never does. Control: the same call rewriting lint.js
// at the top (what zotbox reads) is stopped. (Python's `os.path.dirname(sys.argv[0])` in an imported module held.)
import test from 'ava';
import { project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit } from '../adversarial-s64m/fixtures.js';

const JS = 'require("node:fs").writeFileSync("PWNED", "");';

// [title, interpreter, main program, its module (below tools/lib/), the module's text, the file it loads, its text, payload]
const CASES = [
  [
    'node path.dirname(process.argv[1])',
    'node',
    'check.js',
    'require("./lib/util.js");\n',
    'util.js',
    'const path = require("node:path");\nrequire(path.join(path.dirname(process.argv[1]), "lint.js"));\n',
    'lint.js',
    '\n',
    JS,
  ],
  [
    'node path.dirname(require.main.filename)',
    'node',
    'check.js',
    'require("./lib/util.js");\n',
    'util.js',
    'const path = require("node:path");\nrequire(path.join(path.dirname(require.main.filename), "lint.js"));\n',
    'lint.js',
    '\n',
    JS,
  ],
] as const;

const files = (interpreter: string, main: string, mainText: string, module: string, moduleText: string, file: string, original: string, rewritten: string, payload: string) => ({
  'src.txt': '1\n',
  'one.sh': `printf '%s\\n' '${payload}' > '${rewritten}'\n`,
  [`tools/${main}`]: mainText,
  [`tools/lib/${module}`]: moduleText,
  [`tools/${file}`]: original,
  [file]: original,
  '.git/hooks/pre-commit': `#!/bin/sh\nexec ${interpreter} tools/${main}\n`,
});

for (const [title, interpreter, main, mainText, module, moduleText, file, original, payload] of CASES) {
  test(`hook runs ${interpreter} tools/${main}, whose module tools/lib/${module} loads ${file} from ${title}; the call rewrites tools/${file}: git runs the user's code only`, async (t) => {
    const ws = project(t, files(interpreter, main, mainText, module, moduleText, file, original, `tools/${file}`, payload));
    t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's code");
  });
  test(`control: ${title}, the call rewrites ${file} at the top (what zotbox reads): stopped`, async (t) => {
    const ws = project(t, files(interpreter, main, mainText, module, moduleText, file, original, file, payload));
    t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's code");
  });
}
