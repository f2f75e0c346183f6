// What a link in a protected place leads to is protected as the link (link-targets.ts): every hop of the chain, a
// directory whole, a target not made yet whole; a link zotbox cannot follow refuses every writer. Real files, real
// git; the expected paths are written out by hand.
import test, { type ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ZotboxError } from '../../../../src/errors.js';
import { scanGitMetadata } from '../../../../src/host/executors/confine/git-inventory.js';
import { currentControlLocations, protectedSetOf, readOnlyBinds, recordProtected, type ProtectedSet } from '../../../../src/host/executors/confine/protected-locations.js';
import { tempDir } from '../../../fixtures/temp.js';

const GIT_ENV = { PATH: '/usr/bin:/bin', HOME: '/nonexistent', GIT_CONFIG_NOSYSTEM: '1' };

/** top/ws is the agent's write scope (a git repository when asked), with the given files. */
function world(t: ExecutionContext, files: Readonly<Record<string, string>>, repository = true): { top: string; ws: string } {
  const top = realpathSync(tempDir(t, 'zb-link-targets-'));
  const ws = path.join(top, 'ws');
  mkdirSync(ws);
  if (repository) execFileSync('git', ['init', '-q', ws], { env: GIT_ENV });
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(top, name)), { recursive: true });
    writeFileSync(path.join(top, name), content);
  }
  return { top, ws };
}

function setOf(ws: string, top: string): ProtectedSet {
  return protectedSetOf(scanGitMetadata([ws]), [ws], { home: path.join(top, 'home'), noSystem: true, environment: { HOME: path.join(top, 'home') } });
}

/** The protected locations inside ws, relative, a tree with a trailing "/". */
function located(set: ProtectedSet, ws: string): string[] {
  return set.locations.map((l) => `${path.relative(ws, l.path)}${l.tree ? '/' : ''}`);
}

test('a hook linked through a chain of links: every link on the way and the file at its end are protected, bound read-only and recorded', (t) => {
  // Three links between the hook and the file: a protected link's own target is followed too, so only a chain this
  // long shows a hop that is not followed.
  const { top, ws } = world(t, { 'ws/b/real.sh': '#!/bin/sh\nexit 0\n' });
  symlinkSync('b/real.sh', path.join(ws, 'a-end'));
  symlinkSync('a-end', path.join(ws, 'a-middle'));
  symlinkSync('a-middle', path.join(ws, 'a-hook'));
  symlinkSync('../../a-hook', path.join(ws, '.git', 'hooks', 'pre-commit'));
  const set = setOf(ws, top);
  t.deepEqual(set.linkUnresolved, []);
  const paths = located(set, ws);
  t.true(paths.includes('a-hook'), paths.join(' '));
  t.true(paths.includes('a-middle'), paths.join(' '));
  t.true(paths.includes('a-end'), paths.join(' '));
  t.true(paths.includes('b/real.sh'), paths.join(' '));
  t.true(set.paths.includes(path.join(ws, 'a-hook')));
  t.true(set.paths.includes(path.join(ws, 'b', 'real.sh')));
  t.regex(set.reasons.get(path.join(ws, 'b', 'real.sh'))!, /where the link .*\.git\/hooks\/pre-commit leads/u);
  t.true(readOnlyBinds(set, [ws]).includes(path.join(ws, 'b', 'real.sh')));
  t.true(recordProtected(set, [ws]).entries.has(path.join(ws, 'b', 'real.sh')));
});

test('a tool directory that links to a directory: the directory is protected whole, and the links in it are followed', (t) => {
  const { top, ws } = world(t, { 'ws/tools/hooks/pre-commit': 'sh tools/check.sh\n', 'ws/lib/shared.sh': 'exit 0\n' });
  symlinkSync('tools/hooks', path.join(ws, '.husky'));
  symlinkSync('../../lib/shared.sh', path.join(ws, 'tools', 'hooks', 'pre-push'));
  const paths = located(setOf(ws, top), ws);
  t.true(paths.includes('tools/hooks/'), paths.join(' '));
  t.true(paths.includes('lib/shared.sh'), paths.join(' '));
});

test('a tool file linked to a file not made yet: that path is protected whole (whoever makes it, the tool runs it)', (t) => {
  const { top, ws } = world(t, {});
  symlinkSync('scripts/env.sh', path.join(ws, '.envrc'));
  const paths = located(setOf(ws, top), ws);
  t.true(paths.includes('scripts/env.sh/'), paths.join(' '));
});

test('a tool file above the write scope that links into it: the target in the scope is protected', (t) => {
  const { top, ws } = world(t, { 'ws/env.sh': 'export A=1\n' }, false);
  symlinkSync('ws/env.sh', path.join(top, '.envrc'));
  const set = protectedSetOf(scanGitMetadata([ws]), [ws], { home: '/nonexistent-home', noSystem: true, environment: { HOME: '/nonexistent-home' } });
  t.true(located(set, ws).includes('env.sh'), located(set, ws).join(' '));
});

test("a target a write scope names is the agent's: not protected", (t) => {
  const { top, ws } = world(t, { 'ws/scripts/env.sh': 'export A=1\n' });
  symlinkSync('scripts/env.sh', path.join(ws, '.envrc'));
  const granted = path.join(ws, 'scripts', 'env.sh');
  const set = protectedSetOf(scanGitMetadata([ws, granted]), [ws, granted], { home: path.join(top, 'home'), noSystem: true, environment: {} });
  t.false(located(set, ws).includes('scripts/env.sh'), located(set, ws).join(' '));
  // Named by no scope, it is protected (the same world otherwise).
  t.true(located(setOf(ws, top), ws).includes('scripts/env.sh'));
});

test('a hook link zotbox cannot follow (a loop) refuses every writer: commands, and the write and edit tools', (t) => {
  const { ws } = world(t, {});
  symlinkSync('loop-b', path.join(ws, 'loop-a'));
  symlinkSync('loop-a', path.join(ws, 'loop-b'));
  symlinkSync('../../loop-a', path.join(ws, '.git', 'hooks', 'pre-commit'));
  const set = setOf(ws, path.dirname(ws));
  t.is(set.linkUnresolved?.length, 1);
  t.regex(set.linkUnresolved![0]!, /\.git\/hooks\/pre-commit leads to .*loop-a, which zotbox cannot resolve/u);
  const error = t.throws(() => recordProtected(set, [ws]), { instanceOf: ZotboxError });
  t.is(error.code, 'ZB_CONFINEMENT_LINK_UNRESOLVED');
  const controls = currentControlLocations([ws], [], { home: '/nonexistent-home', noSystem: true, environment: {} });
  t.true('unavailable' in controls);
});

test('a link in a tool directory to the workspace top, or above it, protects nothing of the workspace and refuses nothing', (t) => {
  const { top, ws } = world(t, { 'ws/.vscode/settings.json': '{}\n', 'ws/src/a.ts': 'export {};\n' });
  symlinkSync('..', path.join(ws, '.vscode', 'top'));
  symlinkSync('../..', path.join(ws, '.vscode', 'above'));
  const set = setOf(ws, top);
  t.deepEqual(set.linkUnresolved, []);
  const paths = located(set, ws);
  t.false(
    paths.some((p) => p === '' || p === '/' || p.startsWith('src')),
    paths.join(' '),
  );
});
