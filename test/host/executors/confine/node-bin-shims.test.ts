// pnpm's shell shims in node_modules/.bin (node-bin-shims.ts), recognised only whole, in the shapes cmd-shim writes
// (pnpm's @zkochan/cmd-shim, old and new; npm's cmd-shim); then read by the hook readers (tool-file-references.ts):
// `$basedir` is the shim's own directory, what it runs is protected and read, its NODE_PATH followed. Expected
// outcomes written out by hand.
import test from 'ava';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { nodeBinShim } from '../../../../src/host/executors/confine/node-bin-shims.js';
import { toolFileReferences } from '../../../../src/host/executors/confine/tool-file-references.js';
import { findControlLocation } from '../../../../src/policy/protected-files.js';
import { tempDir } from '../../../fixtures/temp.js';

const BASEDIR = String.raw`basedir=$(dirname "$(echo "$0" | sed -e 's,\\,/,g')")`;
const OLD_CYGWIN = 'case `uname` in\n    *CYGWIN*) basedir=`cygpath -w "$basedir"`;;\nesac\n';
const NEW_CYGWIN = 'case `uname` in\n    *CYGWIN*|*MINGW*|*MSYS*)\n        if command -v cygpath > /dev/null 2>&1; then\n            basedir=`cygpath -w "$basedir"`\n        fi\n    ;;\nesac\n';
const nodePathBlock = (value: string) => `if [ -z "$NODE_PATH" ]; then\n  export NODE_PATH="${value}"\nelse\n  export NODE_PATH="${value}:$NODE_PATH"\nfi\n`;
const runNode = (target: string) => `if [ -x "$basedir/node" ]; then\n  exec "$basedir/node"  "$basedir/${target}" "$@"\nelse\n  exec node  "$basedir/${target}" "$@"\nfi\n`;

/** pnpm 8/9's shim (the old Cygwin line), with NODE_PATH. */
const pnpmShim = (nodePath: string, target: string, extra = '') => `#!/bin/sh\n${BASEDIR}\n\n${OLD_CYGWIN}\n${nodePathBlock(nodePath)}${extra}${runNode(target)}`;

const SHIM = '/ws/node_modules/.bin/acme-lint';

test('pnpm\'s shim is read with $basedir as $(dirname "$0"), the Cygwin block blanked, its NODE_PATH entries taken', (t) => {
  const shim = nodeBinShim(pnpmShim('/ws/node_modules/.pnpm/a/node_modules:/ws/node_modules/.pnpm/node_modules', '../@acme/lint/bin/lint.js'), SHIM);
  t.deepEqual(shim?.nodePath, ['/ws/node_modules/.pnpm/a/node_modules', '/ws/node_modules/.pnpm/node_modules']);
  const lines = shim!.script.split('\n');
  t.is(lines[1], 'basedir=$(dirname "$0")');
  t.deepEqual(lines.slice(3, 6), ['', '', '']);
  t.is(lines.at(-3), '  exec node  "$basedir/../@acme/lint/bin/lint.js" "$@"');
});

test("cmd-shim's newer shape (MINGW/MSYS block, PATH, a program's options, the target marker), no NODE_PATH", (t) => {
  const text = `#!/bin/sh\n${BASEDIR}\n\n${NEW_CYGWIN}\nexport PATH="/ws/node_modules/.bin:$PATH"\nif [ -x "$basedir/node" ]; then\n  exec "$basedir/node" --preserve-symlinks "$basedir/../pkg/cli.mjs" serve "$@"\nelse\n  exec node --preserve-symlinks "$basedir/../pkg/cli.mjs" serve "$@"\nfi\n# ../pkg/cli.mjs\n`;
  const shim = nodeBinShim(text, SHIM);
  t.not(shim, undefined);
  t.is(shim?.nodePath, undefined);
});

test("cmd-shim's shape for a target with no interpreter, and npm's (`else ` and a shebang variable)", (t) => {
  t.not(nodeBinShim(`#!/bin/sh\n${BASEDIR}\n\n${NEW_CYGWIN}\n"$basedir/../pkg/bin/tool"   "$@"\nexit $?\n`, SHIM), undefined);
  t.not(
    nodeBinShim(
      `#!/bin/sh\n${BASEDIR}\n\n${NEW_CYGWIN}\nif [ -x "$basedir/node" ]; then\n  exec NODE_ENV=production "$basedir/node"  "$basedir/../pkg/cli.js" "$@"\nelse \n  exec NODE_ENV=production node  "$basedir/../pkg/cli.js" "$@"\nfi\n`,
      SHIM,
    ),
    undefined,
  );
});

