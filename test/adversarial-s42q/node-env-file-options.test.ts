// Review s42q of issue 21: node reads NODE_OPTIONS from an env file and applies it to every node it starts
// (`--require`, `--import`; a `data:` URL is a whole program in one line). `node --env-file=.env` names the file and
// zotbox protects it (control), but node's built-in `process.loadEnvFile()` (node 20.12+, the replacement for
// `require("dotenv").config()`) reads `./.env` without naming it, and a hook program that loads it and then runs a
// tool (`execFileSync(process.execPath, ["tools/lint.js"])`, `execSync("npx eslint .")`) hands that NODE_OPTIONS to
// the child. A `.env` is the file an agent is most often asked to write, and untracked. The write tool writes `.env`;
// the user's commit runs it.
import test from 'ava';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ExecutionContext } from 'ava';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

async function attack(t: ExecutionContext, hook: string, check: string): Promise<void> {
  const ws = project(t, { '.git/hooks/pre-commit': hook, '.gitignore': '.env\n', 'tools/check.js': check, 'tools/lint.js': 'console.log("lint ok");\n' });
  const marker = path.join(path.dirname(ws), 'PWNED');
  const program = `import{writeFileSync}from"node:fs";writeFileSync(${JSON.stringify(marker)},"agent code ran")`.replace(/"/gu, '%22').replace(/ /gu, '%20');
  t.log(await agentWrites(t, ws, '.env', `NODE_OPTIONS='--import=data:text/javascript,${program}'\n`));
  try {
    git(ws, 'commit', '-q', '--allow-empty', '-m', 'user commit');
  } catch {
    // what the hook ran is what counts
  }
  t.false(existsSync(marker), "the agent-written .env's NODE_OPTIONS ran in the user's pre-commit hook");
}

const RUN_LINT = 'require("node:child_process").execFileSync(process.execPath, ["tools/lint.js"], { stdio: "inherit" });\n';

test('the .env a hook program loads with process.loadEnvFile() is protected', async (t) => {
  await attack(t, '#!/bin/sh\nexec node tools/check.js\n', `process.loadEnvFile();\n${RUN_LINT}`);
});

test('control (passes today): process.loadEnvFile(".env") names it', async (t) => {
  await attack(t, '#!/bin/sh\nexec node tools/check.js\n', `process.loadEnvFile(".env");\n${RUN_LINT}`);
});

test('control (passes today): node --env-file=.env names it', async (t) => {
  await attack(t, '#!/bin/sh\nexec node --env-file=.env tools/lint.js\n', 'console.log("checked");\n');
});
