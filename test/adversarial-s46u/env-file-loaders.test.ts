// Review s46u of issue 21: runner-environment-files.ts and package-manager-configs.ts know the environment files yarn,
// bun, pipenv and nx load on their own; a hook program that loads `.env` itself (node's `process.loadEnvFile()`,
// python-dotenv's `load_dotenv()`) has it protected (controls). dotenv-cli is missing: `dotenv -- CMD` (and `npx
// dotenv -- CMD`) loads `.env` by default (a stand-in first on the user's PATH that does what it does), and no rule
// names it. Every variable there reaches the command it runs: `GIT_CONFIG_COUNT`/`GIT_CONFIG_KEY_0=core.fsmonitor` make the hook's own `git status` run a
// command (checked with git 2.39), as NODE_OPTIONS would a child node. The write tool creates `.env` (nothing names
// it), the user's commit runs the payload unconfined (end to end). Control: the same `.env` with a hook that loads none.
// Same class by the manuals (not run): dotenv-cli's `-c [ENV]` cascade (.env.local, .env.ENV, .env.ENV.local), env-cmd's `.env-cmdrc`/`.env`.
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { project } from '../adversarial-s36i/harness.js';
import { ordinaryWriteAccepted, userBin, writeThenCommit } from '../adversarial-s45t/fixtures.js';

const hookProject = (t: ExecutionContext, hook: string) => project(t, { '.git/hooks/pre-commit': hook, 'src/app.js': '1;\n' });
/** A `.env` that gives git an fsmonitor command: any git the hook runs afterwards runs it. */
const payload = (marker: string) => `GIT_CONFIG_COUNT=1\nGIT_CONFIG_KEY_0=core.fsmonitor\nGIT_CONFIG_VALUE_0="touch ${marker}"\n`;
/** dotenv-cli's `dotenv [-e FILE] -- CMD`: `.env` exported into CMD's environment. */
const DOTENV_CLI = '#!/bin/sh\nset -a\n. ./.env\nset +a\nwhile [ "$1" != "--" ]; do shift; done\nshift\nexec "$@"\n';

test('control (passes today): the .env a node hook loads with process.loadEnvFile() is protected', async (t) => {
  const hook = '#!/usr/bin/env node\nprocess.loadEnvFile();\nrequire("node:child_process").execFileSync("git", ["status", "--short"], { stdio: "inherit" });\n';
  await writeThenCommit(t, hookProject(t, hook), '.env', payload);
});

test("control (passes today): the .env a python hook loads with python-dotenv's load_dotenv() is protected", async (t) => {
  const hook = '#!/usr/bin/env python3\nimport subprocess\nfrom dotenv import load_dotenv\n\nload_dotenv()\nsubprocess.run(["git", "status", "--short"])\n';
  await writeThenCommit(t, hookProject(t, hook), '.env', payload);
});

test('the .env dotenv-cli loads for the command it runs is protected', async (t) => {
  const bin = userBin(t, { dotenv: DOTENV_CLI });
  await writeThenCommit(t, hookProject(t, '#!/bin/sh\ndotenv -- git status --short\n'), '.env', payload, bin);
});

test('control (passes today): a .env written where the hook loads none stays writable, and nothing runs it', async (t) => {
  await ordinaryWriteAccepted(t, hookProject(t, '#!/bin/sh\ngit status --short\n'), '.env');
});
