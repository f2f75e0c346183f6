// The names a venv's interpreter in the write scopes imports, read from pyvenv.cfg's base interpreter (the host's real
// python3, run) and the venv's site-packages (python-venv-names.ts); every link that cannot be read keeps the workspace
// top unresolved. The venv is laid out by hand as `python3 -m venv` and pip leave it; expected outcomes written out by hand.
import test, { type ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { moduleEntriesLocation } from '../../../../src/host/executors/confine/python-installed-names.js';
import { moduleEntriesName } from '../../../../src/host/executors/confine/python-module-entries.js';
import { venvInstalledNames } from '../../../../src/host/executors/confine/python-venv-names.js';
import { findControlLocation } from '../../../../src/policy/protected-files.js';
import { tempDir } from '../../../fixtures/temp.js';

const HOST = { PATH: process.env['PATH'] ?? '' };
const lookup = (ws: string) => ({ searchPath: HOST.PATH, writeRoots: [ws], environment: HOST });
/** The host's python3 as pyvenv.cfg names it: its directory (`home`) and file (`executable`). */
const BASE = execFileSync('python3', ['-c', 'import os, sys; print(os.path.realpath(sys.executable))'], { encoding: 'utf8' }).trim();

/**
 * A workspace whose `.venv` has pyvenv.cfg `config` (default: the host's python3), a bin/python3 that leaves a marker
 * if it is ever run, and site-packages holding pre-commit as pip installs it (a dist-info naming pre_commit, yaml/,
 * cfgv.py, a compiled _cffi module) and the namespace package google/ (no __init__.py).
 */
function workspace(t: ExecutionContext, config = `home = ${path.dirname(BASE)}\nexecutable = ${BASE}\nversion = 3.11.7\n`): { ws: string; site: string; marker: string } {
  const ws = realpathSync(tempDir(t, 'zb-pyvenv-'));
  const marker = path.join(ws, 'RAN');
  const site = path.join(ws, '.venv/lib/python3.11/site-packages');
  const files: Record<string, string> = {
    '.venv/pyvenv.cfg': config,
    '.venv/lib/python3.11/site-packages/pre_commit/__init__.py': '',
    '.venv/lib/python3.11/site-packages/pre_commit-3.8.0.dist-info/top_level.txt': 'pre_commit\n',
    '.venv/lib/python3.11/site-packages/yaml/__init__.py': '',
    '.venv/lib/python3.11/site-packages/cfgv.py': '',
    '.venv/lib/python3.11/site-packages/_cffi_backend.cpython-311-x86_64-linux-gnu.so': '',
    '.venv/lib/python3.11/site-packages/google/protobuf/__init__.py': '',
  };
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    writeFileSync(path.join(ws, name), text);
  }
  mkdirSync(path.join(ws, '.venv/bin'));
  writeFileSync(path.join(ws, '.venv/bin/python3'), `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 });
  return { ws, site, marker };
}

/** The location the workspace top stands for when `word` runs `-m` there. */
const topLocation = (ws: string, word = path.join(ws, '.venv/bin/python3')) => moduleEntriesLocation(path.join(ws, moduleEntriesName('.', word)), 'named by a hook', lookup(ws));

test("a venv interpreter in the write scopes: its base interpreter's standard library and the venv's installed names, without running it", (t) => {
  const { ws, marker } = workspace(t);
  const found = venvInstalledNames(path.join(ws, '.venv/bin/python3'), ws, false, (base) => ({ names: new Set([`listed:${base}`]), namespaces: new Set(), entries: [], finders: [] }), [ws]);
  if ('unreadable' in found) return t.fail(found.unreadable);
  t.deepEqual([...found.names].sort(), [`listed:${BASE}`, '_cffi_backend', 'cfgv', 'google', 'pre_commit', 'yaml'].sort());
  t.deepEqual([...found.namespaces], ['google']);
  t.false(existsSync(marker));
});

test('the workspace top where the venv interpreter runs -m: its module entries protected, ordinary files not, nothing unresolved', (t) => {
  const { ws, marker } = workspace(t);
  mkdirSync(path.join(ws, 'yaml'));
  writeFileSync(path.join(ws, 'yaml/__init__.py'), '');
  const found = topLocation(ws);
  if (found === undefined || 'unresolved' in found) return t.fail(JSON.stringify(found));
  const protects = (relative: string) => findControlLocation(path.join(ws, relative), [found.location]) !== undefined;
  // pre_commit's own name and what it imports (installed), the standard library's (from the base), an installed namespace package whole.
  for (const name of ['pre_commit.py', 'yaml.py', 'cfgv.py', 'yaml/loader.py', 'argparse.py', 'json/__init__.py', 'google/protobuf.py', '_cffi_backend']) t.true(protects(name), name);
  for (const name of ['docs/notes.md', 'src/app.py', 'notes/x.py', 'README.md']) t.false(protects(name), name);
  t.false(existsSync(marker), "the venv's interpreter was run");
});

/** The workspace top is unresolved, naming `why`. */
function unresolvedTop(t: ExecutionContext, ws: string, why: RegExp, word?: string): void {
  const found = topLocation(ws, word);
  if (found === undefined || !('unresolved' in found)) return t.fail(JSON.stringify(found));
  t.regex(found.unresolved, why);
}

test('closed world: pyvenv.cfg missing, without a home, or naming a relative one keeps the workspace top unresolved', (t) => {
  const missing = workspace(t);
  execFileSync('rm', [path.join(missing.ws, '.venv/pyvenv.cfg')]);
  unresolvedTop(t, missing.ws, /no virtual environment's interpreter/u);
  unresolvedTop(t, workspace(t, 'include-system-site-packages = false\n').ws, /names no absolute home/u);
  unresolvedTop(t, workspace(t, 'home = bin\n').ws, /names no absolute home/u);
});

test('closed world: a home in the write scopes (as written, or where it resolves) is never run', (t) => {
  const inside = workspace(t, 'home = PLACEHOLDER\n');
  writeFileSync(path.join(inside.ws, '.venv/pyvenv.cfg'), `home = ${path.join(inside.ws, 'base')}\nexecutable = ${path.join(inside.ws, 'base/python3')}\n`);
  // The standard library is found from home: an executable outside it does not make home the user's.
  const elsewhere = workspace(t, 'home = PLACEHOLDER\n');
  writeFileSync(path.join(elsewhere.ws, '.venv/pyvenv.cfg'), `home = ${path.join(elsewhere.ws, 'base')}\nexecutable = ${BASE}\n`);
  unresolvedTop(t, elsewhere.ws, /home .* is in the write scopes/u);
  mkdirSync(path.join(inside.ws, 'base'));
  writeFileSync(path.join(inside.ws, 'base/python3'), `#!/bin/sh\ntouch ${inside.marker}\n`, { mode: 0o755 });
  unresolvedTop(t, inside.ws, /home .* is in the write scopes/u);
  const outside = realpathSync(tempDir(t, 'zb-pyvenv-link-'));
  const linked = workspace(t, 'home = PLACEHOLDER\n');
  mkdirSync(path.join(linked.ws, 'base'));
  symlinkSync(path.join(linked.ws, 'base'), path.join(outside, 'bin'));
  writeFileSync(path.join(linked.ws, '.venv/pyvenv.cfg'), `home = ${path.join(outside, 'bin')}\nversion = 3.11.7\n`);
  unresolvedTop(t, linked.ws, /is in the write scopes/u);
  t.false(existsSync(inside.marker));
});

