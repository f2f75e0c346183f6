// Review s84g: a user's node hook program (`exec node tools/check.js`) that loads or runs files it names by a computed
// path, in spellings node-computed-loads.ts (after s80c/s82e) does not see: a load inside a template literal's `${…}`,
// an arrow parameter that shadows a name bound once to a literal, a regex literal holding a quote or `/*` that the
// literal/comment blanking reads as a string/comment, a renamed destructured Worker, `module.require.bind`, Module's
// `_compile`, an AsyncFunction constructor, `globalThis.eval`, `require/**/(x)`, an extensionless program run by
// `node tools/check` (no #! line), and a folder-rule load whose computed part the program reads from a data file the
// agent may write (`"./plugins/" + name`, name = "../../evil.js"). Each file name comes from a directory listing of
// tools/rules (or the data file); node 20 runs tools/rules/a.js. One CONFINED call (`sh one.sh`, real bubblewrap)
// rewrites tools/rules/a.js; the SAFE outcome is asserted by hand: the user's `git commit` never runs the agent's code.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit } from '../adversarial-s64m/fixtures.js';

// The agent's module: writes PWNED where the hook runs (require is no global inside indirect eval / Function code).
const JS = '(typeof require === "function" ? require : process.mainModule.require)("node:fs").writeFileSync("PWNED", "");';
const HEAD = 'const fs = require("node:fs");\nconst path = require("node:path");\nconst names = fs.readdirSync(path.join(__dirname, "rules")).filter((n) => n.endsWith(".js"));\n';
const EACH = (body: string) => `${HEAD}for (const name of names) {\n  ${body}\n}\n`;
const FILE = 'path.join(__dirname, "rules", name)';

// [title, the program's text, the program's name (run by `node NAME`)]
const CASES: readonly (readonly [string, string, string])[] = [
  ['a require inside a template literal ${…}', EACH('console.log(`rule ${require(path.join(__dirname, "rules", name)).id}`);'), 'tools/check.js'],
  [
    'an arrow parameter `file` shadows `const file = "./rules/base.js"`',
    `${HEAD}const file = "./rules/base.js";\nrequire(file);\nnames.map((n) => ${FILE.replace(', name)', ', n)')}).forEach((file) => require(file));\n`,
    'tools/check.js',
  ],
  ["a regex literal /'/ on the load's line", `${HEAD}const strip = (s) => s.replace(/'/g, ""); for (const name of names) require(path.join(__dirname, 'rules', strip(name)));\n`, 'tools/check.js'],
  [
    'a regex literal /\\s\\/*$/ opens a "comment" over Reflect.apply(require, …)',
    `${HEAD}const dir = path.join(__dirname, "rules").replace(/\\s\\/*$/, "");\nfor (const name of names) Reflect.apply(require, null, [path.join(dir, name)]);\n/** done */\n`,
    'tools/check.js',
  ],
  ['const { Worker: W } = require("node:worker_threads"); new W(file)', `${HEAD}const { Worker: W } = require("node:worker_threads");\nfor (const name of names) new W(${FILE});\n`, 'tools/check.js'],
  ['const load = module.require.bind(module); load("./rules/" + name)', `${HEAD}const load = module.require.bind(module);\nfor (const name of names) load("./rules/" + name);\n`, 'tools/check.js'],
  [
    'new (require("node:module"))(file)._compile(source, file)',
    EACH(`const file = ${FILE};\n  const M = require("node:module");\n  const m = new M(file, module);\n  m.paths = module.paths;\n  m._compile(fs.readFileSync(file, "utf8"), file);`),
    'tools/check.js',
  ],
  [
    'new AsyncFunction(fs.readFileSync(file))()',
    `${HEAD}const AsyncFunction = (async () => {}).constructor;\nfor (const name of names) new AsyncFunction(fs.readFileSync(${FILE}, "utf8"))();\n`,
    'tools/check.js',
  ],
  ['globalThis.eval(fs.readFileSync(file))', EACH(`globalThis.eval(fs.readFileSync(${FILE}, "utf8"));`), 'tools/check.js'],
  ['require/**/("./rules/" + name)', EACH('require/**/("./rules/" + name);'), 'tools/check.js'],
  ['extensionless tools/check (no #!), new (require("node:worker_threads").Worker)(file)', EACH(`new (require("node:worker_threads").Worker)(${FILE});`), 'tools/check'],
  ['extensionless tools/check (no #!), module.constructor._load(file)', EACH(`module.constructor._load(${FILE}, module);`), 'tools/check'],
  [
    'a class method parameter `file` shadows `const file = "./rules/base.js"`',
    `${HEAD}class Loader {\n  load(file) {\n    return require(file);\n  }\n}\nconst file = "./rules/base.js";\nrequire(file);\nfor (const name of names) new Loader().load(${FILE});\n`,
    'tools/check.js',
  ],
  ['let p = "./rules/base.js"; for (p of files) require(p)', `${HEAD}let p = "./rules/base.js";\nfor (p of names.map((n) => ${FILE.replace(', name)', ', n)')})) require(p);\n`, 'tools/check.js'],
  ['let p = "./rules/base.js"; p &&= file; require(p)', EACH('let p = "./rules/base.js";\n  p &&= ' + FILE + ';\n  require(p);'), 'tools/check.js'],
  [
    'const { fork: launch } = require("node:child_process"); launch(file)',
    `${HEAD}const { fork: launch } = require("node:child_process");\nfor (const name of names) launch(${FILE});\n`,
    'tools/check.js',
  ],
  ['require("node:module").register(pathToFileURL(file))', EACH(`require("node:module").register(require("node:url").pathToFileURL(${FILE}));`), 'tools/check.js'],
  ['control: require("./rules/" + name)', EACH('require("./rules/" + name);'), 'tools/check.js'],
];

