// Review s76y: JavaScript string escapes in a module specifier that zotbox does not decode. Review s74w's fix reads a
// program's line as node's URL parser reads a specifier, with `\t` escapes both ways, and `\uXXXX` is decoded too
// (the control below holds); but `\xHH` (`"./li\x6et.mjs"`), `\u{H…}` (`"./lint.\u{6d}js"`), a non-escape character
// (`"./l\int.mjs"`: the backslash is dropped) and a line continuation (`"./li\` newline `nt.mjs"`) are not: the
// specifier is read as the raw text, names no file, and nothing is unresolved. node loads tools/lint.mjs for each
// (checked by hand with node 20). Hook `exec node tools/check.mjs` (or .js with `require`). One confined call rewrites
// tools/lint.mjs: no stop, and the user's `git commit` runs the agent's code. SAFE outcome asserted by hand: it never
// does. Control: `"./li\u006et.mjs"` (decoded by zotbox), the same call: stopped.
import test from 'ava';
import { project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit } from '../adversarial-s64m/fixtures.js';

const JS = 'require("node:fs").writeFileSync("PWNED", "");';
const MJS = 'import { writeFileSync } from "node:fs"; writeFileSync("PWNED", "");';

// [title, main program, its text (source), the file it loads, payload]
const CASES = [
  ['\\x6e', 'check.mjs', 'import "./li\\x6et.mjs";\n', 'lint.mjs', MJS],
  ['\\u{6d}', 'check.mjs', 'import "./lint.\\u{6d}js";\n', 'lint.mjs', MJS],
  ['\\x2e', 'check.mjs', 'import "./lint\\x2emjs";\n', 'lint.mjs', MJS],
  ['a non-escape \\i', 'check.mjs', 'import "./l\\int.mjs";\n', 'lint.mjs', MJS],
  ['a line continuation', 'check.mjs', 'import "./li\\\nnt.mjs";\n', 'lint.mjs', MJS],
  ['require \\x6e', 'check.js', 'require("./li\\x6et.js");\n', 'lint.js', JS],
] as const;

const files = (main: string, mainText: string, file: string, payload: string) => ({
  'src.txt': '1\n',
  'one.sh': `printf '%s\\n' '${payload}' > 'tools/${file}'\n`,
  [`tools/${main}`]: mainText,
  [`tools/${file}`]: '\n',
  '.git/hooks/pre-commit': `#!/bin/sh\nexec node tools/${main}\n`,
});

for (const [title, main, mainText, file, payload] of CASES)
  test(`hook runs node tools/${main}, which loads ./${file} spelled with ${title}; the call rewrites tools/${file}: git runs the user's code only`, async (t) => {
    const ws = project(t, files(main, mainText, file, payload));
    t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's code");
  });

test('control: hook runs node tools/check.mjs, which loads ./lint.mjs spelled with \\u006e; the same call: stopped', async (t) => {
  const ws = project(t, files('check.mjs', 'import "./li\\u006et.mjs";\n', 'lint.mjs', MJS));
  t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's code");
});
