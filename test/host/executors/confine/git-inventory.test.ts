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
