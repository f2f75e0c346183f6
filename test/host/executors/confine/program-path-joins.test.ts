// Paths a hook program builds (program-path-joins.ts, read by program-command-texts.ts): a constant directory carried
// into path.join/path.resolve/os.path.join/pathlib's `/`, the directory the program runs in or its own, and a cwd
// option followed to its constant, so the script they name is spelled out; and the closed world for the rest
// (program-computed-operands.ts): a computed operand refuses every writer unless its program never runs it.
// Expected outcomes written out by hand.
import test, { type ExecutionContext } from 'ava';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { programCommandTexts } from '../../../../src/host/executors/confine/program-command-texts.js';
import { computedOperandRun } from '../../../../src/host/executors/confine/program-computed-operands.js';
import { toolFileReferences } from '../../../../src/host/executors/confine/tool-file-references.js';
import { findControlLocation } from '../../../../src/policy/protected-files.js';
import { tempDir } from '../../../fixtures/temp.js';

const NODE = 'const { execFileSync, execSync } = require("node:child_process");\nconst path = require("node:path");\nconst SCRIPTS = "scripts";\n';
const PYTHON = 'import os\nimport subprocess\nfrom pathlib import Path\nSCRIPTS = "scripts"\n';

test('programCommandTexts: a constant carried into a path join is spelled out', (t) => {
  for (const [code, language, expected] of [
    [`${NODE}execFileSync("sh", [path.join(SCRIPTS, "lint.sh")]);\n`, 'node', "'sh' 'scripts/lint.sh'"],
    [`${NODE}execFileSync("sh", [path.resolve(SCRIPTS, "lint.sh")]);\n`, 'node', "'sh' 'scripts/lint.sh'"],
    [`${NODE}execFileSync("sh", [path.join(process.cwd(), "scripts", "lint.sh")]);\n`, 'node', "'sh' './scripts/lint.sh'"],
    [`${NODE}execSync("sh " + path.join(SCRIPTS, "lint.sh") + " --fix");\n`, 'node', 'sh scripts/lint.sh --fix'],
    [`${NODE}execSync(\`sh \${path.join(SCRIPTS, "lint.sh")}\`);\n`, 'node', 'sh scripts/lint.sh'],
    [`${PYTHON}subprocess.run(["sh", os.path.join(SCRIPTS, "lint.sh")])\n`, 'python', "'sh' 'scripts/lint.sh'"],
    [`${PYTHON}subprocess.run(["sh", os.path.join(SCRIPTS, "/abs/lint.sh")])\n`, 'python', "'sh' '/abs/lint.sh'"],
    [`${PYTHON}subprocess.run(["sh", str(Path(SCRIPTS) / "lint.sh")])\n`, 'python', "'sh' 'scripts/lint.sh'"],
    [`${PYTHON}subprocess.run(["sh", str(Path.cwd() / SCRIPTS / "lint.sh")])\n`, 'python', "'sh' './scripts/lint.sh'"],
  ] as const)
    t.deepEqual(
      programCommandTexts(code, language).map((run) => run.text),
      [expected],
      code,
    );
});

