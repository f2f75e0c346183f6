// set-aside.ts: moving an entry aside never throws out of the name rule; what cannot be moved is reported.
import test from 'ava';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setAside, setAsideOrReport } from '../../../../src/host/executors/confine/set-aside.js';
import { tempDir } from '../../../fixtures/temp.js';

test('an entry that cannot be moved is reported with the reason, not thrown', (t) => {
  const ws = tempDir(t, 'zb-set-aside-');
  // Its directory does not exist: every candidate is free, and the rename fails with ENOENT.
  t.deepEqual(
    setAsideOrReport(path.join(ws, 'missing', '-rf'), () => false),
    { failed: 'ENOENT' },
  );
});

test('a candidate name past PATH_MAX is skipped, not thrown: with none usable the entry is removed', (t) => {
  const ws = tempDir(t, 'zb-set-aside-');
  // A directory whose path is 4080 bytes: `-x` in it (4083) can be made, `zotbox-renamed-1` beside it (4098) cannot be looked at.
  let dir = ws;
  while (dir.length + 251 < 4078) {
    dir = path.join(dir, 'a'.repeat(250));
    mkdirSync(dir);
  }
  dir = path.join(dir, 'b'.repeat(4080 - dir.length - 1));
  mkdirSync(dir);
  const entry = path.join(dir, '-x');
  writeFileSync(entry, '');
  t.is(
    setAside(entry, () => false),
    undefined,
  );
  t.deepEqual(readdirSync(dir), []);
});
