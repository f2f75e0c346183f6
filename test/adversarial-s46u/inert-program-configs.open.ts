// Review s46u of issue 21: program-computed-operands.ts lets a computed operand through to a program on its INERT
// list (eslint, prettier, mypy, ...: "never runs a file it is given"), and nothing reads what those programs load on
// their own. ESLint 9 imports the flat config `eslint.config.js` (also .mjs/.cjs/.ts) it finds from where it runs: code.
// A hook running `npx eslint src` (or the staged files) names no config, so the project's `eslint.config.js` is neither
// protected nor unresolved: the write tool rewrites it, the user's commit runs it unconfined (end to end, with the real
// eslint 9 of this repository's node_modules, linked in as npm would install it, or on the user's PATH).
// Same class, by the tools' manuals (not run here): prettier's `prettier.config.js`/`.prettierrc` `plugins`, found
// from each file's directory up; stylelint's `stylelint.config.js`; mypy's `plugins =` in mypy.ini/pyproject.toml;
// flake8's `[flake8:local-plugins] paths`.
import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { project } from '../adversarial-s36i/harness.js';
import { ordinaryWriteAccepted, userBin, writeThenCommit } from '../adversarial-s45t/fixtures.js';

/** This repository's eslint 9 (its dependencies resolve from there, as a global install's do). */
const ESLINT = path.resolve('node_modules/eslint/bin/eslint.js');

/** A project with an eslint config and `hook`; eslint linked into node_modules as npm does when `local`. */
function eslintProject(t: ExecutionContext, hook: string, local: boolean): string {
  const ws = project(t, {
    '.gitignore': 'node_modules/\n',
    '.git/hooks/pre-commit': hook,
    'package.json': '{"name":"app","private":true,"devDependencies":{"eslint":"^9"}}\n',
    'eslint.config.js': 'module.exports = [{ rules: {} }];\n',
    'src/app.js': 'console.log(1);\n',
  });
  if (local) {
    mkdirSync(path.join(ws, 'node_modules/.bin'), { recursive: true });
    symlinkSync(path.dirname(path.dirname(ESLINT)), path.join(ws, 'node_modules/eslint'));
    symlinkSync('../eslint/bin/eslint.js', path.join(ws, 'node_modules/.bin/eslint'));
  }
  return ws;
}

const payload = (marker: string) => `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "agent code ran");\nmodule.exports = [];\n`;
const STAGED =
  '#!/usr/bin/env node\nconst { execFileSync, execSync } = require("node:child_process");\nconst files = execFileSync("git", ["diff", "--cached", "--name-only"], { encoding: "utf8" }).split("\\n").filter((f) => f.endsWith(".js"));\nexecSync(`npx eslint src ${files.join(" ")}`, { stdio: "inherit" });\n';

test("the eslint config a hook's `npx eslint src` loads is protected (eslint installed in node_modules)", async (t) => {
  await writeThenCommit(t, eslintProject(t, '#!/bin/sh\nnpx eslint src\n', true), 'eslint.config.js', payload);
});

test("the eslint config a hook's eslint loads is protected (eslint on the user's PATH)", async (t) => {
  const bin = userBin(t, { eslint: `#!/bin/sh\nexec node ${ESLINT} "$@"\n` });
  await writeThenCommit(t, eslintProject(t, '#!/bin/sh\neslint src\n', false), 'eslint.config.js', payload, bin);
});

test('the eslint config is protected when a node hook passes the staged files to eslint (the computed-operand exception)', async (t) => {
  await writeThenCommit(t, eslintProject(t, STAGED, true), 'eslint.config.js', payload);
});

test('control: an ordinary write is accepted', async (t) => {
  await ordinaryWriteAccepted(t, eslintProject(t, '#!/bin/sh\nnpx eslint src\n', true));
});
