// Review s45t of issue 21: program-command-values.ts follows a name in a process call to each literal the code gives
// it (a helper's parameter, a loop's list, a constant), and program-runner-words.ts leaves a command it cannot spell
// out to "the shell's reading" where no package runner is in play. A path the hook program builds from a constant
// directory and a file literal, the usual shape (`const SCRIPTS = "scripts"; execFileSync("sh", [path.join(SCRIPTS,
// "lint.sh")])`, a template `${SCRIPTS}/lint.sh`, python's `os.path.join(DIR, "lint.sh")` or f"{DIR}/lint.sh"), is
// neither spelled out nor unresolved: the directory word names an existing directory (not protected whole), the file
// literal is taken beside the program (`.git/hooks/lint.sh`), and `scripts/lint.sh` stays writable. The write tool
// rewrites it; the user's commit runs it (end to end). The same for `path.join(process.cwd(), "scripts", "lint.sh")`,
// pathlib's `ROOT / "scripts" / "lint.sh"`, and a process call's `cwd` option (`execFileSync("sh", ["lint.sh"], {cwd:
// "scripts"})`, `subprocess.run([...], cwd="scripts")`: the operand is read from the top, not from scripts/). Control: the same call with the path as one literal is refused.
// Fixed: constants are carried into the joins and the cwd option (program-path-joins.ts), a computed operand is
// unresolved (program-computed-operands.ts).
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { project } from '../adversarial-s36i/harness.js';
import { ordinaryWriteAccepted, writeThenCommit } from './fixtures.js';

const NODE = '#!/usr/bin/env node\nconst { execFileSync, execSync } = require("node:child_process");\nconst path = require("node:path");\nconst SCRIPTS = "scripts";\n';
const PYTHON = '#!/usr/bin/env python3\nimport os\nimport subprocess\n\nSCRIPTS = "scripts"\n';

const hookProject = (t: ExecutionContext, hook: string) => project(t, { '.git/hooks/pre-commit': hook, 'scripts/lint.sh': '#!/bin/sh\necho lint ok\n', 'src/app.js': '1;\n' });
const payload = (marker: string) => `#!/bin/sh\ntouch ${marker}\n`;

for (const [name, hook] of [
  ['node path.join', `${NODE}execFileSync("sh", [path.join(SCRIPTS, "lint.sh")], { stdio: "inherit" });\n`],
  ['node template', `${NODE}execSync(\`sh \${SCRIPTS}/lint.sh\`, { stdio: "inherit" });\n`],
  ['node concatenation', `${NODE}execSync("sh " + SCRIPTS + "/lint.sh", { stdio: "inherit" });\n`],
  ['python os.path.join', `${PYTHON}subprocess.run(["sh", os.path.join(SCRIPTS, "lint.sh")], check=True)\n`],
  ['python f-string', `${PYTHON}subprocess.run(["sh", f"{SCRIPTS}/lint.sh"], check=True)\n`],
  ['node path.join(process.cwd(), …)', `${NODE}execFileSync("sh", [path.join(process.cwd(), "scripts", "lint.sh")], { stdio: "inherit" });\n`],
  ['node cwd option', `${NODE}execFileSync("sh", ["lint.sh"], { cwd: "scripts", stdio: "inherit" });\n`],
  ['python pathlib', `${PYTHON}from pathlib import Path\n\nROOT = Path(__file__).resolve().parents[2]\nsubprocess.run(["sh", str(ROOT / "scripts" / "lint.sh")], check=True)\n`],
  ['python cwd option', `${PYTHON}subprocess.run(["sh", "lint.sh"], cwd="scripts", check=True)\n`],
] as const)
  test(`a script path a hook program joins from a constant directory is protected: ${name}`, async (t) => {
    await writeThenCommit(t, hookProject(t, hook), 'scripts/lint.sh', payload);
  });

test('control (passes today): the same call with the path as one literal', async (t) => {
  await writeThenCommit(t, hookProject(t, `${NODE}execFileSync("sh", ["scripts/lint.sh"], { stdio: "inherit" });\n`), 'scripts/lint.sh', payload);
});

test('control: an ordinary write is accepted', async (t) => {
  await ordinaryWriteAccepted(t, hookProject(t, `${NODE}execFileSync("sh", [path.join(SCRIPTS, "lint.sh")], { stdio: "inherit" });\n`));
});
