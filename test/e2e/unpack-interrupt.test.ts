// Ctrl-C during `zotbox unpack`, through the real bin: the command stops with
// ZB_ARCHIVE_INTERRUPTED and leaves neither the target nor its staging directory.
import test from 'ava';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, watch, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BIN } from '../fixtures/paths.js';
import { MINIMAL_MANIFEST, zot, type TarPiece } from '../fixtures/tar-builder.js';
import { tempDir } from '../fixtures/temp.js';

test('Ctrl-C during unpack leaves nothing behind', async (t) => {
  const dir = tempDir(t);
  // 8,000 incompressible files: large enough to take the worker path and to be interrupted mid-way.
  const pieces: TarPiece[] = [{ kind: 'file', name: 'manifest.json', data: MINIMAL_MANIFEST }];
  for (let i = 0; i < 8000; i++) pieces.push({ kind: 'file', name: `f/${String(i).padStart(5, '0')}`, data: randomBytes(4096) });
  writeFileSync(path.join(dir, 'big.zot'), zot(pieces));

  const child = spawn(process.execPath, ['--no-node-snapshot', BIN, 'unpack', 'big.zot', 'out'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  // Interrupt as soon as the staging directory appears, that is, mid-extraction. The
  // watch starts before the child can have created anything: spawn has only just returned.
  let signalled = false;
  const watcher = watch(dir, () => {
    if (signalled || child.exitCode !== null || !readdirSync(dir).some((name) => name.endsWith('.unpack'))) return;
    signalled = true;
    child.kill('SIGINT');
  });
  const code = await exited;
  watcher.close();
  t.true(signalled, 'the unpack was still running when interrupted');
  t.is(code, 1, stderr);
  t.regex(stderr, /ZB_ARCHIVE_INTERRUPTED/);
  t.false(existsSync(path.join(dir, 'out')));
  t.deepEqual(readdirSync(dir), ['big.zot']);
});
