// The files a run will write (--record, --session) are checked before anything
// runs (issue 13): a path that cannot be written is ZB_IO_FAILED naming the file,
// what is wrong and the fix, and the check itself creates nothing.
import test from 'ava';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ZotboxError } from '../../../src/errors.js';
import { checkOutputFile } from '../../../src/host/run/output-files.js';
import { tempDir } from '../../fixtures/temp.js';

test('a new file in an existing directory, or an existing regular file, can be written; nothing is created by asking', (t) => {
  const directory = tempDir(t);
  writeFileSync(path.join(directory, 'old.json'), '{}');
  t.notThrows(() => checkOutputFile(path.join(directory, 'new.json'), 'record'));
  t.notThrows(() => checkOutputFile(path.join(directory, 'old.json'), 'session'));
  t.deepEqual(readdirSync(directory), ['old.json']);
});

const refusals = [
  { name: 'a missing directory', target: (d: string) => path.join(d, 'missing', 'out.json'), errno: 'ENOENT', says: /directory .*missing does not exist/ },
  { name: 'a file used as a directory', target: (d: string) => path.join(d, 'file', 'out.json'), errno: 'ENOTDIR', says: /is not a directory/ },
  { name: 'a directory as the file', target: (d: string) => path.join(d, 'dir'), errno: 'EISDIR', says: /is a directory/ },
];

for (const refusal of refusals) {
  test(`${refusal.name} is refused with ZB_IO_FAILED, the path, the option and the fix`, (t) => {
    const directory = tempDir(t);
    writeFileSync(path.join(directory, 'file'), '');
    mkdirSync(path.join(directory, 'dir'));
    const target = refusal.target(directory);
    for (const [purpose, option] of [
      ['record', '--record'],
      ['session', '--session'],
    ] as const) {
      const error = t.throws<ZotboxError>(() => checkOutputFile(target, purpose));
      t.is(error.code, 'ZB_IO_FAILED');
      t.deepEqual(error.details, { path: target, errno: refusal.errno });
      t.regex(error.message, refusal.says);
      t.true(error.message.includes(option), error.message);
      t.regex(error.message, /Fix: /);
    }
    t.deepEqual(readdirSync(directory).sort(), ['dir', 'file']);
  });
}
