// Program directories (issue 24 §4): which ones are refused and why, what each
// binds into the sandbox, and the search path they make.
import test from 'ava';
import { chmodSync, chownSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ZotboxError } from '../../../src/errors.js';
import { programDirectoryBinds, refuseProgramDirectoriesInWriteScopes, resolveProgramDirectories, searchPathWith } from '../../../src/host/executors/program-directories.js';
import { tempDir } from '../../fixtures/temp.js';

function root(t: Parameters<typeof tempDir>[0]): string {
  return realpathSync(tempDir(t, 'zb-program-dirs-'));
}

function made(...parts: string[]): string {
  const directory = path.join(...parts);
  mkdirSync(directory, { recursive: true });
  return directory;
}

const context = (home: string) => ({ homeDirectory: home });

function refusal(t: Parameters<typeof tempDir>[0], run: () => unknown, why: RegExp): void {
  const error = t.throws<ZotboxError>(run);
  t.is(error.code, 'ZB_PROGRAM_PATH_UNSAFE');
  t.regex((error.details as { why: string }).why, why);
}

test('a directory named bin or .bin brings its parent as the toolchain home; any other name none', (t) => {
  const base = root(t);
  const nvm = made(base, 'nvm/versions/node/v22.1.0/bin');
  const modules = made(base, 'project/node_modules/.bin');
  const tools = made(base, 'tools');
  t.deepEqual(resolveProgramDirectories([nvm, modules, tools], context('/nonexistent-home')), [
    { directory: nvm, home: path.join(base, 'nvm/versions/node/v22.1.0') },
    { directory: modules, home: path.join(base, 'project/node_modules') },
    { directory: tools },
  ]);
});

test("a bin right in the user's home, or in a directory holding the state directory, is bound alone", (t) => {
  const base = root(t);
  const home = made(base, 'home');
  const homeBin = made(home, 'bin');
  const localBin = made(home, '.local/bin');
  made(home, '.local/state/zotbox');
  t.deepEqual(resolveProgramDirectories([homeBin, localBin], { homeDirectory: home, stateDirectory: path.join(home, '.local/state/zotbox') }), [{ directory: homeBin }, { directory: localBin }]);
});

test('the directory is canonical, and one reached twice is named once', (t) => {
  const base = root(t);
  const bin = made(base, 'real/bin');
  symlinkSync(path.join(base, 'real'), path.join(base, 'link'));
  t.deepEqual(resolveProgramDirectories([path.join(base, 'link/bin'), bin], context('/nonexistent-home')), [{ directory: bin, home: path.join(base, 'real') }]);
});

test('a relative, missing or non-directory entry is refused', (t) => {
  const base = root(t);
  writeFileSync(path.join(base, 'file'), '');
  refusal(t, () => resolveProgramDirectories(['tools/bin'], context('/x')), /not an absolute path/);
  refusal(t, () => resolveProgramDirectories([path.join(base, 'missing')], context('/x')), /cannot be resolved \(ENOENT\)/);
  refusal(t, () => resolveProgramDirectories([path.join(base, 'file')], context('/x')), /not a directory/);
});

test('a world-writable or group-writable directory is refused', (t) => {
  const base = root(t);
  const world = made(base, 'world/bin');
  chmodSync(world, 0o777);
  refusal(t, () => resolveProgramDirectories([world], context('/x')), /world-writable/);
  const group = made(base, 'group/bin');
  chmodSync(group, 0o775);
  refusal(t, () => resolveProgramDirectories([group], context('/x')), /writable by group/);
});

test('a writable ancestor is refused, unless it is sticky (as /tmp) and what is below it is ours', (t) => {
  const base = root(t);
  const open = made(base, 'open');
  const bin = made(open, 'tool/bin');
  chmodSync(open, 0o777);
  refusal(t, () => resolveProgramDirectories([bin], context('/x')), /open is world-writable/);
  chmodSync(open, 0o1777);
  t.deepEqual(resolveProgramDirectories([bin], context('/x')), [{ directory: bin, home: path.join(open, 'tool') }]);
  chownSync(path.join(open, 'tool'), 1234, 1234);
  refusal(t, () => resolveProgramDirectories([bin], context('/x')), /owned by uid 1234, another user/);
});

