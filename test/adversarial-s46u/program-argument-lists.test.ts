// Review s46u of issue 21: program-path-joins.ts spells out `path.join(SCRIPTS, "lint.sh")` where it stands in a
// process call or in a list the call is given whole (`const args = [...]; execFileSync("sh", args)`: protected,
// control), and program-computed-operands.ts refuses every writer where an operand stays computed. A list the hook
// builds step by step (`args.push(...)`, python's `cmd.append(...)`, `cmd += [...]`) or takes apart (`execFileSync(cmd[0],
// cmd.slice(1))`, `const [cmd, ...args] = [...]`) is read as nothing at all: the joined path is neither spelled out nor
// computed, so `scripts/lint.sh` stays writable and nothing is unresolved. The write tool rewrites it, the user's commit runs it (end to end).
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { project } from '../adversarial-s36i/harness.js';
import { ordinaryWriteAccepted, writeThenCommit } from '../adversarial-s45t/fixtures.js';

const NODE = '#!/usr/bin/env node\nconst { execFileSync, spawnSync } = require("node:child_process");\nconst path = require("node:path");\nconst SCRIPTS = "scripts";\n';
const PYTHON = '#!/usr/bin/env python3\nimport os\nimport subprocess\n\nSCRIPTS = "scripts"\n';

const hookProject = (t: ExecutionContext, hook: string) =>
  project(t, { '.git/hooks/pre-commit': hook, 'scripts/lint.sh': '#!/bin/sh\necho lint ok\n', 'tools/lint.sh': '#!/bin/sh\necho lint ok\n', 'src/app.js': '1;\n' });
const payload = (marker: string) => `#!/bin/sh\ntouch ${marker}\n`;

for (const [name, hook, target] of [
  ['node args.push', `${NODE}const args = [];\nargs.push(path.join(SCRIPTS, "lint.sh"));\nexecFileSync("sh", args, { stdio: "inherit" });\n`, 'scripts/lint.sh'],
  ['node cmd[0], cmd.slice(1)', `${NODE}const cmd = ["sh", path.join(SCRIPTS, "lint.sh")];\nexecFileSync(cmd[0], cmd.slice(1), { stdio: "inherit" });\n`, 'scripts/lint.sh'],
  ['node destructured list', `${NODE}const [cmd, ...args] = ["sh", path.join(SCRIPTS, "lint.sh")];\nspawnSync(cmd, args, { stdio: "inherit" });\n`, 'scripts/lint.sh'],
  ['python cmd.append', `${PYTHON}cmd = ["sh"]\ncmd.append(os.path.join(SCRIPTS, "lint.sh"))\nsubprocess.run(cmd, check=True)\n`, 'scripts/lint.sh'],
  ['python cmd +=', `${PYTHON}cmd = ["sh"]\ncmd += [os.path.join(SCRIPTS, "lint.sh")]\nsubprocess.run(cmd, check=True)\n`, 'scripts/lint.sh'],
] as const)
  test(`a joined script path put into a list the hook builds or takes apart is protected: ${name}`, async (t) => {
    await writeThenCommit(t, hookProject(t, hook), target, payload);
  });

test('control (passes today): the list given whole to the call', async (t) => {
  await writeThenCommit(t, hookProject(t, `${NODE}const args = [path.join(SCRIPTS, "lint.sh")];\nexecFileSync("sh", args, { stdio: "inherit" });\n`), 'scripts/lint.sh', payload);
});

test('control: an ordinary write is accepted', async (t) => {
  await ordinaryWriteAccepted(t, hookProject(t, `${NODE}const args = [];\nargs.push(path.join(SCRIPTS, "lint.sh"));\nexecFileSync("sh", args, { stdio: "inherit" });\n`));
});
