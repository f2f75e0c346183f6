// Each layer of the file executors' re-check, pinned by a race that only that
// layer stops (issue 9 §8). The swap happens between two checks, through the
// FileGuardProbe seam; every test here fails when its layer is deleted.
import test, { type ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import { closeSync, constants, existsSync, linkSync, mkdirSync, openSync, readFileSync, readdirSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ErrorCode } from '../../../src/errors.js';
import type { FileGuardProbe } from '../../../src/host/executors/file-guard.js';
import { executeEdit, executeRead, executeWrite } from '../../../src/host/executors/file-tools.js';
import type { ApprovedPath } from '../../../src/policy/gate-server.js';
import { decidePathAccess, type PathTool } from '../../../src/policy/path-decision.js';
import { compileScopes } from '../../../src/policy/scopes.js';
import { SRC_DIR } from '../../fixtures/paths.js';
import { tempDir } from '../../fixtures/temp.js';

/** root/ws/src/a.txt inside the scopes; root/outside/secret and root/outside/fifo outside them. */
function tree(t: ExecutionContext) {
  const root = realpathSync(tempDir(t, 'zb-guard-'));
  const ws = path.join(root, 'ws');
  const src = path.join(ws, 'src');
  const outside = path.join(root, 'outside');
  mkdirSync(src, { recursive: true });
  mkdirSync(outside);
  const file = path.join(src, 'a.txt');
  writeFileSync(file, 'approved');
  const secret = path.join(outside, 'secret');
  writeFileSync(secret, 'secret');
  const scopes = compileScopes({ read: ['${workspace}'], write: ['${workspace}'] }, { workspace: ws, agentData: path.join(root, 'data') });
  const approve = (tool: PathTool, target: string): ApprovedPath => {
    const decision = decidePathAccess(tool, target, scopes);
    if (!decision.allow) throw new Error(decision.reason);
    return decision;
  };
  return { root, ws, src, file, outside, secret, approve };
}

const code = (error: unknown) => (error as { code?: ErrorCode } | undefined)?.code;

function makeFifo(at: string): string {
  execFileSync('mkfifo', [at]);
  return at;
}

/** Whether some process holds the FIFO open for reading: a non-blocking open for writing fails with ENXIO otherwise. */
function fifoHasReader(fifo: string): boolean {
  try {
    closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENXIO') return false;
    throw error;
  }
}

/** Moves `directory` aside and puts a symlink to `target` in its place; returns where the real one went. */
function swapDirectoryForLink(directory: string, target: string): string {
  const aside = `${directory}-aside`;
  renameSync(directory, aside);
  symlinkSync(target, directory);
  return aside;
}

// Read: re-resolve, lstat (a regular file), open O_NOFOLLOW, verify dev/ino and /proc/self/fd.

test('a read never opens a FIFO that replaced the file after the re-resolution (the lstat refuses what is not a regular file)', (t) => {
  const { file, approve } = tree(t);
  const decision = approve('read', file);
  let openedWhileFifo = false;
  const probe: FileGuardProbe = {
    afterReverify: () => {
      rmSync(file);
      makeFifo(file);
    },
    afterOpen: () => {
      openedWhileFifo = fifoHasReader(file);
    },
  };
  t.is(code(t.throws(() => executeRead(decision, {}, probe))), 'ZB_IO_FAILED');
  t.false(openedWhileFifo, 'the FIFO was opened');
});

test('a read never opens the target of a symlink swapped in after the lstat (O_NOFOLLOW): a FIFO outside the scopes is not opened', (t) => {
  const { file, outside, approve } = tree(t);
  const fifo = makeFifo(path.join(outside, 'fifo'));
  const decision = approve('read', file);
  let fifoOpened = false;
  const probe: FileGuardProbe = {
    afterLstat: () => {
      rmSync(file);
      symlinkSync(fifo, file);
    },
    afterOpen: () => {
      fifoOpened = fifoHasReader(fifo);
    },
  };
  t.is(code(t.throws(() => executeRead(decision, {}, probe))), 'ZB_POLICY_PATH_UNRESOLVABLE');
  t.false(fifoOpened, 'the FIFO outside the scopes was opened');
});

test('a read of a file replaced after the lstat by another file of the same name is refused (dev/ino): a hard link to a file outside', (t) => {
  const { file, secret, approve } = tree(t);
  const decision = approve('read', file);
  const probe: FileGuardProbe = {
    afterLstat: () => {
      // Same name, so /proc/self/fd shows the approved path; only the inode differs.
      linkSync(secret, `${file}.new`);
      renameSync(`${file}.new`, file);
    },
  };
  t.is(code(t.throws(() => executeRead(decision, {}, probe))), 'ZB_POLICY_PATH_UNRESOLVABLE');
});

test('an edit of a file replaced after the lstat reads nothing from the replacement and writes nothing (dev/ino)', (t) => {
  const { file, secret, approve } = tree(t);
  const decision = approve('edit', file);
  const probe: FileGuardProbe = {
    afterLstat: () => {
      linkSync(secret, `${file}.new`);
      renameSync(`${file}.new`, file);
    },
  };
  t.is(code(t.throws(() => executeEdit(decision, { old_string: 'sec', new_string: 'SEC' }, probe))), 'ZB_POLICY_PATH_UNRESOLVABLE');
  t.is(readFileSync(secret, 'utf8'), 'secret');
  t.is(readFileSync(file, 'utf8'), 'secret', 'the edit did not rename its result over the path');
});

test('a read through a directory swapped for a symlink after the lstat is refused, even when it reaches the same file by another name (/proc/self/fd)', (t) => {
  const { src, file, outside, approve } = tree(t);
  const decision = approve('read', file);
  const elsewhere = path.join(outside, 'elsewhere');
  const probe: FileGuardProbe = {
    afterLstat: () => {
      mkdirSync(elsewhere);
      linkSync(file, path.join(elsewhere, 'a.txt')); // same dev/ino as the approved file
      swapDirectoryForLink(src, elsewhere);
    },
  };
  t.is(code(t.throws(() => executeRead(decision, {}, probe))), 'ZB_POLICY_PATH_UNRESOLVABLE');
});

// Write: re-resolve the parent, create a temporary file O_EXCL|O_NOFOLLOW, check its /proc path, re-check, rename.

test('a write whose directory is swapped for a symlink just before the temporary file is opened leaves nothing outside (/proc/self/fd of the new file)', (t) => {
  const { src, outside, approve } = tree(t);
  const decision = approve('write', path.join(src, 'new.txt'));
  let aside = '';
  const probe: FileGuardProbe = {
    beforeOpenTemp: () => {
      aside = swapDirectoryForLink(src, outside);
    },
    beforeRename: () => {
      // Swapped back, so the re-check before the rename sees nothing wrong.
      rmSync(src);
      renameSync(aside, src);
    },
  };
  t.is(code(t.throws(() => executeWrite(decision, { content: 'planted' }, probe))), 'ZB_POLICY_PATH_UNRESOLVABLE');
  t.deepEqual(readdirSync(outside), ['secret']);
});

test('a write whose directory is swapped for a symlink just before the rename is refused as a change (the re-check before the rename)', (t) => {
  const { src, outside, approve } = tree(t);
  const decision = approve('write', path.join(src, 'new.txt'));
  const probe: FileGuardProbe = {
    beforeRename: () => {
      swapDirectoryForLink(src, outside);
    },
  };
  t.is(code(t.throws(() => executeWrite(decision, { content: 'planted' }, probe))), 'ZB_POLICY_PATH_UNRESOLVABLE');
  t.deepEqual(readdirSync(outside), ['secret']);
});

test("a hard link planted at the temporary file's name is never written into (O_EXCL)", (t) => {
  const { src, file, secret, approve } = tree(t);
  const decision = approve('write', file);
  linkSync(secret, path.join(src, '.zotbox-predicted.tmp'));
  const probe: FileGuardProbe = { tempName: () => '.zotbox-predicted.tmp' };
  t.is(code(t.throws(() => executeWrite(decision, { content: 'mine' }, probe))), 'ZB_POLICY_PATH_UNRESOLVABLE');
  t.is(readFileSync(secret, 'utf8'), 'secret');
  t.is(readFileSync(file, 'utf8'), 'approved');
});

test("a symlink planted at the temporary file's name is never followed (O_EXCL, and O_NOFOLLOW)", (t) => {
  const { src, file, outside, approve } = tree(t);
  const decision = approve('write', file);
  symlinkSync(path.join(outside, 'created'), path.join(src, '.zotbox-predicted.tmp'));
  const probe: FileGuardProbe = { tempName: () => '.zotbox-predicted.tmp' };
  t.is(code(t.throws(() => executeWrite(decision, { content: 'mine' }, probe))), 'ZB_POLICY_PATH_UNRESOLVABLE');
  t.false(existsSync(path.join(outside, 'created')));
});

test('the write executor refuses git metadata whatever decision it is handed, and creates nothing', (t) => {
  const { ws, approve } = tree(t);
  const approved = approve('write', path.join(ws, 'sub', 'x'));
  for (const target of [path.join(ws, 'sub', '.git'), path.join(ws, '.GIT', 'hooks', 'pre-commit')]) {
    const forged: ApprovedPath = { ...approved, canonicalPath: target };
    t.is(code(t.throws(() => executeWrite(forged, { content: 'gitdir: ../evil\n' }))), 'ZB_POLICY_PATH_PROTECTED', target);
  }
  t.deepEqual(readdirSync(ws), ['src']);
});

test('the probe is not part of the public API, and no production code names it or its points', (t) => {
  const seam = /FileGuardProbe|afterReverify|afterLstat|afterOpen|beforeOpenTemp|beforeRename|tempName/;
  const owners = new Set([path.join('host', 'executors', 'file-guard.ts'), path.join('host', 'executors', 'file-tools.ts')]);
  const sources = readdirSync(SRC_DIR, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
  t.true(sources.includes('index.ts'));
  t.deepEqual(
    sources.filter((file) => !owners.has(file) && seam.test(readFileSync(path.join(SRC_DIR, file), 'utf8'))),
    [],
  );
});