test("a directory or ancestor owned by the sandbox's uid 65534 is refused", (t) => {
  const base = root(t);
  const bin = made(base, 'nobody/bin');
  chownSync(bin, 65534, 65534);
  refusal(t, () => resolveProgramDirectories([bin], context('/x')), /owned by uid 65534/);
});

test('a program directory or toolchain home that overlaps a write scope is refused', (t) => {
  const base = root(t);
  const ws = made(base, 'ws');
  const inside = resolveProgramDirectories([made(ws, 'tools/bin')], context('/x'));
  refusal(t, () => refuseProgramDirectoriesInWriteScopes(inside, [ws]), /overlaps the write scope/);
  // The home (base/opt) holds a write scope: binding it read-only would hide what the agent may write there.
  const holding = resolveProgramDirectories([made(base, 'opt/bin')], context('/x'));
  refusal(t, () => refuseProgramDirectoriesInWriteScopes(holding, [made(base, 'opt/work')]), /toolchain home .* overlaps the write scope/);
  t.notThrows(() => refuseProgramDirectoriesInWriteScopes(holding, [ws]));
});

test("the sandbox binds each home (else the directory) and links' targets not already visible; a target in a write scope is refused", (t) => {
  const base = root(t);
  const ws = made(base, 'ws');
  const bin = made(base, 'prefix/bin');
  const tools = made(base, 'tools');
  const elsewhere = made(base, 'elsewhere/pkg');
  writeFileSync(path.join(elsewhere, 'tool'), '#!/bin/sh\n', { mode: 0o755 });
  symlinkSync(path.join(elsewhere, 'tool'), path.join(tools, 'tool'));
  symlinkSync('/usr/bin/env', path.join(tools, 'env'));
  symlinkSync(path.join(base, 'prefix/lib/x'), path.join(bin, 'x'));
  made(base, 'prefix/lib');
  writeFileSync(path.join(base, 'prefix/lib/x'), '', { mode: 0o755 });
  const directories = resolveProgramDirectories([bin, tools], context('/x'));
  t.deepEqual(programDirectoryBinds(directories, [ws]), [path.join(base, 'prefix'), tools, path.join(elsewhere, 'tool')]);
  symlinkSync(path.join(ws, 'planted'), path.join(tools, 'planted'));
  writeFileSync(path.join(ws, 'planted'), '#!/bin/sh\n', { mode: 0o755 });
  refusal(t, () => programDirectoryBinds(directories, [ws]), /points to .*planted, inside the write scope/);
});

test('the search path is the program directories in order, then the fixed path', (t) => {
  t.deepEqual(searchPathWith([{ directory: '/a/bin', home: '/a' }, { directory: '/b' }]), ['/a/bin', '/b', '/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin']);
  t.deepEqual(searchPathWith([]), ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin']);
});

test('a dangling link whose target would be made inside a write scope is refused; one landing elsewhere is not', (t) => {
  const base = root(t);
  const ws = made(base, 'ws');
  const tools = made(base, 'tools');
  symlinkSync(path.join(base, 'not-installed', 'bin', 'tool'), path.join(tools, 'tool')); // dangling, outside the scopes
  const directories = resolveProgramDirectories([tools], context('/x'));
  t.deepEqual(programDirectoryBinds(directories, [ws]), [tools]);
  symlinkSync(path.join(ws, 'build', 'jq'), path.join(tools, 'jq')); // dangling, into the workspace: the agent could make it
  refusal(t, () => programDirectoryBinds(directories, [ws]), /jq points to .*\/ws\/build\/jq, not there yet but inside the write scope/);
  refusal(t, () => refuseProgramDirectoriesInWriteScopes(directories, [ws]), /not there yet but inside the write scope/);
});

test('a link in a program directory that loops is refused (it cannot be resolved)', (t) => {
  const base = root(t);
  const tools = made(base, 'tools');
  symlinkSync('loop', path.join(tools, 'loop'));
  const directories = resolveProgramDirectories([tools], context('/x'));
  refusal(t, () => programDirectoryBinds(directories, [made(base, 'ws')]), /loop is a link that cannot be resolved/);
});
