// Review s88k: ordinary node hook programs the raw-text reading (node-computed-loads.ts RAW_RUNS, since s86i) refuses.
// `\bconstructor\s*\(` is every class's constructor, `.constructor` every `v.constructor.name`, `\beval\s*[(.)]` a
// comment saying "do not eval." None runs code by a name it computes. The hook program (`exec node tools/check.js`)
// is the user's; one CONFINED call (`sh one.sh`, real bubblewrap) writes notes.txt, which nothing loads: it should
// exit 0 and no stop.
import test from 'ava';
import { agentWrites, project } from '../adversarial-s36i/harness.js';

const CASES: readonly (readonly [string, string])[] = [
  [
    'an Error subclass with a constructor',
    'class CheckError extends Error {\n  constructor(message) {\n    super(message);\n    this.name = "CheckError";\n  }\n}\nif (process.env.FAIL) throw new CheckError("failed");\n',
  ],
  ['v.constructor.name in a message', 'const kind = (v) => (v === null ? "null" : v.constructor.name);\nconsole.log(kind([]));\n'],
  ['a comment: do not eval.', '// Never eval. Parse the JSON instead.\nconsole.log(JSON.parse("{}"));\n'],
  ['control: no class, no comment', 'console.log(JSON.parse("{}"));\n'],
];

for (const [title, main] of CASES)
  test(`hook runs node tools/check.js; ${title}; a call writes notes.txt: it runs, no stop`, async (t) => {
    const ws = project(t, { 'src.txt': '1\n', 'one.sh': "printf 'n\\n' > notes.txt\n", 'tools/check.js': main, '.git/hooks/pre-commit': '#!/bin/sh\nexec node tools/check.js\n' });
    const output = await agentWrites(t, ws, 'x1.txt', 'x\n', 'sh one.sh');
    t.log(output.slice(-1200));
    t.regex(output, /bash sh one\.sh → exit 0/u, 'an ordinary hook program stopped the run');
  });