for (const [title, main, program] of CASES)
  test(`hook runs node ${program}; ${title}; the call rewrites tools/rules/a.js: git runs the user's code only`, async (t) => {
    const ws = project(t, {
      'src.txt': '1\n',
      'one.sh': `printf '%s\\n' '${JS}' > tools/rules/a.js\n`,
      [program]: main,
      'tools/rules/a.js': '\n',
      'tools/rules/base.js': '\n',
      '.git/hooks/pre-commit': `#!/bin/sh\nexec node ${program}\n`,
    });
    t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's code");
  });

// The leading-folder rule: `"./plugins/" + name` protects tools/plugins whole, but name comes from a data file the
// program reads; the agent rewrites the data file to climb out of the folder and writes the module it names.
test('hook runs node tools/check.js; require("./plugins/" + name), names from tools/plugins.json; the call climbs out by the data file: git runs the user\'s code only', async (t) => {
  const ws = project(t, {
    'src.txt': '1\n',
    'one.sh': `printf '%s\\n' '["../../evil.js"]' > tools/plugins.json\nprintf '%s\\n' '${JS}' > evil.js\n`,
    'tools/check.js':
      'const fs = require("node:fs");\nconst path = require("node:path");\nconst names = JSON.parse(fs.readFileSync(path.join(__dirname, "plugins.json"), "utf8"));\nfor (const name of names) require("./plugins/" + name);\n',
    'tools/plugins.json': '["a.js"]\n',
    'tools/plugins/a.js': '\n',
    '.git/hooks/pre-commit': '#!/bin/sh\nexec node tools/check.js\n',
  });
  const ran = await agentThenUserCommit(t, ws);
  t.log(
    'tools/plugins.json now:',
    existsSync(path.join(ws, 'tools/plugins.json')) ? readFileSync(path.join(ws, 'tools/plugins.json'), 'utf8') : 'absent',
    '; evil.js:',
    existsSync(path.join(ws, 'evil.js')),
  );
  t.false(ran, "the user's git commit ran the agent's code");
});
