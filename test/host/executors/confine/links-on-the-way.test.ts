// A protected path reached through a linked directory is recorded where it lies (links-on-the-way.ts): each link on
// the way as the link it is, and where the links lead. An npm workspace bin (`node_modules/.bin/acme-lint ->
// ../@acme/lint/bin/lint.sh`, `node_modules/@acme/lint -> ../../packages/lint`) left as it was is no change after a
// call; re-pointed, replaced by a directory, or moved away with its parent, it is reported, put back and the run
// stopped, confined or not. The user's own commit afterwards is the witness. Expected outcomes written out by hand.
import test, { type ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readlinkSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { scanGitMetadata } from '../../../../src/host/executors/confine/git-inventory.js';
import { placeDirectory } from '../../../../src/host/executors/confine/links-on-the-way.js';
import { protectedSetOf } from '../../../../src/host/executors/confine/protected-locations.js';
import type { SandboxLayout } from '../../../../src/host/executors/confine/sandbox-plan.js';
import { sandboxWorld, type SandboxWorld } from '../../../fixtures/sandbox-world.js';
import { tempDir } from '../../../fixtures/temp.js';

const USER_ENV = { GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'u', GIT_AUTHOR_EMAIL: 'u@x', GIT_COMMITTER_NAME: 'u', GIT_COMMITTER_EMAIL: 'u@x' };

test('placeDirectory follows each link where the kernel meets it: a chain, ".." after a link, an absolute target', (t) => {
  const root = realpathSync(tempDir(t, 'zb-place-'));
  for (const dir of ['packages/lint/bin', 'store/a', 'store/kept', 'nm/@acme']) mkdirSync(path.join(root, dir), { recursive: true });
  symlinkSync('../../packages/lint', path.join(root, 'nm/@acme/lint'));
  symlinkSync(path.join(root, 'store/a'), path.join(root, 'nm/abs'));
  symlinkSync('abs/../kept', path.join(root, 'nm/up')); // abs is store/a: its ".." is store, not nm
  symlinkSync('@acme/lint', path.join(root, 'nm/chain'));
  t.deepEqual(placeDirectory(path.join(root, 'nm/@acme/lint/bin')), { path: path.join(root, 'packages/lint/bin'), links: [path.join(root, 'nm/@acme/lint')] });
  t.deepEqual(placeDirectory(path.join(root, 'nm/chain/bin')), {
    path: path.join(root, 'packages/lint/bin'),
    links: [path.join(root, 'nm/chain'), path.join(root, 'nm/@acme/lint')],
  });
  t.deepEqual(placeDirectory(path.join(root, 'nm/up')), { path: path.join(root, 'store/kept'), links: [path.join(root, 'nm/up'), path.join(root, 'nm/abs')] });
  for (const dir of ['nm/@acme/lint/bin', 'nm/chain/bin', 'nm/up']) t.is(placeDirectory(path.join(root, dir))?.path, realpathSync.native(path.join(root, dir)), dir);
  // Plain directories: itself, no links; below a missing name, the plain names as written.
  t.deepEqual(placeDirectory(path.join(root, 'packages/lint/bin')), { path: path.join(root, 'packages/lint/bin'), links: [] });
  t.deepEqual(placeDirectory(path.join(root, 'nm/@acme/lint/new/deeper')), { path: path.join(root, 'packages/lint/new/deeper'), links: [path.join(root, 'nm/@acme/lint')] });
});

test('closed world: a way placeDirectory cannot follow (a loop, ".." below a missing name) is not placed', (t) => {
  const root = realpathSync(tempDir(t, 'zb-place-'));
  symlinkSync('loop-b', path.join(root, 'loop-a'));
  symlinkSync('loop-a', path.join(root, 'loop-b'));
  symlinkSync('missing/../elsewhere', path.join(root, 'odd'));
  t.is(placeDirectory(path.join(root, 'loop-a/x')), undefined);
  t.is(placeDirectory(path.join(root, 'odd/x')), undefined);
});

/** A repository whose pre-commit hook runs the workspace bin `acme-lint` by path, which touches `ran` when run. */
function workspaceBin(t: ExecutionContext, ran: string, hook = 'exec node_modules/.bin/acme-lint'): SandboxWorld {
  const world = sandboxWorld(t);
  const env = { PATH: '/usr/bin:/bin', HOME: world.root, ...USER_ENV };
  execFileSync('git', ['init', '-q', world.ws], { env });
  const files = {
    '.gitignore': 'node_modules/\n',
    'README.md': 'hello\n',
    'packages/lint/package.json': '{"name":"@acme/lint","version":"1.0.0","bin":{"acme-lint":"bin/lint.sh"}}\n',
    'packages/lint/bin/lint.sh': `#!/bin/sh\ntouch ${ran}\n`,
    '.git/hooks/pre-commit': `#!/bin/sh\n${hook}\n`,
  };
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(world.ws, name)), { recursive: true });
    writeFileSync(path.join(world.ws, name), content, { mode: name.endsWith('.sh') || name.includes('hooks/') ? 0o755 : 0o644 });
  }
  execFileSync('git', ['add', '.'], { cwd: world.ws, env });
  execFileSync('git', ['commit', '-qm', 'first', '--no-verify'], { cwd: world.ws, env });
  mkdirSync(path.join(world.ws, 'node_modules/.bin'), { recursive: true });
  mkdirSync(path.join(world.ws, 'node_modules/@acme'));
  symlinkSync('../../packages/lint', path.join(world.ws, 'node_modules/@acme/lint'));
  symlinkSync('../@acme/lint/bin/lint.sh', path.join(world.ws, 'node_modules/.bin/acme-lint'));
  return world;
}