test("programCommandTexts: the program's own directory is where it lies, its parents counted; a hole where none is given", (t) => {
  const own = ['/ws/.git/hooks'];
  for (const [code, language, expected] of [
    [`${NODE}execFileSync("sh", [path.join(__dirname, "..", "..", "scripts", "lint.sh")]);\n`, 'node', "'sh' '/ws/.git/hooks/../../scripts/lint.sh'"],
    [`${PYTHON}ROOT = Path(__file__).resolve().parents[2]\nsubprocess.run(["sh", str(ROOT / "scripts" / "lint.sh")])\n`, 'python', "'sh' '/ws/.git/hooks/../../scripts/lint.sh'"],
    [`${PYTHON}subprocess.run(["sh", str(Path(__file__).parent.parent / "lint.sh")])\n`, 'python', "'sh' '/ws/.git/hooks/../lint.sh'"],
    [`${PYTHON}subprocess.run(["sh", os.path.join(os.path.dirname(__file__), "lint.sh")])\n`, 'python', "'sh' '/ws/.git/hooks/lint.sh'"],
    [`${NODE}execFileSync("sh", [fileURLToPath(new URL("./lint.sh", import.meta.url))]);\n`, 'node', "'sh' '/ws/.git/hooks/./lint.sh'"],
    [`${NODE}execFileSync("node", [require.resolve("../lint.js")]);\n`, 'node', "'node' '/ws/.git/hooks/../lint.js'"],
  ] as const) {
    t.deepEqual(
      programCommandTexts(code, language, own).map((run) => run.text),
      [expected],
      code,
    );
    // Without it, the own directory is a hole in the operand: sh may run any file.
    const [run] = programCommandTexts(code, language);
    const program = expected.split(' ')[0]!;
    t.true(run!.text.startsWith(`${program} "$(computed)"`), run!.text);
    t.is(run!.computedOperand, program.replace(/'/gu, ''), code);
  }
});

test("programCommandTexts: a cwd option's constant is where the operands are taken from; a computed one is a computed cd", (t) => {
  for (const [code, language, expected] of [
    [`${NODE}execFileSync("sh", ["lint.sh"], { cwd: SCRIPTS });\n`, 'node', [{ text: "'sh' 'lint.sh'", directory: 'scripts' }]],
    [`${NODE}execFileSync("sh", ["lint.sh"], { cwd: path.join(SCRIPTS, "ci") });\n`, 'node', [{ text: "'sh' 'lint.sh'", directory: 'scripts/ci' }]],
    [`${PYTHON}subprocess.run(["sh", "lint.sh"], cwd=SCRIPTS)\n`, 'python', [{ text: "'sh' 'lint.sh'", directory: 'scripts' }]],
    [`${NODE}execFileSync("sh", ["lint.sh"], { cwd: process.argv[2] });\n`, 'node', [{ text: `cd "$(computed)" && 'sh' 'lint.sh'` }]],
  ] as const)
    t.deepEqual(
      programCommandTexts(code, language).map(({ text, directory }) => ({ text, ...(directory === undefined ? {} : { directory }) })),
      [...expected],
      code,
    );
});

test('computedOperandRun: a computed operand is unresolved unless its literal program never runs what it is given', (t) => {
  for (const [text, expected] of [
    [`'sh' "$(computed)"`, 'sh'],
    [`node "$(computed)"/lint.js`, 'node'],
    [`'python3' "$(computed)"`, 'python3'],
    [`'python3' '-m' "$(computed)"`, 'python3'],
    [`npx acme-lint "$(computed)"`, 'npx'],
    [`git diff "$(computed)" && sh "$(computed)"`, 'sh'],
    // Behind an option that loads code, even an inert program's operand may run.
    [`npx eslint --config "$(computed)" src`, 'npx'],
    [`npx prettier --plugin="$(computed)" src`, 'npx'],
    // Inert programs, through npx/pnpm exec/python -m; the directory of a cd is the cd reading's.
    [`'git' 'diff' '--name-only' "$(computed)"`, undefined],
    [`'npx' 'prettier' '--check' "$(computed)"`, undefined],
    [`pnpm exec eslint "$(computed)"`, undefined],
    [`'python3' '-m' 'ruff' 'check' "$(computed)"`, undefined],
    [`cd "$(computed)" && git status`, undefined],
    // Where a computed cd leads, a relative operand is as computed.
    [`cd "$(computed)" && 'sh' 'lint.sh'`, 'sh'],
    [`cd "$(computed)" && npx prettier --check x.js`, undefined],
    // A computed program is the package-runner rule's, not this one's.
    [`"$(computed)" x`, undefined],
    ['sh scripts/lint.sh', undefined],
  ] as const)
    t.is(computedOperandRun(text), expected, text);
});

/** A workspace whose pre-commit hook is `hook` (a program), read as zotbox reads tool files. */
function hookWorkspace(t: ExecutionContext, hook: string) {
  const ws = tempDir(t, 'zb-joined-');
  for (const [name, content] of Object.entries({ '.git/hooks/pre-commit': hook, '.git/HEAD': 'ref: refs/heads/main\n', 'scripts/lint.sh': '#!/bin/sh\n', 'src/app.js': '1;\n' })) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    writeFileSync(path.join(ws, name), content);
  }
  chmodSync(path.join(ws, '.git/hooks/pre-commit'), 0o755);
  for (const name of ['.git/objects', '.git/refs']) mkdirSync(path.join(ws, name), { recursive: true });
  const found = toolFileReferences([], [ws], { environment: { PATH: process.env['PATH'] ?? '' }, hookDirectories: [{ directory: path.join(ws, '.git/hooks'), top: ws }] });
  return { unresolved: found.unresolved, protects: (relative: string) => findControlLocation(path.join(ws, relative), found.locations) !== undefined };
}

const NODE_HOOK = `#!/usr/bin/env node\n${NODE}`;
const PYTHON_HOOK = `#!/usr/bin/env python3\nimport sys\n${PYTHON}`;

for (const [name, hook] of [
  ['path.join', `${NODE_HOOK}execFileSync("sh", [path.join(SCRIPTS, "lint.sh")]);\n`],
  ['a cwd constant', `${NODE_HOOK}execFileSync("sh", ["lint.sh"], { cwd: SCRIPTS });\n`],
  ['__dirname', `${NODE_HOOK}execFileSync("sh", [path.join(__dirname, "..", "..", SCRIPTS, "lint.sh")]);\n`],
  ['pathlib parents', `${PYTHON_HOOK}ROOT = Path(__file__).resolve().parents[2]\nsubprocess.run(["sh", str(ROOT / "scripts" / "lint.sh")])\n`],
] as const)
  test(`a script path a hook program joins from constants is protected, nothing unresolved: ${name}`, (t) => {
    const { unresolved, protects } = hookWorkspace(t, hook);
    t.deepEqual(unresolved, []);
    t.true(protects('scripts/lint.sh'));
    t.false(protects('src/app.js'));
  });

for (const [name, hook] of [
  ['a directory from argv', `${NODE_HOOK}execFileSync("sh", [path.join(process.argv[2], "lint.sh")]);\n`],
  ['a template of an environment variable', `${NODE_HOOK}execSync(\`bash \${process.env.DIR}/lint.sh\`);\n`],
  ['python: a call zotbox cannot spell out', `${PYTHON_HOOK}subprocess.run(["sh", os.path.join(os.environ["DIR"], "lint.sh")])\n`],
] as const)
  test(`closed world: a script path a hook program builds from what zotbox cannot spell out refuses every writer: ${name}`, (t) => {
    const { unresolved } = hookWorkspace(t, hook);
    t.is(unresolved.length, 1, unresolved.join('\n'));
    t.true(unresolved[0]!.includes('pre-commit line'), unresolved[0]);
  });

// The s45t review's over-denial probes: staged files handed to linters and formatters refuse nothing.
for (const [name, hook] of [
  [
    'python: staged files to python -m ruff and npx prettier',
    `${PYTHON_HOOK}staged = subprocess.run(["git", "diff", "--cached", "--name-only"], capture_output=True, text=True).stdout.split()\npy = [f for f in staged if f.endswith(".py")]\nsubprocess.run([sys.executable, "-m", "ruff", "check", *py], check=True)\nfor f in staged:\n    subprocess.run(["npx", "prettier", "--check", f], check=True)\n`,
  ],
  [
    'node: staged files to npx eslint in a template',
    `${NODE_HOOK}const js = execSync("git diff --cached --name-only").toString().split("\\n").filter((f) => f.endsWith(".js"));\nexecSync(\`npx eslint \${js.join(" ")}\`, { stdio: "inherit" });\n`,
  ],
] as const)
  test(`over-denial: ${name} refuses nothing`, (t) => {
    const { unresolved, protects } = hookWorkspace(t, hook);
    t.deepEqual(unresolved, []);
    t.false(protects('src/app.js'));
  });
