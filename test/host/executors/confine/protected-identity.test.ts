// Past the byte budget (64 MiB) protected files are recorded by identity, not refused: a Yarn zero-install cache of
// 70 MiB no longer refuses every writer. Expected by hand: small files (a hook) keep their bytes and are put back byte
// for byte; a big zip rewritten in place, same size, mtime set back, is removed (no copy to put back) and the run stops;
// nothing past the budget is held in memory. Zips are sparse files: cheap on disk, and never read.
import test, { type ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, ftruncateSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { recordProtected, restoreProtected, type ProtectedSet } from '../../../../src/host/executors/confine/protected-locations.js';
import type { SandboxLayout } from '../../../../src/host/executors/confine/sandbox-plan.js';
import { sandboxWorld, type SandboxWorld } from '../../../fixtures/sandbox-world.js';
import { tempDir } from '../../../fixtures/temp.js';

const MIB = 1024 * 1024;
const HOOK = '#!/bin/sh\nexec yarn eslint .\n';
/** Ten zips of 7 MiB and some (70 MiB, past the 64 MiB budget; the tenth the largest) and two small ones. */
const ZIPS: ReadonlyArray<[string, number]> = [
  ...Array.from({ length: 10 }, (_, i): [string, number] => [`big-npm-1.0.${i}-abc-${i}.zip`, 7 * MIB + i * 4096]),
  ['eslint-npm-9.0.0-abc-1.zip', 4096],
  ['tiny-npm-1.0.0-abc-2.zip', 512],
];

/** A file of `size` bytes that holds none on disk (a hole), with "PK" at its start. */
function sparseFile(file: string, size: number): void {
  const fd = openSync(file, 'w');
  try {
    writeFileSync(fd, 'PK');
    ftruncateSync(fd, size);
  } finally {
    closeSync(fd);
  }
}

function cacheIn(directory: string): void {
  mkdirSync(directory, { recursive: true });
  for (const [name, size] of ZIPS) sparseFile(path.join(directory, name), size);
}

/**
 * A zero-install project: a husky pre-commit hook (outside .git: protected-locations.ts's, not the git aftercare's)
 * runs eslint through yarn under Plug'n'Play, its code in the cache.
 */
function zeroInstall(world: SandboxWorld): void {
  const env = { PATH: '/usr/bin:/bin', HOME: world.root, GIT_CONFIG_NOSYSTEM: '1' };
  execFileSync('git', ['init', '-q', world.ws], { env });
  execFileSync('git', ['config', 'core.hooksPath', '.husky'], { cwd: world.ws, env });
  mkdirSync(path.join(world.ws, '.husky'));
  writeFileSync(path.join(world.ws, '.husky', 'pre-commit'), HOOK, { mode: 0o755 });
  writeFileSync(path.join(world.ws, '.yarnrc.yml'), 'nodeLinker: pnp\nenableGlobalCache: false\n');
  writeFileSync(path.join(world.ws, '.pnp.cjs'), '#!/usr/bin/env node\n"use strict";\n');
  writeFileSync(path.join(world.ws, 'package.json'), JSON.stringify({ name: 'app', private: true, scripts: { lint: 'eslint .' }, devDependencies: { eslint: '^9.0.0' } }));
  writeFileSync(path.join(world.ws, 'yarn.lock'), '# yarn lockfile v8\n');
  cacheIn(path.join(world.ws, '.yarn', 'cache'));
}

function layoutOf(world: SandboxWorld): SandboxLayout {
  mkdirSync(path.join(world.root, 'user-home'), { recursive: true });
  return { ...world.layout, userGit: { home: path.join(world.root, 'user-home'), noSystem: true } };
}

for (const confined of [true, false]) {
  test(`a 70 MiB zero-install cache no longer refuses an ordinary command (${confined ? 'confined' : 'unconfined'})`, async (t) => {
    const world = sandboxWorld(t);
    zeroInstall(world);
    const result = await world.run('git status --short >/dev/null && echo ok > notes.txt', { layout: layoutOf(world), confined });
    t.is(result.exitCode, 0, result.stderr);
    t.is(readFileSync(path.join(world.ws, 'notes.txt'), 'utf8'), 'ok\n');
  });
}

test('a cache zip past the budget rewritten in place (same size, mtime set back) is removed and the run stops (unconfined)', async (t) => {
  const world = sandboxWorld(t);
  zeroInstall(world);
  const zip = path.join(world.ws, '.yarn', 'cache', ZIPS[9]![0]);
  const command = `touch -r ${zip} ref && printf 'evil' | dd of=${zip} bs=1 seek=100 conv=notrunc 2>/dev/null && touch -r ref ${zip}`;
  const error = await t.throwsAsync(world.run(command, { layout: layoutOf(world), confined: false }));
  t.is((error as { code?: string }).code, 'ZB_CONFINEMENT_PROTECTED_FILE', error.message);
  t.deepEqual((error as { details?: { paths?: string[] } }).details?.paths, [zip]);
  t.false(existsSync(zip), 'the rewritten zip was kept');
  t.true(existsSync(path.join(world.ws, '.yarn', 'cache', ZIPS[0]![0])), 'an untouched zip was removed too');
});

test('a hook changed while the protected files exceed the budget is put back byte for byte (unconfined)', async (t) => {
  const world = sandboxWorld(t);
  zeroInstall(world);
  const hook = path.join(world.ws, '.husky', 'pre-commit');
  const error = await t.throwsAsync(world.run(`printf 'touch pwned' >> ${hook}`, { layout: layoutOf(world), confined: false }));
  t.is((error as { code?: string }).code, 'ZB_CONFINEMENT_PROTECTED_FILE', error.message);
  t.is(readFileSync(hook, 'utf8'), HOOK);
});

/** A protected set naming `paths` directly (what protectedSetOf derives is tested elsewhere). */
function setOf(paths: string[]): ProtectedSet {
  return { locations: [], paths, reasons: new Map(), unresolved: [] };
}

/** A cache and a hook in a fresh directory, recorded with the clock an hour ahead (every ctime long settled). */
function recorded(t: ExecutionContext) {
  const root = tempDir(t, 'zb-identity-');
  const cache = path.join(root, 'cache');
  const hook = path.join(root, 'pre-commit');
  cacheIn(cache);
  writeFileSync(hook, HOOK, { mode: 0o755 });
  const set = setOf([hook, cache]);
  const hourAhead = () => BigInt(Date.now() + 3_600_000) * 1_000_000n;
  return { root, cache, hook, set, record: recordProtected(set, [root], { clock: hourAhead }) };
}

test('the record keeps bytes for the hook and the small zips, and identities for the zips past 4 MiB found in the cache', (t) => {
  const { cache, hook, record } = recorded(t);
  t.is(record.entries.get(hook)?.kind, 'file');
  const children = (record.entries.get(cache) as { children: ReadonlyMap<string, { kind: string; data?: Buffer }> }).children;
  // Files found inside a protected directory get bytes while they total 4 MiB at most: 512 + 4096 bytes fit; no 7 MiB zip does.
  t.deepEqual(
    [...children]
      .filter(([, r]) => r.kind === 'identity')
      .map(([name]) => name)
      .sort(),
    ZIPS.slice(0, 10)
      .map(([name]) => name)
      .sort(),
  );
  t.deepEqual(
    [...children]
      .filter(([, r]) => r.kind === 'file')
      .map(([name]) => name)
      .sort(),
    [ZIPS[10]![0], ZIPS[11]![0]].sort(),
  );
  const held = [...children.values()].reduce((sum, r) => sum + (r.data?.length ?? 0), 0);
  t.is(held, 4096 + 512);
});

test('after a call: an untouched identity passes, a same-size rewrite is removed, a removed one is reported', (t) => {
  const { root, cache, set, record } = recorded(t);
  t.deepEqual(restoreProtected(record, set, [root]), []);
  const zip = path.join(cache, ZIPS[9]![0]);
  const before = readFileSync(zip).subarray(0, 2);
  execFileSync('sh', ['-c', `touch -r "$1" "$1.ref" && printf XY | dd of="$1" bs=1 seek=7 conv=notrunc 2>/dev/null && touch -r "$1.ref" "$1" && rm "$1.ref"`, 'sh', zip]);
  t.deepEqual(before, Buffer.from('PK'));
  t.deepEqual(
    restoreProtected(record, set, [root]).map((c) => c.path),
    [zip],
  );
  t.false(existsSync(zip));
  t.deepEqual(
    restoreProtected(record, set, [root]).map((c) => c.path),
    [zip],
    'a removed identity file is reported on every later check until the user restores it',
  );
});

test('a file recorded by identity whose ctime is recent is waited past before the call goes on', (t) => {
  const root = tempDir(t, 'zb-identity-');
  const made = Date.now();
  cacheIn(root);
  // The clock reads the time the files were made (every ctime recent) twice, then ten seconds on: past every grain.
  let calls = 0;
  const clock = () => BigInt(made + (++calls > 2 ? 10_000 : 0)) * 1_000_000n;
  const record = recordProtected(setOf([root]), [path.dirname(root)], { clock });
  t.true(calls >= 3, 'the record did not wait for the recent ctimes to settle');
  t.is((record.entries.get(root) as { children: ReadonlyMap<string, { kind: string }> }).children.get(ZIPS[9]![0])?.kind, 'identity');
});

test('a file recorded by identity whose ctime is far ahead of the clock refuses the call', (t) => {
  const root = tempDir(t, 'zb-identity-');
  cacheIn(root);
  const error = t.throws(() => recordProtected(setOf([root]), [path.dirname(root)], { clock: () => BigInt(Date.now() - 10_000) * 1_000_000n }));
  t.is((error as { code?: string }).code, 'ZB_CONFINEMENT_BIND_UNSAFE');
});

test('the bytes for files found in a protected directory go to the smallest first', (t) => {
  const root = tempDir(t, 'zb-identity-');
  const dir = path.join(root, 'protected');
  mkdirSync(dir);
  for (const [name, size] of [
    ['three.zip', 3 * MIB],
    ['two.zip', 2 * MIB],
    ['one-and-a-half.zip', 1.5 * MIB],
  ] as const)
    sparseFile(path.join(dir, name), size);
  // Ten seconds on: no ctime is recent, nothing is waited for.
  const record = recordProtected(setOf([dir]), [root], { clock: () => BigInt(Date.now() + 10_000) * 1_000_000n });
  const children = (record.entries.get(dir) as { children: ReadonlyMap<string, { kind: string }> }).children;
  // 1.5 + 2 MiB fit the 4 MiB for found files; 3 MiB more does not.
  t.deepEqual(
    [...children].filter(([, r]) => r.kind === 'identity').map(([name]) => name),
    ['three.zip'],
  );
});