function layoutOf(world: SandboxWorld): SandboxLayout {
  mkdirSync(path.join(world.root, 'user-home'), { recursive: true });
  return { ...world.layout, userGit: { home: path.join(world.root, 'user-home'), noSystem: true } };
}

/** The user's own commit, later, with their configuration and no zotbox environment: the hook runs the bin. */
function userCommit(world: SandboxWorld, name: string): void {
  writeFileSync(path.join(world.ws, name), `${name}\n`);
  const env = { PATH: '/usr/bin:/bin', HOME: path.join(world.root, 'user-home'), ...USER_ENV };
  execFileSync('git', ['add', name], { cwd: world.ws, env });
  execFileSync('git', ['commit', '-qm', name], { cwd: world.ws, env, stdio: 'ignore' });
}

test('the protected set holds the link on the way as a link and the bin where it lies, never the path through the link', (t) => {
  const world = workspaceBin(t, path.join(realpathSync(tempDir(t, 'zb-ran-')), 'LINT-RAN'));
  const set = protectedSetOf(scanGitMetadata([world.ws]), [world.ws], { home: path.join(world.root, 'user-home'), noSystem: true });
  const relative = (list: readonly string[]) => list.map((p) => path.relative(world.ws, p));
  for (const name of ['node_modules/@acme/lint', 'packages/lint/bin/lint.sh', 'node_modules/.bin/acme-lint']) t.true(relative(set.paths).includes(name), name);
  t.false(relative(set.paths).includes('node_modules/@acme/lint/bin/lint.sh'));
  t.true(set.locations.some((l) => l.path === path.join(world.ws, 'node_modules/@acme/lint') && l.asLink === true && !l.tree));
});

const changes = [
  { name: 're-pointed with ln -sfn', command: 'ln -sfn ../../evil node_modules/@acme/lint' },
  { name: 're-pointed with mv -T', command: 'ln -s ../../evil next && mv -T next node_modules/@acme/lint' },
  { name: 'replaced by a directory holding the bin', command: 'rm node_modules/@acme/lint && cp -r evil node_modules/@acme/lint' },
  { name: 'its parent renamed and made anew', command: 'mv node_modules/@acme node_modules/@old && mkdir node_modules/@acme && cp -r evil node_modules/@acme/lint' },
] as const;

for (const confined of [true, false]) {
  const mode = confined ? 'confined' : 'unconfined';

  // The bin through its .bin link, and the path through the linked package written out in the hook.
  for (const hook of ['exec node_modules/.bin/acme-lint', 'exec sh node_modules/@acme/lint/bin/lint.sh']) {
    test(`a call that leaves the linked workspace package alone is no change to it (${mode}, hook: ${hook})`, async (t) => {
      const ran = path.join(realpathSync(tempDir(t, 'zb-ran-')), 'LINT-RAN');
      const world = workspaceBin(t, ran, hook);
      const result = await world.run('mkdir -p src && printf "x = 1\\n" > src/app.js', { layout: layoutOf(world), confined });
      t.is(result.exitCode, 0, result.stderr);
      t.is(readFileSync(path.join(world.ws, 'src/app.js'), 'utf8'), 'x = 1\n');
      userCommit(world, 'a.txt');
      t.true(existsSync(ran)); // the hook ran the workspace bin, as before
    });
  }

  for (const change of changes) {
    test(`the link on the way to a workspace bin a hook runs, ${change.name}, is put back and the run stopped (${mode})`, async (t) => {
      const markers = realpathSync(tempDir(t, 'zb-ran-'));
      const world = workspaceBin(t, path.join(markers, 'LINT-RAN'));
      mkdirSync(path.join(world.ws, 'evil/bin'), { recursive: true });
      writeFileSync(path.join(world.ws, 'evil/bin/lint.sh'), `#!/bin/sh\ntouch ${path.join(markers, 'EVIL-RAN')}\n`, { mode: 0o755 });
      const error = await t.throwsAsync(world.run(change.command, { layout: layoutOf(world), confined }));
      t.is((error as { code?: string }).code, 'ZB_CONFINEMENT_PROTECTED_FILE', error.message);
      t.true(error.message.includes(path.join(world.ws, 'node_modules/@acme/lint')), error.message);
      t.is(readlinkSync(path.join(world.ws, 'node_modules/@acme/lint')), '../../packages/lint');
      userCommit(world, 'a.txt');
      t.false(existsSync(path.join(markers, 'EVIL-RAN')));
      t.true(existsSync(path.join(markers, 'LINT-RAN')));
    });
  }
}
