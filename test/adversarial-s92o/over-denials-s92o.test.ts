// Review s92o: ordinary node hook programs node-computed-loads.ts refuses after s90m. The CommonJS main-module idiom
// `if (require.main === module) main();` (module kept as a value, the s90m rule). (A loop variable named `module`
// reads again as node's module since review s04a: a declaration in one function exempted node's `module.load(file)` at
// the top, and zotbox does not tell scopes; rename it. A guard that rejects staged diffs holding `"eval("` stays refused: README row 5.) None runs code by a
// name it computes. The hook program (`exec node tools/check.js`) is the user's; one CONFINED call (`sh one.sh`, real
// bubblewrap) writes notes.txt, which nothing loads: it should exit 0 and no stop.
import test from 'ava';
import { agentWrites, project } from '../adversarial-s36i/harness.js';

const CASES: readonly (readonly [string, string])[] = [
  ['if (require.main === module) main();', 'function main() {\n  console.log(1);\n}\nif (require.main === module) main();\n'],
  ['control: no such word', 'console.log(JSON.parse("{}"));\n'],
];

for (const [title, main] of CASES)
  test(`hook runs node tools/check.js; ${title}; a call writes notes.txt: it runs, no stop`, async (t) => {
    const ws = project(t, {
      'src.txt': '1\n',
      'package.json': '{ "name": "p" }\n',
      'one.sh': "printf 'n\\n' > notes.txt\n",
      'tools/check.js': main,
      '.git/hooks/pre-commit': '#!/bin/sh\nexec node tools/check.js\n',
    });
    const output = await agentWrites(t, ws, 'x1.txt', 'x\n', 'sh one.sh');
    t.log(output.slice(-1200));
    t.regex(output, /bash sh one\.sh → exit 0/u, 'an ordinary hook program stopped the run');
  });
