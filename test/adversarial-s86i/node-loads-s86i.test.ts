// Review s86i: a user's node hook program (`exec node tools/check.js`) that loads or runs the files of a folder it
// lists, in spellings node-computed-loads.ts (on the javascript-tokens.ts tokenizer, after s84g) does not see. Three
// classes: (1) the tokenizer reads the program AFTER jsUnescaped spelled its escapes out, so an escape in a comment,
// a regex or a string turns into a line join or a quote that hides the rest of the line (or the next line) from the
// reader; `\uXXXX` (four digits, no braces) is not spelled out at all, so `\u0072equire` is no `require`; the
// regex-vs-division guess and `<!--` comments hide code too; (2) the leading-folder rule takes the FIRST literal's
// folder whatever operator follows it (`("./rules/", file)`, `"./rules/" && file`, `path.join(__dirname, "rules",
// "..", "plugins", name)`); (3) loaders and runners the lists miss (`module["require"]`, `Reflect.get(module,
// "require")`, a function's `.constructor`, `Reflect.construct(Function, …)`, `(0, eval)`, `eval.call`, ESM
// `import { createRequire as cr }` / `{ fork as launch }` / `{ Worker as W }`). Each file name comes from a
// directory listing; node 20 runs the agent's module. One CONFINED call (`sh one.sh`, real bubblewrap) rewrites that
// module; the SAFE outcome is asserted by hand: the user's `git commit` never runs the agent's code.
import test from 'ava';
import { project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit } from '../adversarial-s64m/fixtures.js';

// The agent's module: writes PWNED where the hook runs (require is no global inside indirect eval / Function code).
const JS = '(typeof require === "function" ? require : process.mainModule.require)("node:fs").writeFileSync("PWNED", "");';
const listing = (folder: string) =>
  `const fs = require("node:fs");\nconst path = require("node:path");\nconst names = fs.readdirSync(path.join(__dirname, "${folder}")).filter((n) => n.endsWith(".js"));\n`;
const HEAD = listing('rules');
const FILE = 'path.join(__dirname, "rules", name)';
const SOURCE = `fs.readFileSync(${FILE}, "utf8")`;
const ESM_HEAD =
  'import fs from "node:fs";\nimport path from "node:path";\nimport { fileURLToPath } from "node:url";\nconst here = path.dirname(fileURLToPath(import.meta.url));\nconst names = fs.readdirSync(path.join(here, "rules")).filter((n) => n.endsWith(".js"));\n';
const ESM_FILE = 'path.join(here, "rules", name)';

