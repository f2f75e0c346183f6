// Review s46k of issue 21: Nx loads, for each task it runs, the environment files named after its target and
// configuration (`.env.lint`, `.env.lint.ci`, `.lint.env`, `.env.ci` ...) in the project's root and the workspace
// root, and NODE_OPTIONS there runs in every node the task starts. Only `.env`, `.local.env` and `.env.local` in the
// directories the hook runs in (and above) were protected. The write tool rewrites `apps/web/.env.lint`; the user's
// commit runs the hook, whose nx (a stand-in that loads the files as Nx does and starts node) runs the payload.
// Fixed: nx-targets.ts (the tasks a command runs, a computed one unresolved) and nx-project-roots.ts.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { project } from '../adversarial-s36i/harness.js';
import { attack, ordinaryWriteAccepted } from '../adversarial-s43r/fixtures.js';

/** A stand-in for nx: for `nx run PROJECT:TARGET[:CONFIG]` it loads apps/PROJECT's env files as Nx names them, then starts node. */
// The stand-in keeps the files' values in a Map: a member written by a key the program computes (`env[name] = value`)
// refuses every writer since review s94q (docs/security.md), and this file is the workspace's, read as a hook program.
const NX_BIN = `#!/usr/bin/env node
const fs = require("fs"), path = require("path"), { execFileSync } = require("child_process");
const [project, target, config] = process.argv[3].split(":");
const names = [...(config ? [".env." + target + "." + config, ".env." + config] : []), ".env." + target, ".env"];
const found = new Map(Object.entries(process.env));
for (const dir of [path.join("apps", project), "."])
  for (const name of names) {
    let text = "";
    try { text = fs.readFileSync(path.join(dir, name), "utf8"); } catch {}
    for (const line of text.split("\\n")) { const m = /^(\\w+)=(.*)$/.exec(line); if (m && !found.has(m[1])) found.set(m[1], m[2]); }
  }
execFileSync(process.execPath, ["-e", ""], { env: Object.fromEntries(found), stdio: "inherit" });
`;

function nxProject(t: Parameters<typeof project>[0], hook: string): string {
  const ws = project(t, {
    '.gitignore': 'node_modules/\n',
    '.git/hooks/pre-commit': `#!/bin/sh\n${hook}\n`,
    'nx.json': '{}\n',
    'package.json': '{"name":"ws","private":true}\n',
    'apps/web/project.json': '{"name":"web","targets":{"lint":{"command":"true","configurations":{"ci":{}}}}}\n',
    'apps/web/.env.lint': 'LINT_LEVEL=warn\n',
    'apps/web/.env.lint.ci': 'LINT_LEVEL=error\n',
    'src/app.js': 'console.log(1);\n',
  });
  mkdirSync(path.join(ws, 'node_modules/.bin'), { recursive: true });
  writeFileSync(path.join(ws, 'node_modules/.bin/nx'), NX_BIN);
  chmodSync(path.join(ws, 'node_modules/.bin/nx'), 0o755);
  return ws;
}

/** An env file that makes every node the task starts leave the marker (NODE_OPTIONS --import of a data: URL). */
// (Single quotes: node reads double quotes in NODE_OPTIONS as its own quoting.)
const envPayload = (marker: string) => `NODE_OPTIONS=--import=data:text/javascript,import{writeFileSync}from'fs';writeFileSync('${marker}','x')\n`;

for (const [name, hook, target] of [
  ['nx run PROJECT:TARGET', 'npx nx run web:lint', 'apps/web/.env.lint'],
  ['nx run PROJECT:TARGET:CONFIG', 'npx nx run web:lint:ci', 'apps/web/.env.lint.ci'],
] as const)
  test(`the per-task env file nx loads in the project root is protected: ${name}`, async (t) => {
    await attack(t, nxProject(t, hook), target, envPayload);
  });

test('over-denial: with nx run web:lint in the hook, an ordinary write is accepted', async (t) => {
  await ordinaryWriteAccepted(t, nxProject(t, 'npx nx run web:lint'));
});
