// Review s41p of issue 21: a hook program that runs a workspace package's file it finds by the package's name, not by
// `require`: `require.resolve("@acme/utils/bin.js")` (CommonJS) and `import.meta.resolve("@acme/utils/bin.js")` (ESM)
// walk node_modules as `require` does and land, through the workspace link `node_modules/@acme/utils ->
// ../../packages/utils`, in `packages/utils/bin.js`, which the program then runs (`execFileSync(process.execPath,
// [file])`, `fork(file)`). zotbox reads a bare specifier through node_modules only as the argument of require/import
// (node-linked-packages.ts via packageSpecifierNames); a `require.resolve` literal counts only as a path from where the
// command runs and from the program's directory (program-relative-names.ts), where `@acme/utils/bin.js` is nothing.
// The write tool rewrites `packages/utils/bin.js`; the user's commit runs it.
import test from 'ava';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import type { ExecutionContext } from 'ava';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

async function attack(t: ExecutionContext, program: string, code: string): Promise<void> {
  const ws = project(t, {
    '.git/hooks/pre-commit': `#!/bin/sh\nexec node ${program}\n`,
    '.gitignore': 'node_modules/\n',
    'package.json': '{"name":"mono","private":true,"workspaces":["packages/*"]}\n',
    'packages/utils/package.json': '{"name":"@acme/utils","version":"1.0.0","main":"index.js"}\n',
    'packages/utils/index.js': 'module.exports = {};\n',
    'packages/utils/bin.js': 'console.log("checked");\n',
    [program]: code,
  });
  mkdirSync(path.join(ws, 'node_modules/@acme'), { recursive: true });
  symlinkSync('../../packages/utils', path.join(ws, 'node_modules/@acme/utils'));
  const marker = path.join(path.dirname(ws), 'PWNED');
  const target = code.includes('bin.js') ? 'packages/utils/bin.js' : 'packages/utils/index.js';
  t.log(await agentWrites(t, ws, target, `require("fs").writeFileSync(${JSON.stringify(marker)}, "agent code ran");\n`));
  try {
    git(ws, 'commit', '-q', '--allow-empty', '-m', 'user commit');
  } catch {
    // what the hook ran is what counts
  }
  t.false(existsSync(marker), "the agent-written workspace file ran in the user's pre-commit hook");
}

test('a workspace file a hook program finds with require.resolve is protected', async (t) => {
  await attack(t, 'tools/check.js', 'const { execFileSync } = require("node:child_process");\nexecFileSync(process.execPath, [require.resolve("@acme/utils/bin.js")], { stdio: "inherit" });\n');
});

test('a workspace file a hook program finds with import.meta.resolve is protected', async (t) => {
  await attack(
    t,
    'tools/check.mjs',
    'import { execFileSync } from "node:child_process";\nimport { fileURLToPath } from "node:url";\nexecFileSync(process.execPath, [fileURLToPath(import.meta.resolve("@acme/utils/bin.js"))], { stdio: "inherit" });\n',
  );
});

test('control (passes today): the same package required by name', async (t) => {
  await attack(t, 'tools/check.js', 'require("@acme/utils");\n');
});
