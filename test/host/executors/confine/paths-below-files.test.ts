// A protected path below a file is protected as the file on the way (paths-below-files.ts), and where a link on the way
// leads; installed Python code is protected but not read on (python-installed-files.ts). Real files and git; the
// expected paths are written out by hand.
import test, { type ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { scanGitMetadata } from '../../../../src/host/executors/confine/git-inventory.js';
import { protectedSetOf, readOnlyBinds, recordProtected, restoreProtected, type ProtectedSet } from '../../../../src/host/executors/confine/protected-locations.js';
import { installedPythonSite } from '../../../../src/host/executors/confine/python-installed-files.js';
import { tempDir } from '../../../fixtures/temp.js';

const GIT_ENV = { PATH: '/usr/bin:/bin', HOME: '/nonexistent', GIT_CONFIG_NOSYSTEM: '1' };

function repository(t: ExecutionContext, files: Readonly<Record<string, string>>): string {
  const ws = path.join(realpathSync(tempDir(t, 'zb-below-files-')), 'ws');
  mkdirSync(ws);
  execFileSync('git', ['init', '-q', ws], { env: GIT_ENV });
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    writeFileSync(path.join(ws, name), content);
  }
  return ws;
}

function setOf(ws: string): ProtectedSet {
  return protectedSetOf(scanGitMetadata([ws]), [ws], { home: '/nonexistent-home', noSystem: true, environment: { HOME: '/nonexistent-home' } });
}

const relative = (ws: string, paths: readonly string[]) => paths.map((p) => path.relative(ws, p));

test('a hook that runs a path below a file: the file on the way is protected (no ENOTDIR), so it cannot become a directory', (t) => {
  const ws = repository(t, { '.git/hooks/pre-commit': '#!/bin/sh\nsh README.md/x\n', 'README.md': '# readme\n' });
  const set = setOf(ws);
  t.deepEqual(set.unresolved, []);
  t.deepEqual(set.toolUnresolved ?? [], []);
  t.true(relative(ws, set.paths).includes('README.md'));
  t.false(relative(ws, set.paths).includes('README.md/x'));
  t.true(relative(ws, readOnlyBinds(set, [ws])).includes('README.md'));
  // The agent replaces the file with a directory holding the path: reported and put back.
  const record = recordProtected(set, [ws]);
  rmSync(path.join(ws, 'README.md'));
  mkdirSync(path.join(ws, 'README.md'));
  writeFileSync(path.join(ws, 'README.md/x'), 'touch /tmp/pwned\n');
  const changes = restoreProtected(record, setOf(ws), [ws]);
  t.true(changes.some((change) => path.relative(ws, change.path) === 'README.md'));
});

test('a link on the way to a path below a file: the link and the file it leads to are both protected', (t) => {
  const ws = repository(t, { '.git/hooks/pre-commit': '#!/bin/sh\nsh docs/link.md/x\n', 'notes/real.md': 'notes\n' });
  mkdirSync(path.join(ws, 'docs'));
  symlinkSync('../notes/real.md', path.join(ws, 'docs/link.md'));
  const set = setOf(ws);
  t.deepEqual(set.unresolved, []);
  const paths = relative(ws, set.paths);
  t.true(paths.includes('docs/link.md'));
  t.true(paths.includes('notes/real.md'));
});

test('installedPythonSite: a file in a library site-packages or dist-packages; not a directory of that name elsewhere', (t) => {
  t.is(installedPythonSite('/ws/.venv/lib/python3.11/site-packages/_pytest/assertion/__init__.py'), '/ws/.venv/lib/python3.11/site-packages');
  t.is(installedPythonSite('/usr/lib/python3/dist-packages/yaml/__init__.py'), '/usr/lib/python3/dist-packages');
  t.is(installedPythonSite('/ws/.venv/lib64/python3.11/site-packages/x.py'), '/ws/.venv/lib64/python3.11/site-packages');
  t.is(installedPythonSite('/ws/src/site-packages/x.py'), undefined);
  t.is(installedPythonSite('/ws/.venv/lib/python3.11/site-packages'), undefined);
  t.is(installedPythonSite('/ws/tools/check.py'), undefined);
});

for (const granted of [false, true])
  test(`a hook program in a site-packages: ${granted ? 'one a write scope names is read on' : 'installed code, protected whole, is not read on'}`, (t) => {
    const site = '.venv/lib/python3.11/site-packages';
    const ws = repository(t, {
      '.git/hooks/pre-commit': `#!/bin/sh\npython3 ${site}/acme_tool.py\n`,
      '.venv/pyvenv.cfg': 'home = /usr/bin\n',
      [`${site}/acme_tool.py`]: 'import subprocess\nsubprocess.run(["sh", "tools/run.sh"])\n',
      'tools/run.sh': 'echo ok\n',
    });
    const roots = granted ? [ws, path.join(ws, site)] : [ws];
    const set = protectedSetOf(scanGitMetadata(roots), roots, { home: '/nonexistent-home', noSystem: true, environment: { HOME: '/nonexistent-home' } });
    // Granted, the script's own directory is writable too: what it imports there cannot be told (refused, as it should).
    if (!granted) t.deepEqual(set.toolUnresolved ?? [], []);
    t.is(relative(ws, set.paths).includes('tools/run.sh'), granted);
  });
