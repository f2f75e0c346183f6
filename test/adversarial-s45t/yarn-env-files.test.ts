// Review s45t of issue 21: Yarn 4 reads environment files into the environment of every script and bin it runs
// (`injectEnvironmentFiles`, default `[".env.yarn?"]`: `.env.yarn` at the project top, when there). NODE_OPTIONS there
// reaches the linter's node. package-manager-configs.ts protects yarn's `.yarnrc`/`.npmrc`/`.corepack.env` and
// yarn-pnp-files.ts the `.yarnrc.yml` chain, but neither `.env.yarn` nor a file `.yarnrc.yml`'s own
// `injectEnvironmentFiles` names (`.env`, the usual choice): the write tool leaves one line, the user's commit runs it
// (checked by hand with yarn 4.5.3 from npm's `@yarnpkg/cli-dist`, PnP and a workspace bin: `yarn acme-lint` and
// `yarn lint` both ran the `--import=data:` payload and a `--require` one). yarn is not installed here: the repro's
// yarn stand-in does what yarn 4 does for this (reads the files, runs the bin with their variables). Controls: the bin
// and `.yarnrc.yml` are refused; an ordinary write is accepted.
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { monorepo } from '../adversarial-s43r/fixtures.js';
import { nodeOptionsPayload, ordinaryWriteAccepted, userBin, writeThenCommit } from './fixtures.js';

/** yarn 4 for `yarn NAME` in a node-modules project: the injectEnvironmentFiles (default `.env.yarn?`) into the bin's env. */
const YARN = `#!/usr/bin/env node
const fs = require("fs"), cp = require("child_process"), path = require("path");
const rc = fs.existsSync(".yarnrc.yml") ? fs.readFileSync(".yarnrc.yml", "utf8") : "";
const listed = [...rc.matchAll(/^\\s*-\\s*(\\S+)\\s*$/gmu)].map((m) => m[1]);
const env = { ...process.env };
for (const file of rc.includes("injectEnvironmentFiles") ? listed : [".env.yarn?"]) {
  const name = file.replace(/\\?$/u, "");
  if (!fs.existsSync(name)) continue;
  for (const line of fs.readFileSync(name, "utf8").split("\\n")) {
    const m = /^([A-Za-z_]\\w*)=(.*)$/u.exec(line);
    if (m) env[m[1]] = m[2];
  }
}
const r = cp.spawnSync(path.resolve("node_modules/.bin", process.argv[2]), process.argv.slice(3), { stdio: "inherit", env });
process.exit(r.status ?? 1);
`;

const HOOK = '#!/bin/sh\nexec yarn acme-lint\n';
const yarnProject = (t: ExecutionContext, rc = 'nodeLinker: node-modules\n') => monorepo(t, { '.git/hooks/pre-commit': HOOK, '.yarnrc.yml': rc, 'yarn.lock': '' });

test('yarn 4 .env.yarn (injectEnvironmentFiles default) is protected where a hook runs yarn', async (t) => {
  await writeThenCommit(t, yarnProject(t), '.env.yarn', (marker) => `NODE_OPTIONS=${nodeOptionsPayload(marker)}\n`, userBin(t, { yarn: YARN }));
});

test("a file .yarnrc.yml's injectEnvironmentFiles names (.env) is protected where a hook runs yarn", async (t) => {
  const ws = yarnProject(t, 'nodeLinker: node-modules\ninjectEnvironmentFiles:\n  - .env\n');
  await writeThenCommit(t, ws, '.env', (marker) => `NODE_OPTIONS=${nodeOptionsPayload(marker)}\n`, userBin(t, { yarn: YARN }));
});

test('control (passes today): the workspace bin yarn runs is refused', async (t) => {
  const bin = userBin(t, { yarn: YARN });
  await writeThenCommit(t, yarnProject(t), 'packages/lint/bin/lint.js', (marker) => `require("fs").writeFileSync(${JSON.stringify(marker)}, "x");\n`, bin);
});

test('control (passes today): .yarnrc.yml is refused where a hook runs yarn', async (t) => {
  const ws = yarnProject(t);
  await writeThenCommit(t, ws, '.yarnrc.yml', () => 'nodeLinker: node-modules\nyarnPath: tools/yarn.cjs\n', userBin(t, { yarn: YARN }));
});

test('control: an ordinary write is accepted where a hook runs yarn', async (t) => {
  await ordinaryWriteAccepted(t, yarnProject(t));
});
