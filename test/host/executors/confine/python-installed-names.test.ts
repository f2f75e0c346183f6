// The names an interpreter finds on its own path (python-installed-names.ts), read by running the real python3 from
// the host's PATH, and fake interpreters for the closed world; the location a sys.path[0] stands for. Expected outcomes
// written out by hand.
import test from 'ava';
import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { installedNames, moduleEntriesLocation } from '../../../../src/host/executors/confine/python-installed-names.js';
import { moduleEntriesName } from '../../../../src/host/executors/confine/python-module-entries.js';
import { findControlLocation } from '../../../../src/policy/protected-files.js';
import { tempDir } from '../../../fixtures/temp.js';

const HOST = { PATH: process.env['PATH'] ?? '' };
const lookup = (writeRoots: readonly string[] = [], searchPath = HOST.PATH) => ({ searchPath, writeRoots, environment: HOST });

/** A directory holding an executable `name` with `body`. */
function fake(t: Parameters<typeof tempDir>[0], name: string, body: string): string {
  const directory = realpathSync(tempDir(t, 'zb-pyfake-'));
  writeFileSync(path.join(directory, name), body, { mode: 0o755 });
  return directory;
}

test("the host's python3 lists the standard library's and the installed packages' top-level names, requests' dependencies among them", (t) => {
  const found = installedNames('python3', lookup());
  if ('unreadable' in found) return t.fail(found.unreadable);
  for (const name of ['json', 'argparse', 'requests', 'urllib3', 'idna', 'certifi', 'typing_extensions']) t.true(found.names.has(name), name);
  t.false(found.names.has('shop'));
});

test('an interpreter that prints a listing: its names in lower case, its namespace packages apart', (t) => {
  const directory = fake(t, 'python9', '#!/bin/sh\necho \'{"names": ["Foo", "nsp"], "namespaces": ["nsp"], "entries": [], "finders": []}\'\n');
  const found = installedNames('python9', lookup([], directory));
  t.deepEqual('unreadable' in found ? found : { names: [...found.names], namespaces: [...found.namespaces] }, { names: ['foo', 'nsp'], namespaces: ['nsp'] });
});

test('closed world: an interpreter not found, named relative, failing, printing no listing or too slow is unreadable, never "nothing installed"', (t) => {
  t.regex((installedNames('python7', lookup([], '/nonexistent')) as { unreadable: string }).unreadable, /not found/u);
  t.regex((installedNames('.venv/bin/python', lookup()) as { unreadable: string }).unreadable, /relative/u);
  t.regex((installedNames('python9', lookup([], fake(t, 'python9', '#!/bin/sh\nexit 3\n'))) as { unreadable: string }).unreadable, /exit status 3/u);
  t.regex((installedNames('python9', lookup([], fake(t, 'python9', '#!/bin/sh\necho hello\n'))) as { unreadable: string }).unreadable, /no listing/u);
  const slow = fake(t, 'python9', '#!/bin/sh\nexec sleep 30\n');
  t.regex((installedNames('python9', { ...lookup([], slow), timeoutMs: 50 }) as { unreadable: string }).unreadable, /ETIMEDOUT/u);
});

test('an interpreter in the write scopes is never run', (t) => {
  const ws = realpathSync(tempDir(t, 'zb-pyws-'));
  const marker = path.join(ws, 'RAN');
  writeFileSync(path.join(ws, 'python3'), `#!/bin/sh\ntouch ${marker}\necho '{"names": [], "namespaces": [], "entries": [], "finders": []}'\n`, { mode: 0o755 });
  t.regex((installedNames('python3', lookup([ws], ws)) as { unreadable: string }).unreadable, /write scopes/u);
  t.regex((installedNames(path.join(ws, 'python3'), lookup([ws])) as { unreadable: string }).unreadable, /write scopes/u);
  t.false(existsSync(marker));
});

