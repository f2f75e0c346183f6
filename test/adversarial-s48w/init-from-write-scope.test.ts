// Finding: the host opens the warm init by its path (WARM_INIT_PROGRAM, in the package's build/Release) each time it
// starts a warm sandbox, within the run. When the package lies in a write scope (a project that installs zotbox in
// its node_modules), a call can replace it and get the sandbox dropped (a 'D', a new repository, a limit change):
// the next call's sandbox then runs the agent's program as its PID 1, the process the host trusts to kill and reap
// every process, to wipe /tmp, HOME and /dev/shm, and to answer truthfully. Its threads are neither its children nor
// other members of the cgroup, so the host's own "alone" check passes while it keeps running between calls and
// during the host's git aftercare. A fresh sandbox per call ran only bwrap and /bin/sh from outside every scope.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../fixtures/temp.js';

/** dist/, as this file runs from dist/test/adversarial-s48w/; the package root above it. */
const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const PACKAGE = path.dirname(DIST);

test("a warm init program inside a write scope, replaced by one call, is never run as a later sandbox's init", (t) => {
  const root = realpathSync(tempDir(t, 'zb-advwarm-'));
  const ws = path.join(root, 'ws');
  const copy = path.join(ws, 'node_modules', 'zotbox');
  mkdirSync(path.join(root, 'state', 'agents', 'tester', 'data'), { recursive: true });
  mkdirSync(copy, { recursive: true });
  for (const part of ['dist/src', 'dist/test/fixtures', 'dist/test/adversarial-s48w', 'build/Release', 'package.json']) cpSync(path.join(PACKAGE, part), path.join(copy, part), { recursive: true });
  symlinkSync(path.join(PACKAGE, 'node_modules'), path.join(copy, 'node_modules'));
  const child = path.join(copy, 'dist', 'test', 'adversarial-s48w', 'init-from-write-scope-child.js');
  const report = JSON.parse(execFileSync(process.execPath, ['--no-node-snapshot', child, root], { encoding: 'utf8', timeout: 120_000 })) as {
    first: [number, string];
    second: [number, string, string];
    third: string;
    used: string[];
    threads: number;
    replacedInitRan: boolean;
  };
  t.log(report);
  t.is(report.second[1], 'second\n'); // the calls ran
  t.is(report.third, 'third\n');
  // Safe: the replaced program never runs as an init (the host runs the init it opened before any call, or refuses).
  t.false(report.replacedInitRan, 'the program the agent wrote ran as the sandbox init');
  t.true(report.threads <= 1, 'a thread of the sandbox init outlived the call and the aftercare');
});