test('closed world: a base interpreter that is not there, or lists nothing zotbox can read, keeps the workspace top unresolved', (t) => {
  unresolvedTop(t, workspace(t, `home = /nonexistent/bin\nversion = 3.11.7\n`).ws, /base interpreter .*python3\.11 is not found/u);
  const printer = realpathSync(tempDir(t, 'zb-pyvenv-base-'));
  writeFileSync(path.join(printer, 'python3'), '#!/bin/sh\necho hello\n', { mode: 0o755 });
  unresolvedTop(t, workspace(t, `home = ${printer}\n`).ws, /base interpreter .*no listing/u);
});

test('closed world: a path entry that cannot be listed, or a top_level.txt that cannot be read, keeps the workspace top unresolved', (t) => {
  const looped = workspace(t);
  symlinkSync('loop', path.join(looped.site, 'loop'));
  writeFileSync(path.join(looped.site, 'extra.pth'), 'loop\n');
  unresolvedTop(t, looped.ws, /loop cannot be listed \(ELOOP\)/u);
  const topLevel = workspace(t);
  mkdirSync(path.join(topLevel.site, 'cfgv-3.4.0.dist-info/top_level.txt'), { recursive: true });
  unresolvedTop(t, topLevel.ws, /top_level\.txt cannot be read \(EISDIR\)/u);
  // A dist-info without one (most wheels) lists nothing itself: its modules are listed where they are.
  const none = workspace(t);
  mkdirSync(path.join(none.site, 'identify-2.6.0.dist-info'));
  t.false('unresolved' in (topLocation(none.ws) ?? { unresolved: 'none' }));
});