test("a sys.path[0]'s location protects its module entries: urllib3.py, urllib3/__init__.py, helpers.py, not shop/views.py or shop/forms.py", (t) => {
  const ws = realpathSync(tempDir(t, 'zb-pyloc-'));
  mkdirSync(path.join(ws, 'backend', 'shop'), { recursive: true });
  mkdirSync(path.join(ws, 'backend', 'json'), { recursive: true });
  writeFileSync(path.join(ws, 'backend', 'json', '__init__.py'), '');
  const found = moduleEntriesLocation(path.join(ws, 'backend', moduleEntriesName('.', 'python3')), 'named by a hook', lookup([ws]));
  if (found === undefined || 'unresolved' in found) return t.fail(JSON.stringify(found));
  const locations = [found.location];
  const protects = (relative: string) => findControlLocation(path.join(ws, 'backend', relative), locations) !== undefined;
  for (const name of ['urllib3.py', 'urllib3/__init__.py', 'URLLIB3.py', 'typing_extensions.py', 'argparse.py', 'gettext/__init__.py', 'json/decoder.py']) t.true(protects(name), name);
  // A directory of an installed regular package's name without __init__.py is a namespace portion, which loses to it.
  for (const name of ['shop/views.py', 'shop/forms.py', 'urllib3/util.py', 'urllib3.txt', 'my-notes.py']) t.false(protects(name), name);
  // Any importable name's module file or package __init__.py: installed code imports names not installed too (in a try).
  for (const name of ['helpers.py', 'manage.py', 'chardet.py', 'shop/__init__.py']) t.true(protects(name), name);
  t.is(findControlLocation(path.join(ws, 'urllib3.py'), locations), undefined);
});

test('the standard-library names are protected whatever the interpreter lists: gettext.py beside a python that lists nothing', (t) => {
  const ws = realpathSync(tempDir(t, 'zb-pystd-'));
  const bare = fake(t, 'python8', '#!/bin/sh\necho \'{"names": [], "namespaces": [], "entries": [], "finders": []}\'\n');
  const found = moduleEntriesLocation(path.join(ws, moduleEntriesName('.', 'python8')), 'named by a hook', lookup([ws], bare));
  if (found === undefined || 'unresolved' in found) return t.fail(JSON.stringify(found));
  for (const name of ['gettext.py', 'argparse.py', 'json/__init__.py']) t.not(findControlLocation(path.join(ws, name), [found.location]), undefined, name);
  // Any importable name's module is protected too; a submodule of an unnamed package is not.
  t.not(findControlLocation(path.join(ws, 'urllib3.py'), [found.location]), undefined);
  t.is(findControlLocation(path.join(ws, 'urllib3', 'util.py'), [found.location]), undefined);
});

test('an interpreter zotbox cannot read: the directory whole, or unresolved where it holds a write scope', (t) => {
  const ws = realpathSync(tempDir(t, 'zb-pyfallback-'));
  const away = moduleEntriesLocation(path.join(ws, 'backend', moduleEntriesName('.', 'python7')), 'named by a hook', lookup([ws], '/nonexistent'));
  t.deepEqual(away !== undefined && 'location' in away ? [away.location.path, away.location.tree, away.location.modules] : away, [path.join(ws, 'backend'), true, undefined]);
  const top = moduleEntriesLocation(path.join(ws, moduleEntriesName('.', 'python7')), 'named by a hook', lookup([ws], '/nonexistent'));
  t.regex(top !== undefined && 'unresolved' in top ? top.unresolved : '', /python7 is not found/u);
  t.is(moduleEntriesLocation(path.join(ws, 'urllib3.py'), 'x', lookup([ws])), undefined);
});

test('a regular package at a sys.path[0] is protected whole where its name is a standard-library or installed one, only its __init__.py otherwise', (t) => {
  const ws = realpathSync(tempDir(t, 'zb-pypkg-'));
  for (const name of ['json', 'urllib3', 'shop']) {
    mkdirSync(path.join(ws, name));
    writeFileSync(path.join(ws, name, '__init__.py'), '');
  }
  // An interpreter whose path holds urllib3 only (the standard-library names are known without it).
  const listing = fake(t, 'python9', '#!/bin/sh\necho \'{"names": ["urllib3"], "namespaces": [], "entries": [], "finders": []}\'\n');
  const found = moduleEntriesLocation(path.join(ws, moduleEntriesName('.', 'python9')), 'named by a hook', lookup([ws], listing));
  if (found === undefined || 'unresolved' in found) return t.fail(JSON.stringify(found));
  const protects = (relative: string) => findControlLocation(path.join(ws, relative), [found.location]) !== undefined;
  // json (standard library) and urllib3 (installed): their submodules are imported from here.
  for (const name of ['json/decoder.py', 'urllib3/util.py']) t.true(protects(name), name);
  // shop: the project's own package, imported by no name the interpreter knows: its modules stay the agent's.
  t.false(protects('shop/views.py'));
  t.true(protects('shop/__init__.py'));
});
