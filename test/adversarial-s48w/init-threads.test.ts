// The host's own check that a reused sandbox's init is alone counts its threads: a thread is neither a child of the
// init nor a member of its own in cgroup.procs, so without the count an init that keeps one (here a stand-in,
// fake-init.ts, installed in a copy of the package before the process that uses it starts) would be reused while its
// thread runs between calls and during the aftercare. zotbox's own init is single-threaded: this is the second line.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../fixtures/temp.js';
import { fakeInitProgram } from './fake-init.js';

const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const PACKAGE = path.dirname(DIST);

test('an init with a second thread is never reused: the sandbox is ended when the call ends', (t) => {
  const root = realpathSync(tempDir(t, 'zb-advwarm-'));
  const ws = path.join(root, 'ws');
  const copy = path.join(root, 'zotbox');
  mkdirSync(ws);
  mkdirSync(copy);
  for (const part of ['dist/src', 'dist/test/fixtures', 'dist/test/adversarial-s48w', 'build/Release', 'package.json']) cpSync(path.join(PACKAGE, part), path.join(copy, part), { recursive: true });
  symlinkSync(path.join(PACKAGE, 'node_modules'), path.join(copy, 'node_modules'));
  const init = path.join(copy, 'build', 'Release', 'zotbox_warm_init');
  writeFileSync(init, fakeInitProgram(path.join(ws, 'fake-init-ran'), path.join(ws, 'lurker')));
  chmodSync(init, 0o755);
  const child = path.join(copy, 'dist', 'test', 'adversarial-s48w', 'init-threads-child.js');
  const report = JSON.parse(execFileSync(process.execPath, ['--no-node-snapshot', child, root], { encoding: 'utf8', timeout: 120_000 })) as { used: string[]; outputs: string[] };
  t.deepEqual(report.outputs, ['one\n', 'two\n']);
  t.deepEqual(report.used, ['warm', 'warm']);
});
