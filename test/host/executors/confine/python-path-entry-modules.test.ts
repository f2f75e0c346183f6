// The module entries of an agent-writable directory on an interpreter's path (python-path-entry-modules.ts): entries
// laid out by hand in temp directories, the expected protection written out per path. The lookup order is Python's
// path finder's (a regular module or package anywhere wins over namespace portions; the first regular one wins).
import test from 'ava';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ImportableNamesExcept, unitedNames } from '../../../../src/host/executors/confine/python-entry-names.js';
import { pathEntryModuleLocations } from '../../../../src/host/executors/confine/python-path-entry-modules.js';
import { findControlLocation } from '../../../../src/policy/protected-files.js';
import { tempDir } from '../../../fixtures/temp.js';

/** Files (relative to the root) created empty; a path ending in / is a directory. */
function layout(root: string, files: readonly string[]): void {
  for (const file of files) {
    const full = path.join(root, file);
    if (file.endsWith('/')) mkdirSync(full, { recursive: true });
    else {
      mkdirSync(path.dirname(full), { recursive: true });
      writeFileSync(full, '');
    }
  }
}

/** An installed site-packages outside the workspace, the workspace's src/ after it on the path. */
function setUp(t: Parameters<typeof tempDir>[0], site: readonly string[], src: readonly string[]) {
  const outside = realpathSync(tempDir(t, 'zb-pyns-site-'));
  const ws = realpathSync(tempDir(t, 'zb-pyns-ws-'));
  layout(outside, site);
  layout(path.join(ws, 'src'), src);
  const locations = () => pathEntryModuleLocations([], [outside, path.join(ws, 'src')], [ws], 'named by a hook');
  return { ws, outside, protects: (relative: string) => findControlLocation(path.join(ws, relative), locations()) !== undefined, locations };
}

test('an agent-writable path entry: every importable name’s module file and package __init__.py is protected', (t) => {
  const { protects } = setUp(t, ['requests/__init__.py'], ['mypkg/__init__.py', 'mypkg/core.py']);
  for (const name of ['src/chardet.py', 'src/acme_speedups.py', 'src/mypkg/__init__.py', 'src/newpkg/__init__.py', 'src/Chardet.py']) t.true(protects(name), name);
  for (const name of ['src/README.md', 'src/my-tool.py', 'src/setup.cfg', 'src/notes.v2.py']) t.false(protects(name), name);
});

test('a namespace portion of a name no entry holds as a regular module is protected whole, new or existing', (t) => {
  const { protects } = setUp(t, ['requests/__init__.py', 'googleish/'], ['mypkg/__init__.py', 'oldportion/x.py']);
  for (const name of ['src/acme_colors/palette.py', 'src/acme_colors/deep/x.py', 'src/oldportion/x.py', 'src/oldportion/new.py', 'src/googleish/y.py']) t.true(protects(name), name);
});

test("the project's own regular package, which no other entry holds, keeps its modules writable", (t) => {
  const { protects } = setUp(t, ['requests/__init__.py'], ['mypkg/__init__.py', 'mypkg/core.py', 'mypkg/sub/__init__.py']);
  for (const name of ['src/mypkg/core.py', 'src/mypkg/new.py', 'src/mypkg/sub/helpers.py', 'src/mypkg/sub/__init__.py']) t.false(protects(name), name);
});

test('a regular package here shadowing a name a later entry holds is protected whole; a portion losing to a regular one elsewhere is not', (t) => {
  // The order: PYTHONPATH's entry (src/) first, then the standard library, then site-packages.
  const outside = realpathSync(tempDir(t, 'zb-pyns-site-'));
  const ws = realpathSync(tempDir(t, 'zb-pyns-ws-'));
  layout(outside, ['requests/__init__.py', 'yaml/__init__.py']);
  layout(path.join(ws, 'src'), ['requests/__init__.py', 'yaml/', 'json/__init__.py', 'email/']);
  const locations = pathEntryModuleLocations([path.join(ws, 'src')], [outside], [ws], 'named by a hook');
  const protects = (relative: string) => findControlLocation(path.join(ws, relative), locations) !== undefined;
  for (const name of ['src/requests/adapters.py', 'src/json/decoder.py']) t.true(protects(name), name);
  for (const name of ['src/yaml/x.py', 'src/email/x.py']) t.false(protects(name), name);
});

test('a name an earlier entry holds as a regular module is never imported from a later one: its portion stays writable', (t) => {
  const { protects } = setUp(t, ['requests/__init__.py', 'six.py'], ['requests/extra.py', 'six/x.py', 'json/x.py']);
  for (const name of ['src/requests/extra.py', 'src/six/x.py', 'src/json/x.py']) t.false(protects(name), name);
});

test('entries outside the write scopes and site-packages directories (protected whole) get no location', (t) => {
  const outside = realpathSync(tempDir(t, 'zb-pyns-site-'));
  const ws = realpathSync(tempDir(t, 'zb-pyns-ws-'));
  const site = path.join(ws, '.venv/lib/python3.12/site-packages');
  layout(ws, ['.venv/lib/python3.12/site-packages/', 'src/']);
  t.deepEqual(
    pathEntryModuleLocations([], [outside, site, path.join(ws, 'src')], [ws], 'r').map((location) => location.path),
    [path.join(ws, 'src')],
  );
});

test('the listing is afresh for an entry in the write scopes: a regular package made later is the project’s own', (t) => {
  const { ws, protects } = setUp(t, [], []);
  t.true(protects('src/later/x.py'));
  layout(path.join(ws, 'src'), ['later/__init__.py']);
  t.false(protects('src/later/x.py'));
});

test('a set of every importable name but some: membership, and a union with another keeps only what both leave out', (t) => {
  const all = new ImportableNamesExcept(['MyPkg', 'json']);
  t.true(all.has('chardet'));
  t.false(all.has('mypkg'));
  t.false(all.has('my-tool'));
  t.throws(() => [...all]);
  const united = unitedNames(all, new Set(['json']));
  t.true(united.has('json'));
  t.false(united.has('mypkg'));
  const both = unitedNames(all, new ImportableNamesExcept(['mypkg']));
  t.true(both.has('json'));
  t.false(both.has('mypkg'));
  t.deepEqual([...unitedNames(new Set(['a']), new Set(['b']))].sort(), ['a', 'b']);
});