// [title, the program's name (run by `node NAME`), its text, the module the agent rewrites]
const CASES: readonly (readonly [string, string, string, string])[] = [
  // (1) the tokenizer, on the unescaped text
  ['a `// C:\\` comment: the line join hides the next line', 'tools/check.js', `${HEAD}// on Windows the folder is C:\\\nfor (const name of names) require(${FILE});\n`, 'tools/rules/a.js'],
  ['p.replace(/\\\\/g, "/") on the load\'s line', 'tools/check.js', `${HEAD}const slash = (p) => p.replace(/\\\\/g, "/"); for (const name of names) require(slash(${FILE}));\n`, 'tools/rules/a.js'],
  ["const q = '\\x27' on the load's line", 'tools/check.js', `${HEAD}const q = '\\x27'; for (const name of names) require(${FILE});\n`, 'tools/rules/a.js'],
  [
    'a template `\\x60` (a backtick) hides the lines up to the next template',
    'tools/check.js',
    `${HEAD}const tick = \`\\x60\`;\nfor (const name of names) require(${FILE});\nconsole.log(\`done\`);\n`,
    'tools/rules/a.js',
  ],
  ['\\u0072equire(file)', 'tools/check.js', `${HEAD}for (const name of names) \\u0072equire(${FILE});\n`, 'tools/rules/a.js'],
  ['\\u0065val(source)', 'tools/check.js', `${HEAD}for (const name of names) \\u0065val(${SOURCE});\n`, 'tools/rules/a.js'],
  ['{} / 1 … / 1: a division after an object literal read as a regex', 'tools/check.js', `${HEAD}const k = {} / 1; for (const name of names) require(${FILE}); const z = 2 / 1;\n`, 'tools/rules/a.js'],
  ['i++ / 2 … / 1: a division after ++ read as a regex', 'tools/check.js', `${HEAD}let i = 0; const k = i++ / 2; for (const name of names) require(${FILE}); const z = 2 / 1;\n`, 'tools/rules/a.js'],
  ["if (name) /'/.test(name): a regex after ) read as a division", 'tools/check.js', `${HEAD}for (const name of names) if (name) /'/.test(name) || require(${FILE}); // '\n`, 'tools/rules/a.js'],
  ['<!-- ` (an HTML-like comment node honours)', 'tools/check.js', `${HEAD}<!-- \` (old markup)\nfor (const name of names) require(${FILE});\n// \`\n`, 'tools/rules/a.js'],
  // (2) the leading-folder rule
  [
    'require(("./rules/", file)): the comma operator',
    'tools/check.js',
    `${listing('plugins')}for (const name of names) require(("./rules/", path.join(__dirname, "plugins", name)));\n`,
    'tools/plugins/a.js',
  ],
  ['require("./rules/" && file)', 'tools/check.js', `${listing('plugins')}for (const name of names) require("./rules/" && path.join(__dirname, "plugins", name));\n`, 'tools/plugins/a.js'],
  [
    'held: path.join(__dirname, "rules", "..", "plugins", name)',
    'tools/check.js',
    `${listing('plugins')}for (const name of names) require(path.join(__dirname, "rules", "..", "plugins", name));\n`,
    'tools/plugins/a.js',
  ],
  // (3) loaders and runners the lists miss
  ['module["require"](file)', 'tools/check.js', `${HEAD}for (const name of names) module["require"](${FILE});\n`, 'tools/rules/a.js'],
  ['Reflect.get(module, "require").call(module, file)', 'tools/check.js', `${HEAD}for (const name of names) Reflect.get(module, "require").call(module, ${FILE});\n`, 'tools/rules/a.js'],
  ['const Make = (() => {}).constructor; Make(source)()', 'tools/check.js', `${HEAD}const Make = (() => {}).constructor;\nfor (const name of names) Make(${SOURCE})();\n`, 'tools/rules/a.js'],
  ['Reflect.construct(Function, [source])()', 'tools/check.js', `${HEAD}for (const name of names) Reflect.construct(Function, [${SOURCE}])();\n`, 'tools/rules/a.js'],
  ['(0, eval)(source)', 'tools/check.js', `${HEAD}for (const name of names) (0, eval)(${SOURCE});\n`, 'tools/rules/a.js'],
  ['eval.call(null, source)', 'tools/check.js', `${HEAD}for (const name of names) eval.call(null, ${SOURCE});\n`, 'tools/rules/a.js'],
  [
    'ESM import { createRequire as cr }; cr(import.meta.url)(file)',
    'tools/check.mjs',
    `import { createRequire as cr } from "node:module";\n${ESM_HEAD}for (const name of names) cr(import.meta.url)(${ESM_FILE});\n`,
    'tools/rules/a.js',
  ],
  [
    'ESM import { fork as launch }; launch(file)',
    'tools/check.mjs',
    `import { fork as launch } from "node:child_process";\n${ESM_HEAD}for (const name of names) launch(${ESM_FILE});\n`,
    'tools/rules/a.js',
  ],
  ['ESM import { Worker as W }; new W(file)', 'tools/check.mjs', `import { Worker as W } from "node:worker_threads";\n${ESM_HEAD}for (const name of names) new W(${ESM_FILE});\n`, 'tools/rules/a.js'],
  [
    'held: execFileSync(process.execPath, [file])',
    'tools/check.js',
    `${HEAD}const { execFileSync } = require("node:child_process");\nfor (const name of names) execFileSync(process.execPath, [${FILE}]);\n`,
    'tools/rules/a.js',
  ],
  ['control: require(path.join(__dirname, "rules", name))', 'tools/check.js', `${HEAD}for (const name of names) require(${FILE});\n`, 'tools/rules/a.js'],
];

for (const [title, program, main, module] of CASES)
  test(`hook runs node ${program}; ${title}; the call rewrites ${module}: git runs the user's code only`, async (t) => {
    const ws = project(t, {
      'src.txt': '1\n',
      'one.sh': `printf '%s\\n' '${JS}' > ${module}\n`,
      [program]: main,
      [module]: '\n',
      '.git/hooks/pre-commit': `#!/bin/sh\nexec node ${program}\n`,
    });
    t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's code");
  });
