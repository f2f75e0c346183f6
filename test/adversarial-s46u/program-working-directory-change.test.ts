// Review s46u of issue 21: program-path-joins.ts reads a process call's `cwd` option (a literal or a constant written
// in the call) as where its operands are taken from. A hook program that moves itself instead (node's
// `process.chdir("scripts")`, python's `os.chdir("scripts")`, `from os import chdir`) or hands the call an options
// object held in a variable (`const opts = { cwd: "scripts" }; execFileSync("sh", ["lint.sh"], opts)`) runs
// `scripts/lint.sh`, but zotbox takes `lint.sh` from the top (or beside the hook) and nothing is unresolved: the write
// tool rewrites `scripts/lint.sh`, the user's commit runs it (end to end). Control: the cwd option written in the call.
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { project } from '../adversarial-s36i/harness.js';
import { ordinaryWriteAccepted, writeThenCommit } from '../adversarial-s45t/fixtures.js';

const NODE = '#!/usr/bin/env node\nconst { execFileSync } = require("node:child_process");\n';
const PYTHON = '#!/usr/bin/env python3\nimport os\nimport subprocess\n';

const hookProject = (t: ExecutionContext, hook: string) => project(t, { '.git/hooks/pre-commit': hook, 'scripts/lint.sh': '#!/bin/sh\necho lint ok\n', 'src/app.js': '1;\n' });
const payload = (marker: string) => `#!/bin/sh\ntouch ${marker}\n`;

for (const [name, hook] of [
  ['node process.chdir', `${NODE}process.chdir("scripts");\nexecFileSync("sh", ["lint.sh"], { stdio: "inherit" });\n`],
  ['node chdir taken from process', `${NODE}const { chdir } = process;\nchdir("scripts");\nexecFileSync("sh", ["lint.sh"], { stdio: "inherit" });\n`],
  ['node options object in a variable', `${NODE}const opts = { cwd: "scripts", stdio: "inherit" };\nexecFileSync("sh", ["lint.sh"], opts);\n`],
  ['python os.chdir', `${PYTHON}os.chdir("scripts")\nsubprocess.run(["sh", "lint.sh"], check=True)\n`],
  ['python from os import chdir', `${PYTHON}from os import chdir\n\nchdir("scripts")\nsubprocess.run(["sh", "lint.sh"], check=True)\n`],
] as const)
  test(`a script a hook program runs after moving its working directory is protected: ${name}`, async (t) => {
    await writeThenCommit(t, hookProject(t, hook), 'scripts/lint.sh', payload);
  });

test('control (passes today): the cwd option written in the call', async (t) => {
  await writeThenCommit(t, hookProject(t, `${NODE}execFileSync("sh", ["lint.sh"], { cwd: "scripts", stdio: "inherit" });\n`), 'scripts/lint.sh', payload);
});

test('control: an ordinary write is accepted', async (t) => {
  await ordinaryWriteAccepted(t, hookProject(t, `${NODE}process.chdir("scripts");\nexecFileSync("sh", ["lint.sh"], { stdio: "inherit" });\n`));
});
