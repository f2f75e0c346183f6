import test from 'ava';
import { writeFileSync } from 'node:fs';
import type { ZotboxError } from '../../../src/errors.js';
import path from 'node:path';
import { requireUsableStateDirectory, resolveStateDirectory, stateDirectoryOrigin } from '../../../src/host/consent/state-dir.js';
import { tempDir } from '../../fixtures/temp.js';

const linux = { homeDirectory: '/home/u', platform: 'linux' as const };

test('ZOTBOX_HOME wins, then XDG_STATE_HOME/zotbox, then ~/.local/state/zotbox', (t) => {
  t.is(resolveStateDirectory({ ...linux, env: { ZOTBOX_HOME: '/srv/zb', XDG_STATE_HOME: '/x' } }), '/srv/zb');
  t.is(resolveStateDirectory({ ...linux, env: { XDG_STATE_HOME: '/x' } }), '/x/zotbox');
  t.is(resolveStateDirectory({ ...linux, env: {} }), '/home/u/.local/state/zotbox');
});

test('empty or relative XDG_STATE_HOME is ignored, as the XDG spec says', (t) => {
  t.is(resolveStateDirectory({ ...linux, env: { XDG_STATE_HOME: '' } }), '/home/u/.local/state/zotbox');
  t.is(resolveStateDirectory({ ...linux, env: { XDG_STATE_HOME: 'relative' } }), '/home/u/.local/state/zotbox');
});

test('macOS uses Application Support', (t) => {
  t.is(resolveStateDirectory({ homeDirectory: '/Users/u', platform: 'darwin', env: {} }), '/Users/u/Library/Application Support/zotbox');
});

test('a state directory that is a file, or under one, is ZB_IO_FAILED naming where it came from and the fix', (t) => {
  const root = tempDir(t, 'zb-state-');
  const file = path.join(root, 'plain-file');
  writeFileSync(file, 'not a directory');
  for (const [directory, problem] of [
    [file, 'is not a directory'],
    [path.join(file, 'below'), 'is not reachable'],
  ] as const) {
    const error = t.throws<ZotboxError>(() => requireUsableStateDirectory(directory, { origin: 'ZOTBOX_HOME' }), { code: 'ZB_IO_FAILED' } as never);
    t.like(error.details, { path: directory, origin: 'ZOTBOX_HOME' }, directory);
    t.true(error.message.includes(problem), error.message);
    t.true(error.message.includes('Fix: point ZOTBOX_HOME at a directory'), error.message);
  }
});

test('a missing state directory is usable (it is created on first write); an existing directory is usable', (t) => {
  const root = tempDir(t, 'zb-state-');
  t.notThrows(() => requireUsableStateDirectory(path.join(root, 'not', 'yet'), { origin: 'default' }));
  t.notThrows(() => requireUsableStateDirectory(root, { origin: 'default' }));
});

test('where the state directory comes from: ZOTBOX_HOME, else an absolute XDG_STATE_HOME, else the default', (t) => {
  t.is(stateDirectoryOrigin({ ZOTBOX_HOME: '/z', XDG_STATE_HOME: '/x' }), 'ZOTBOX_HOME');
  t.is(stateDirectoryOrigin({ ZOTBOX_HOME: '', XDG_STATE_HOME: '/x' }), 'XDG_STATE_HOME');
  t.is(stateDirectoryOrigin({ XDG_STATE_HOME: 'relative' }), 'default');
  t.is(stateDirectoryOrigin({}), 'default');
});
