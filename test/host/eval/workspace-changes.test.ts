// The change list graders, the judge and file expectations rest on (issue 22 §2):
// the fixture's own files are checked by name before any new entry, so a change
// to one, or its deletion, is listed however many entries the run adds around it;
// past a bound the list says truncated. Outcomes are written by hand.
import test, { type ExecutionContext } from 'ava';
import { mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createCaseWorkspace, type CaseWorkspace } from '../../../src/host/eval/case-workspace.js';
import { describeIncompleteChanges } from '../../../src/host/eval/workspace-changes.js';
import { tempDir } from '../../fixtures/temp.js';

/** fixture: tests/test_add.txt, src/add.txt, README */
async function workspace(t: ExecutionContext): Promise<CaseWorkspace> {
  const root = realpathSync(tempDir(t, 'zb-changes-'));
  const fixture = path.join(root, 'fixture');
  mkdirSync(path.join(fixture, 'tests'), { recursive: true });
  mkdirSync(path.join(fixture, 'src'));
  writeFileSync(path.join(fixture, 'tests', 'test_add.txt'), 'assert add(2, 2) == 4\n');
  writeFileSync(path.join(fixture, 'src', 'add.txt'), 'add = a + b\n');
  writeFileSync(path.join(fixture, 'README'), 'adds\n');
  mkdirSync(path.join(root, 'temp'));
  const ws = await createCaseWorkspace(path.join(root, 'temp'), fixture);
  t.teardown(() => ws.remove());
  return ws;
}

const SMALL = { maxFileBytes: 1000, maxTotalBytes: 10_000, maxEntries: 10, maxPathBytes: 100_000 };

test('a deleted fixture file is listed even when the walk for new files is cut short', async (t) => {
  const ws = await workspace(t);
  rmSync(path.join(ws.path, 'src', 'add.txt'));
  for (let i = 0; i < 20; i++) writeFileSync(path.join(ws.path, `new-${i}.txt`), 'n');
  const changes = ws.changedFiles(SMALL);
  t.true(changes.truncated);
  t.deepEqual(
    changes.files.filter((file) => file.change !== 'added'),
    [{ path: 'src/add.txt', change: 'deleted', size: 0, content: null, omitted: 'deleted' }],
  );
  // A folder is read no further than the bound has room for, so which new files made it depends on the file system's order; never more than the bound.
  const added = changes.files.filter((file) => file.change === 'added');
  t.true(added.length <= 10, `${added.length} added files listed`);
});

test('new files within the entry bound are listed and the list is complete', async (t) => {
  const ws = await workspace(t);
  mkdirSync(path.join(ws.path, 'out'));
  writeFileSync(path.join(ws.path, 'out', 'a.txt'), 'a');
  const changes = ws.changedFiles(SMALL);
  t.deepEqual(changes, { files: [{ path: 'out/a.txt', change: 'added', size: 1, content: 'a' }], truncated: false, unreadable: [] });
  t.is(describeIncompleteChanges(changes), undefined);
});

test('path names past maxPathBytes make the list truncated, and the fixture’s changes come first', async (t) => {
  const ws = await workspace(t);
  writeFileSync(path.join(ws.path, 'README'), 'changed\n');
  for (let i = 0; i < 5; i++) writeFileSync(path.join(ws.path, `${'n'.repeat(40)}-${i}`), 'n');
  const changes = ws.changedFiles({ ...SMALL, maxPathBytes: 100 });
  t.true(changes.truncated);
  t.deepEqual(
    changes.files.map((file) => file.path),
    ['README', `${'n'.repeat(40)}-0`, `${'n'.repeat(40)}-1`],
    'README (6 bytes) and two 42-byte names fit in 100 bytes; a third does not',
  );
});

test('a truncated or unreadable list is described as incomplete, with ZB_EVAL_CHANGES_INCOMPLETE', (t) => {
  t.regex(describeIncompleteChanges({ truncated: true, unreadable: [] }) ?? '', /^ZB_EVAL_CHANGES_INCOMPLETE: the list of changed files is truncated/);
  t.regex(describeIncompleteChanges({ truncated: false, unreadable: [{ path: 'tests', errno: 'EACCES' }] }) ?? '', /^ZB_EVAL_CHANGES_INCOMPLETE: zotbox cannot read tests \(EACCES\)/);
  t.is(describeIncompleteChanges({ truncated: false, unreadable: [] }), undefined);
});
