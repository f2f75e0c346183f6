// Review s88k: a user's node hook program (`exec node tools/check.js`) that loads or runs the files of a folder it
// lists (or a file its own config names), in spellings neither the tokens nor the raw shapes of node-computed-loads.ts
// show after s86i: node:module's `runMain(file)` (a loader by another name), a loader or `eval` reached by a key the
// program computes (`module[k]`, `globalThis[k]`), node:inspector's `Runtime.evaluate`, a `--require` handed on in
// NODE_OPTIONS to a child node whose command is written out, `module.paths` moved before a bare `require`, and a
// leading folder whose computed tail (a name from the project's package.json) climbs out of it. One CONFINED call (`sh
// one.sh`, real bubblewrap) rewrites what the program loads; the SAFE outcome is asserted by hand: the user's `git
// commit` never runs the agent's code.
import test from 'ava';
import { project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit } from '../adversarial-s64m/fixtures.js';

// The agent's module: writes PWNED where the hook runs (require is no global inside indirect eval or the inspector).
const JS = '(typeof require === "function" ? require : process.mainModule.require)("node:fs").writeFileSync("PWNED", "");';
const HEAD = 'const fs = require("node:fs");\nconst path = require("node:path");\nconst names = fs.readdirSync(path.join(__dirname, "rules")).filter((n) => n.endsWith(".js"));\n';
const FILE = 'path.join(__dirname, "rules", name)';
const SOURCE = `fs.readFileSync(${FILE}, "utf8")`;
const REWRITE = `printf '%s\\n' '${JS}' > tools/rules/a.js\n`;

// [title, the program tools/check.js, more files of the project, the agent's one.sh]
const CASES: readonly (readonly [string, string, Readonly<Record<string, string>>, string])[] = [
  ['require("node:module").runMain(file)', `${HEAD}const Module = require("node:module");\nfor (const name of names) Module.runMain(${FILE});\n`, {}, REWRITE],
  ['module[k](file), k computed', `${HEAD}const k = ["req", "uire"].join("");\nfor (const name of names) module[k](${FILE});\n`, {}, REWRITE],
  ['globalThis[k](source), k computed', `${HEAD}const k = "ev" + "al";\nfor (const name of names) globalThis[k](${SOURCE});\n`, {}, REWRITE],
  [
    'node:inspector Runtime.evaluate(source)',
    `${HEAD}const { Session } = require("node:inspector");\nconst session = new Session();\nsession.connect();\nfor (const name of names) session.post("Runtime.evaluate", { expression: ${SOURCE} });\n`,
    {},
    REWRITE,
  ],
  [
    'execSync("node tools/lint.js") with NODE_OPTIONS --require file',
    `${HEAD}const { execSync } = require("node:child_process");\nfor (const name of names) execSync("node tools/lint.js", { env: { ...process.env, NODE_OPTIONS: "--require " + ${FILE} } });\n`,
    { 'tools/lint.js': '\n' },
    REWRITE,
  ],
  [
    'module.paths.unshift(plugins folder); require("local-check")',
    'const path = require("node:path");\nmodule.paths.unshift(path.join(__dirname, "plugins"));\nrequire("local-check");\n',
    { 'tools/plugins/local-check.js': '\n' },
    `printf '%s\\n' '${JS}' > tools/plugins/local-check.js\n`,
  ],
  [
    'require("./checks/" + name), name from package.json, climbs out of checks/',
    'const fs = require("node:fs");\nconst config = JSON.parse(fs.readFileSync("package.json", "utf8"));\nfor (const name of config.checks) require("./checks/" + name);\n',
    { 'package.json': '{ "name": "p", "checks": ["lint"] }\n', 'tools/checks/lint.js': '\n' },
    `printf '%s\\n' '${JS}' > src/evil.js\nprintf '%s\\n' '{ "name": "p", "checks": ["../../src/evil"] }' > package.json\n`,
  ],
  ['control: require(path.join(__dirname, "rules", name))', `${HEAD}for (const name of names) require(${FILE});\n`, {}, REWRITE],
];

for (const [title, main, files, script] of CASES)
  test(`hook runs node tools/check.js; ${title}; one call rewrites what it loads: git runs the user's code only`, async (t) => {
    const ws = project(t, {
      'src.txt': '1\n',
      'src/keep.txt': '1\n',
      'one.sh': script,
      'tools/check.js': main,
      'tools/rules/a.js': '\n',
      ...files,
      '.git/hooks/pre-commit': '#!/bin/sh\nexec node tools/check.js\n',
    });
    t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's code");
  });