test('closed world: a venv that includes the system site-packages, a bare name or a relative word of a script is not read', (t) => {
  unresolvedTop(t, workspace(t, `home = ${path.dirname(BASE)}\ninclude-system-site-packages = true\n`).ws, /includes its base interpreter's site-packages/u);
  const { ws } = workspace(t);
  t.regex((venvInstalledNames('python3', ws, false, () => ({ unreadable: 'x' }), [ws]) as { unreadable: string }).unreadable, /only one named by its path/u);
  t.regex((venvInstalledNames('.venv/bin/python3', ws, true, () => ({ unreadable: 'x' }), [ws]) as { unreadable: string }).unreadable, /only one named by its path/u);
  // Relative to where -m runs: the same venv read.
  const found = venvInstalledNames('.venv/bin/python3', ws, false, () => ({ names: new Set(), namespaces: new Set(), entries: [], finders: [] }), [ws]);
  t.true(!('unreadable' in found) && found.names.has('pre_commit'));
});

test("closed world: a venv interpreter that leads elsewhere in the write scopes, or to nothing, is not read as the venv's", (t) => {
  const elsewhere = workspace(t);
  mkdirSync(path.join(elsewhere.ws, 'tools'));
  writeFileSync(path.join(elsewhere.ws, 'tools/python3'), '#!/bin/sh\n', { mode: 0o755 });
  execFileSync('rm', [path.join(elsewhere.ws, '.venv/bin/python3')]);
  symlinkSync('../../tools/python3', path.join(elsewhere.ws, '.venv/bin/python3'));
  unresolvedTop(t, elsewhere.ws, /leads to .*tools\/python3, in the write scopes outside the venv's bin/u);
  const dangling = workspace(t);
  execFileSync('rm', [path.join(dangling.ws, '.venv/bin/python3')]);
  symlinkSync('/nonexistent/python3', path.join(dangling.ws, '.venv/bin/python3'));
  unresolvedTop(t, dangling.ws, /leads to nothing zotbox can follow/u);
  // A link to the base interpreter outside the write scopes (as `python3 -m venv` makes it) is the venv's.
  const linked = workspace(t);
  execFileSync('rm', [path.join(linked.ws, '.venv/bin/python3')]);
  symlinkSync(BASE, path.join(linked.ws, '.venv/bin/python3'));
  t.false('unresolved' in (topLocation(linked.ws) ?? { unresolved: 'none' }));
});

test("a pyvenv.cfg without `executable` (Python 3.10 and before) names home's pythonX.Y by its version, or home's python3", (t) => {
  const minor = execFileSync('python3', ['-c', 'import sys; print("%d.%d" % sys.version_info[:2])'], { encoding: 'utf8' }).trim();
  for (const config of [`home = ${path.dirname(BASE)}\nversion = ${minor}.1\n`, `home = ${path.dirname(BASE)}/\n`]) {
    const { ws } = workspace(t, config);
    t.false('unresolved' in (topLocation(ws) ?? { unresolved: 'none' }), config);
  }
});
