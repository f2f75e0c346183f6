// Review s43r of issue 21, OVER-DENIAL: now that `npx lint-staged` (and husky's PATH) is looked up in
// node_modules/.bin, lint-staged's own code is read as a hook program, and two of its lines refuse every writer
// (checked with lint-staged 15.5.2 from npm: `npx lint-staged` in a pre-commit hook, any write refused):
// lib/generateTasks.js:38 is a *comment* holding `*.js` in backquotes, read as a template literal, "a pattern the
// program runs"; lib/resolveTaskFn.js:156 is execa's computed cwd (`cwd: /^git(\.exe)?/i.test(cmd) ? topLevelDir :
// cwd`). The stand-in below holds those lines verbatim. Every npm project with husky + lint-staged (the default JS
// setup) cannot be worked on: the agent's write of `src/other.js`, named by no hook, is refused.
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { installedBin, monorepo, ordinaryWriteAccepted } from './fixtures.js';

const HEAD = '#!/usr/bin/env node\nconst { execa } = require("execa");\n';
/** lint-staged 15.5.2 lib/generateTasks.js lines 37-39 (inside micromatch's options), verbatim. */
const COMMENT =
  "const options = {\n  // If the pattern doesn't look like a path, enable `matchBase` to\n  // match against filenames in every directory. This makes `*.js`\n  // match both `test.js` and `subdirectory/test.js`.\n  matchBase: true,\n};\n";
/** lint-staged 15.5.2 lib/resolveTaskFn.js lines 154-158, verbatim. */
const EXECA =
  'const execaOptions = {\n  // Only use topLevelDir as CWD if we are using the git binary\n  // e.g `npm` should run tasks in the actual CWD\n  cwd: /^git(\\.exe)?/i.test(cmd) ? topLevelDir : cwd,\n  preferLocal: true,\n};\nexeca(cmd, args, execaOptions);\n';

async function overDenial(t: ExecutionContext, code: string): Promise<void> {
  const ws = monorepo(t, { '.git/hooks/pre-commit': '#!/bin/sh\nexec npx lint-staged\n', '.lintstagedrc.json': '{"*.js": "eslint --fix"}\n' });
  installedBin(ws, 'lint-staged', code);
  await ordinaryWriteAccepted(t, ws);
}

test("an ordinary write is accepted when a hook runs lint-staged: a comment holding `*.js` in lint-staged's code", async (t) => {
  await overDenial(t, `${HEAD}${COMMENT}`);
});

test("an ordinary write is accepted when a hook runs lint-staged: lint-staged's execa call with a computed cwd", async (t) => {
  await overDenial(t, `${HEAD}const cmd = "eslint", args = [], topLevelDir = process.cwd(), cwd = process.cwd();\n${EXECA}`);
});

test('control (passes today): a lint-staged without those lines', async (t) => {
  await overDenial(t, `${HEAD}execa("eslint", ["--fix"], { preferLocal: true });\n`);
});
