// A program a hook runs that is a link (linked-programs.ts): read where it leads, every hop protected; its sys.path[0]
// where CPython takes it (the directory of the file the link leads to: checked with python3, `tools/check.py ->
// ../scripts/check.py` prints scripts/ as sys.path[0] and tools/check.py as __file__); $0 the link, as the shell has it.
// Expected outcomes written out by hand.
import test from 'ava';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { toolFileReferences } from '../../../../src/host/executors/confine/tool-file-references.js';
import { findControlLocation } from '../../../../src/policy/protected-files.js';
import { tempDir } from '../../../fixtures/temp.js';

const HOST = { PATH: process.env['PATH'] ?? '' };

/** A workspace with `files`, `links` (name -> what the link says), and a pre-commit hook running `hook`. */
function hooked(t: Parameters<typeof tempDir>[0], hook: string, files: Readonly<Record<string, string>>, links: Readonly<Record<string, string>>) {
  const ws = path.join(realpathSync(tempDir(t, 'zb-linked-')), 'ws');
  for (const [name, content] of Object.entries({ ...files, '.git/hooks/pre-commit': `#!/bin/sh\n${hook}\n` })) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    writeFileSync(path.join(ws, name), content);
  }
  for (const [name, target] of Object.entries(links)) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    symlinkSync(target, path.join(ws, name));
  }
  const found = toolFileReferences([], [ws], { environment: HOST, hookDirectories: [{ directory: path.join(ws, '.git/hooks'), top: ws }] });
  return { found, protects: (relative: string) => findControlLocation(path.join(ws, relative), found.locations) !== undefined };
}

test('a linked shell script is read where it leads, through every hop; $0 is the link, so dirname "$0" is where the link lies', (t) => {
  const { found, protects } = hooked(
    t,
    'exec sh tools/check.sh',
    { 'scripts/check.sh': 'sh scripts/run.sh\n. "$(dirname "$0")/lib.sh"\n', 'scripts/run.sh': 'echo run\n', 'docs/a.md': 'a\n' },
    { 'tools/check.sh': 'alias.sh', 'tools/alias.sh': '../scripts/check.sh' },
  );
  t.deepEqual(found.unresolved, []);
  // Every hop of the chain and the file at its end; what that file runs.
  for (const name of ['tools/check.sh', 'tools/alias.sh', 'scripts/check.sh', 'scripts/run.sh', 'tools/lib.sh']) t.true(protects(name), name);
  // Ordinary files stay the agent's; the sourced lib.sh is beside the link, not beside the target.
  for (const name of ['docs/a.md', 'docs/b.md', 'scripts/lib.sh']) t.false(protects(name), name);
});

test("a linked Python program: its imports and sys.path[0]'s module names where the link leads, an abspath(__file__) path beside the link", (t) => {
  const { found, protects } = hooked(
    t,
    'exec python3 tools/check.py',
    {
      'scripts/check.py': 'import os, sys\nsys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "plugins"))\nimport helper\n',
      'scripts/helper.py': 'X = 1\n',
      'tools/README': 'tools\n',
      'docs/a.md': 'a\n',
    },
    { 'tools/check.py': '../scripts/check.py' },
  );
  t.deepEqual(found.unresolved, []);
  // The link, its target, what the target imports from its sys.path[0] (scripts/), the standard-library and installed
  // names there; the directory abspath(__file__) names, beside the link (__file__ is the link).
  for (const name of ['tools/check.py', 'scripts/check.py', 'scripts/helper.py', 'scripts/json.py', 'scripts/urllib3/__init__.py', 'tools/plugins/x.py']) t.true(protects(name), name);
  // sys.path[0] is not beside the link: a json.py there is never imported; nor is a helper.py there.
  for (const name of ['tools/json.py', 'tools/helper.py', 'tools/urllib3.py', 'docs/b.md']) t.false(protects(name), name);
});

test('closed world: a linked program zotbox cannot follow (leading to nothing, a loop) is unresolved', (t) => {
  for (const links of [{ 'tools/check.sh': '../scripts/missing.sh' }, { 'tools/check.sh': 'other.sh', 'tools/other.sh': 'check.sh' }] as Record<string, string>[]) {
    const { found } = hooked(t, 'exec sh tools/check.sh', { 'docs/a.md': 'a\n' }, links);
    t.true(
      found.unresolved.some((why) => why.includes('tools/')),
      `${JSON.stringify(links)}: ${found.unresolved.join('; ')}`,
    );
  }
  // The sys.path[0] of a Python script that is such a link is not known either.
  const { found } = hooked(t, 'exec python3 tools/check.py', { 'docs/a.md': 'a\n' }, { 'tools/check.py': 'loop.py', 'tools/loop.py': 'check.py' });
  t.true(found.unresolved.length > 0);
});
