// Every other place the state directory shows is found from the kernel's mount table (identity: device and the
// directory of the file system a mount shows), not from a path: real bind mounts, as root.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { stateDirectoryAliases, stateDirectoryPlaces } from '../../../../src/host/executors/confine/state-aliases.js';
import { tempDir } from '../../../fixtures/temp.js';

function layout(t: Parameters<typeof tempDir>[0]) {
  const root = realpathSync(tempDir(t, 'zb-state-aliases-'));
  const state = path.join(root, 'home', 'state');
  const ws = path.join(root, 'ws');
  mkdirSync(path.join(state, 'agents'), { recursive: true });
  mkdirSync(ws);
  return { root, state, ws };
}

function bind(t: Parameters<typeof tempDir>[0], source: string, target: string): void {
  mkdirSync(target, { recursive: true });
  execFileSync('mount', ['--bind', source, target]);
  t.teardown(() => execFileSync('umount', [target]));
}

test('a state directory mounted nowhere else has no alias', (t) => {
  const { state } = layout(t);
  t.deepEqual(stateDirectoryAliases(state), []);
  t.deepEqual(stateDirectoryPlaces(state), [state]);
});

test('a bind mount of the state directory, of a directory above it and of a directory inside it are each found', (t) => {
  const { root, state, ws } = layout(t);
  bind(t, state, path.join(ws, 'mirror'));
  bind(t, path.join(root, 'home'), path.join(ws, 'up'));
  bind(t, path.join(state, 'agents'), path.join(ws, 'agents'));
  const found = stateDirectoryAliases(state).sort((a, b) => a.path.localeCompare(b.path));
  t.deepEqual(found, [
    { path: path.join(ws, 'agents'), part: true },
    { path: path.join(ws, 'mirror'), part: false },
    { path: path.join(ws, 'up', 'state'), part: false },
  ]);
});

test('a mount of another directory of the same file system is no alias', (t) => {
  const { root, state, ws } = layout(t);
  mkdirSync(path.join(root, 'other'));
  bind(t, path.join(root, 'other'), path.join(ws, 'other'));
  t.deepEqual(stateDirectoryAliases(state), []);
});

test('a mount table that does not hold the state directory refuses (cannot read is not nowhere)', (t) => {
  const { state } = layout(t);
  t.throws(() => stateDirectoryAliases(state, ''), { message: /names no mount of device/u });
});