const notShims: readonly (readonly [string, string, string?])[] = [
  ['one computed line more', pnpmShim('/ws/node_modules/.pnpm/node_modules', '../x.js', 'target=$(cat "$basedir/target")\n')],
  ['a run line with a value the shim computes', pnpmShim('/ws/node_modules/.pnpm/node_modules', '../x.js', 'exec node "$target" "$@"\n')],
  ['$basedir assigned again', pnpmShim('/ws/node_modules/.pnpm/node_modules', '../x.js', 'basedir=/elsewhere\n')],
  ['a NODE_PATH the shim computes', pnpmShim('$(cat /ws/np)', '../x.js')],
  ['a target word with an expansion', pnpmShim('/ws/node_modules/.pnpm/node_modules', '$HOME/x.js')],
  ['no Cygwin block', `#!/bin/sh\n${BASEDIR}\n\n${runNode('../x.js')}`],
  ['another own-directory line', `#!/bin/sh\nbasedir=$(dirname "$(echo "$0" | sed -e 's,x,/,g')")\n\n${OLD_CYGWIN}\n${runNode('../x.js')}`],
  ['a shim run by a name holding a backslash', pnpmShim('/ws/node_modules/.pnpm/node_modules', '../x.js'), '/w\\s/node_modules/.bin/x'],
];
for (const [name, text, file] of notShims)
  test(`not read as a shim: ${name}`, (t) => {
    t.is(nodeBinShim(text, file ?? SHIM), undefined);
  });

/** A pnpm workspace whose pre-commit hook runs `npx acme-lint`, the shim in .bin (with `extra` lines), NODE_PATH at .pnpm/node_modules. */
function pnpmWorkspace(t: Parameters<typeof tempDir>[0], extra = '', hook = 'exec npx acme-lint', more?: (ws: string) => void) {
  const ws = path.join(realpathSync(tempDir(t, 'zb-shims-')), 'ws');
  const files = {
    '.git/hooks/pre-commit': `#!/bin/sh\n${hook}\n`,
    'packages/lint/package.json': '{"name":"@acme/lint","bin":{"acme-lint":"bin/lint.js"}}\n',
    'packages/lint/bin/lint.js': '#!/usr/bin/env node\nrequire("@acme/utils");\n',
    'packages/utils/package.json': '{"name":"@acme/utils"}\n',
    'packages/utils/index.js': 'module.exports = 1;\n',
    'node_modules/.bin/acme-lint': pnpmShim('@NP@', '../@acme/lint/bin/lint.js', extra),
  };
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    writeFileSync(path.join(ws, name), content.replaceAll('@NP@', `${ws}/node_modules/.pnpm/node_modules`));
  }
  // pnpm's hoisting: @acme/utils only at .pnpm/node_modules, which node reaches through the shim's NODE_PATH alone.
  mkdirSync(path.join(ws, 'node_modules/@acme'), { recursive: true });
  mkdirSync(path.join(ws, 'node_modules/.pnpm/node_modules/@acme'), { recursive: true });
  symlinkSync('../../packages/lint', path.join(ws, 'node_modules/@acme/lint'));
  symlinkSync('../../../../packages/utils', path.join(ws, 'node_modules/.pnpm/node_modules/@acme/utils'));
  more?.(ws);
  const found = toolFileReferences([], [ws], { environment: { PATH: process.env['PATH'] ?? '' }, hookDirectories: [{ directory: path.join(ws, '.git/hooks'), top: ws }] });
  return { found, protects: (relative: string) => findControlLocation(path.join(ws, relative), found.locations) !== undefined };
}

test('a hook running a bin through its pnpm shim protects the bin and .bin/node, and refuses nothing else', (t) => {
  const { found, protects } = pnpmWorkspace(t);
  t.deepEqual(found.unresolved, []);
  t.true(protects('packages/lint/bin/lint.js'));
  t.true(protects('node_modules/.bin/node'));
  t.false(protects('src/app.js'));
});

test("what the bin requires through the shim's NODE_PATH (a workspace package pnpm hoisted) is protected", (t) => {
  const { protects } = pnpmWorkspace(t);
  t.true(protects('packages/utils/index.js'));
});

test('a shim with one computed line more is unresolved', (t) => {
  const { found } = pnpmWorkspace(t, 'basedir=$(cat "$basedir/where")\n');
  t.true(found.unresolved.some((line) => line.includes('node_modules/.bin/acme-lint')));
});

test("a bin the hook also runs without the shim is read again with the shim's NODE_PATH", (t) => {
  const { protects } = pnpmWorkspace(t, '', 'node node_modules/@acme/lint/bin/lint.js || exit 1\nexec npx acme-lint');
  t.true(protects('packages/utils/index.js'));
});

test('a bin another shim runs without NODE_PATH is read again when a shim runs it with NODE_PATH', (t) => {
  // A shim of the newer shape (no NODE_PATH) runs the same file first; the pnpm shim's run of it, with NODE_PATH, must
  // be read too: only through that NODE_PATH does its require reach the workspace package.
  const plainShim = `#!/bin/sh\n${BASEDIR}\n\n${NEW_CYGWIN}\nif [ -x "$basedir/node" ]; then\n  exec "$basedir/node"  "$basedir/../@acme/lint/bin/lint.js" "$@"\nelse\n  exec node  "$basedir/../@acme/lint/bin/lint.js" "$@"\nfi\n`;
  const plainFirst = (ws: string) => writeFileSync(path.join(ws, 'node_modules/.bin/acme-lint-plain'), plainShim);
  const { protects } = pnpmWorkspace(t, '', 'npx acme-lint-plain || exit 1\nexec npx acme-lint', plainFirst);
  t.true(protects('packages/utils/index.js'));
});
