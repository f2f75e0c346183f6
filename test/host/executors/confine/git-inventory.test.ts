// The git-metadata walk fails closed: a directory it cannot list is reported,
// never passed over as empty (a command can chmod 000 a directory it made).
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from '../../../fixtures/temp.js';

const inventoryModule = new URL('../../../../src/host/executors/confine/git-inventory.js', import.meta.url).href;

test('a directory in the scopes that cannot be listed is reported as unreadable', (t) => {
  const root = realpathSync(tempDir(t, 'zb-inventory-'));
  const ws = path.join(root, 'ws');
  const hidden = path.join(ws, 'hidden');
  mkdirSync(path.join(hidden, 'r'), { recursive: true });
  writeFileSync(path.join(hidden, 'r', 'HEAD'), 'ref: refs/heads/main\n');
  // Listed by an ordinary user (root reads every directory): the workspace is its, the hidden directory 000.
  for (const directory of [root, ws, hidden, path.join(hidden, 'r')]) chownSync(directory, 65534, 65534);
  chmodSync(root, 0o755);
  chmodSync(hidden, 0o000);
  const script = `import { scanGitMetadata } from ${JSON.stringify(inventoryModule)}; const i = scanGitMetadata([${JSON.stringify(ws)}]); process.stdout.write(JSON.stringify({ unreadable: i.unreadable, dirs: [...i.gitDirectories.keys()] }));`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { uid: 65534, gid: 65534, encoding: 'utf8' });
  chmodSync(hidden, 0o755); // so the fixture can be removed
  t.is(child.status, 0, child.stderr);
  t.deepEqual(JSON.parse(child.stdout), { unreadable: [hidden], dirs: [] });
});

test('a path in a HEAD-holding directory that cannot be looked at (past PATH_MAX) is reported as unreadable, not thrown', async (t) => {
  const ws = realpathSync(tempDir(t, 'zb-inventory-'));
  // Node's recursive rm cannot remove a tree past PATH_MAX; rm(1) can (LIFO: before the temp dir's own teardown).
  t.teardown(() => spawnSync('rm', ['-rf', path.join(ws, 'deep')]));
  // A directory whose own path is 4093 bytes, holding `head` (so the scan records it): `dir/head` is past PATH_MAX.
  const made = spawnSync(
    'sh',
    [
      '-c',
      `mkdir deep && cd deep && s=$(printf "%200s" "" | tr " " a) && while [ $(( \${#PWD} + 201 )) -lt 4040 ]; do mkdir $s && cd $s; done && b=$(printf "%$(( 4093 - \${#PWD} - 1 ))s" "" | tr " " b) && mkdir $b && cd $b && : > head && printf %s "$PWD"`,
    ],
    { cwd: ws, encoding: 'utf8' },
  );
  t.is(made.status, 0, made.stderr);
  const deep = made.stdout;
  const { scanGitMetadata } = (await import(inventoryModule)) as typeof import('../../../../src/host/executors/confine/git-inventory.js');
  const inventory = scanGitMetadata([ws], [], false);
  t.deepEqual(inventory.records.get(deep)?.unreachable, ['head']);
  t.deepEqual(inventory.unreadable, [path.join(deep, 'head')]);
});
