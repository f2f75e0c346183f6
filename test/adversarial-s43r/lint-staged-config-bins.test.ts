// Review s43r of issue 21: lint-staged's configuration (`.lintstagedrc*`, package.json's "lint-staged") is a tool file
// zotbox reads, but as words: its commands run with node_modules/.bin first on PATH (lint-staged calls execa with
// `preferLocal: true`), and a bare name there (`"*.js": "acme-lint"`, the usual shape: `"eslint --fix"`) is never
// looked up in node_modules/.bin as node-bin-runs.ts does for a husky hook. The write tool rewrites the workspace bin
// `packages/lint/bin/lint.js`; the user's commit (`npx lint-staged`) runs it. lint-staged is not installed here: a
// stand-in does what it does (each configured command, node_modules/.bin first on PATH). With the real lint-staged
// 15.5.2 every writer is refused today instead (lint-staged-program-over-denial), which hides this.
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { attack, installedBin, monorepo, nodePayload } from './fixtures.js';

const STAND_IN = `#!/usr/bin/env node
// Stand-in for lint-staged: each configured command, run with node_modules/.bin first on PATH (execa's preferLocal).
const { execSync } = require("child_process");
const fs = require("fs");
const path = require("path");
const config = fs.existsSync(".lintstagedrc.json") ? JSON.parse(fs.readFileSync(".lintstagedrc.json", "utf8")) : JSON.parse(fs.readFileSync("package.json", "utf8"))["lint-staged"];
const env = { ...process.env, PATH: path.resolve("node_modules/.bin") + ":" + process.env.PATH };
for (const commands of Object.values(config)) for (const command of [commands].flat()) execSync(command + " README.md", { env, stdio: "inherit" });
`;

async function lintStaged(t: ExecutionContext, files: Readonly<Record<string, string>>): Promise<void> {
  const ws = monorepo(t, { '.git/hooks/pre-commit': '#!/bin/sh\nexec npx lint-staged\n', ...files });
  installedBin(ws, 'lint-staged', STAND_IN);
  await attack(t, ws, 'packages/lint/bin/lint.js', nodePayload);
}

test("a workspace bin lint-staged's .lintstagedrc.json runs by name is protected", async (t) => {
  await lintStaged(t, { '.lintstagedrc.json': '{"*.md": "acme-lint"}\n' });
});

test('a workspace bin the "lint-staged" key of package.json runs by name is protected', async (t) => {
  await lintStaged(t, { 'package.json': '{"name":"mono","private":true,"workspaces":["packages/*"],"lint-staged":{"*.md":["acme-lint --fix"]}}\n' });
});

test('control (passes today): the bin named by its path in .lintstagedrc.json', async (t) => {
  await lintStaged(t, { '.lintstagedrc.json': '{"*.md": "node packages/lint/bin/lint.js"}\n' });
});
