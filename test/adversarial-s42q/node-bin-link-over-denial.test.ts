// Review s42q of issue 21, OVER-DENIAL: a hook that runs a bin through npx (or a husky hook's PATH) whose `.bin` link
// goes through a *linked* package directory — an npm/yarn workspace (`node_modules/.bin/acme-lint ->
// ../@acme/lint/bin/lint.js`, `node_modules/@acme/lint -> ../../packages/lint`), a package linked into a store (pnpm
// with symlinked executables, bun's isolated installs: `node_modules/lint-staged -> .pnpm/lint-staged@15/…`). After ANY
// write (here `src/app.js`, which no hook names) zotbox reports the untouched link as changed ("node_modules/X on the
// way to it is not a plain directory now (a link?)"), stops the run with ZB_CONFINEMENT_PROTECTED_FILE and "puts back"
// what nobody changed: the agent cannot do a second step. With the package a plain directory: no report (control).
// Fixed: the path is recorded where it lies (links-on-the-way.ts), each link on the way as the link it is.
import test from 'ava';
import { chmodSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ExecutionContext } from 'ava';
import { agentWrites, project } from '../adversarial-s36i/harness.js';

/** A project whose `node_modules/.bin/NAME` links to `../PACKAGE/BIN`; `node_modules/PACKAGE` a link to `linkedFrom` or, undefined, the package itself. */
function withBin(t: ExecutionContext, hook: string, name: string, pkg: string, bin: string, linkedFrom: string | undefined): string {
  const home = linkedFrom ?? `node_modules/${pkg}`;
  const ws = project(t, {
    '.git/hooks/pre-commit': hook,
    '.gitignore': 'node_modules/\n',
    'package.json': '{"name":"mono","private":true,"workspaces":["packages/*"]}\n',
    'src/keep.txt': '\n',
    ...(home.startsWith('packages/')
      ? { [`${home}/package.json`]: `{"name":"${pkg}","version":"1.0.0","bin":{"${name}":"${bin}"}}\n`, [`${home}/${bin}`]: '#!/usr/bin/env node\nconsole.log("ok");\n' }
      : {}),
  });
  if (!home.startsWith('packages/')) {
    mkdirSync(path.join(ws, home, path.dirname(bin)), { recursive: true });
    writeFileSync(path.join(ws, home, 'package.json'), `{"name":"${pkg}","version":"1.0.0","bin":{"${name}":"${bin}"}}\n`);
    writeFileSync(path.join(ws, home, bin), '#!/usr/bin/env node\nconsole.log("ok");\n');
  }
  chmodSync(path.join(ws, home, bin), 0o755);
  mkdirSync(path.join(ws, 'node_modules/.bin'), { recursive: true });
  mkdirSync(path.dirname(path.join(ws, 'node_modules', pkg)), { recursive: true });
  if (linkedFrom !== undefined) symlinkSync(path.relative(path.dirname(path.join(ws, 'node_modules', pkg)), path.join(ws, linkedFrom)), path.join(ws, 'node_modules', pkg));
  symlinkSync(`../${pkg}/${bin}`, path.join(ws, 'node_modules/.bin', name));
  return ws;
}

async function ordinaryWrite(t: ExecutionContext, ws: string): Promise<void> {
  const out = await agentWrites(t, ws, 'src/app.js', 'x = 1\n');
  t.log(out);
  t.true(existsSync(path.join(ws, 'src', 'app.js')), 'a write no hook names was refused');
  t.notRegex(out, /ZB_CONFINEMENT_PROTECTED_FILE/u, 'a write no hook names stopped the run as a change to a protected file');
}

test('a write no hook names is no change to an npm workspace bin a hook runs (npx acme-lint)', async (t) => {
  await ordinaryWrite(t, withBin(t, '#!/bin/sh\nexec npx acme-lint\n', 'acme-lint', '@acme/lint', 'bin/lint.js', 'packages/lint'));
});

test('a write no hook names is no change to an npm workspace bin a hook names by path (node_modules/.bin/acme-lint)', async (t) => {
  await ordinaryWrite(t, withBin(t, '#!/bin/sh\nexec node_modules/.bin/acme-lint\n', 'acme-lint', '@acme/lint', 'bin/lint.js', 'packages/lint'));
});

test('a write no hook names is no change to a store-linked bin a hook runs (npx lint-staged)', async (t) => {
  await ordinaryWrite(t, withBin(t, '#!/bin/sh\nexec npx lint-staged\n', 'lint-staged', 'lint-staged', 'bin/lint-staged.js', 'node_modules/.pnpm/lint-staged@15.2.0/node_modules/lint-staged'));
});

test('control: the package a plain directory (npx lint-staged)', async (t) => {
  await ordinaryWrite(t, withBin(t, '#!/bin/sh\nexec npx lint-staged\n', 'lint-staged', 'lint-staged', 'bin/lint-staged.js', undefined));
});
