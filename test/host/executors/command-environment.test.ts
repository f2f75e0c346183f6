// The fixed command environment switches off every program the repository's git
// configuration names (src/host/executors/command-environment.ts): here, merge
// drivers, with a real repository and a real `git merge`, confined and unconfined.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sandboxWorld } from '../../fixtures/sandbox-world.js';

/** Runs the real git in `ws` as a user would, with none of zotbox's overrides and no user or system configuration. */
function gitIn(ws: string, ...args: string[]): Buffer {
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: ws, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: ws, env, stdio: 'pipe' });
}

/** A repository in `ws` whose config defines merge driver "planted", used by f.txt, and two branches that both change f.txt. */
function repositoryWithMergeDriver(ws: string, marker: string): void {
  const git = (...args: string[]) => gitIn(ws, ...args);
  git('init', '-q', '-b', 'main');
  // What the agent would have planted: a driver that leaves a marker and resolves the merge, so git reports success.
  git('config', 'merge.planted.driver', `touch ${marker}; cp %B %A`);
  writeFileSync(path.join(ws, '.gitattributes'), 'f.txt merge=planted\n');
  writeFileSync(path.join(ws, 'f.txt'), 'base\n');
  git('add', '.');
  git('commit', '-q', '-m', 'base');
  git('checkout', '-q', '-b', 'other');
  writeFileSync(path.join(ws, 'f.txt'), 'other\n');
  git('commit', '-q', '-am', 'other');
  git('checkout', '-q', 'main');
  writeFileSync(path.join(ws, 'f.txt'), 'main\n');
  git('commit', '-q', '-am', 'main');
}

test('git merge runs no merge driver the repository configures, confined or unconfined', async (t) => {
  const world = sandboxWorld(t);
  const marker = path.join(world.ws, 'driver-ran');
  repositoryWithMergeDriver(world.ws, marker);
  // The same merge with git's own configuration, outside zotbox, does run the driver: the test can fail.
  const outside = sandboxWorld(t);
  const outsideMarker = path.join(outside.ws, 'driver-ran');
  repositoryWithMergeDriver(outside.ws, outsideMarker);
  gitIn(outside.ws, 'merge', '-q', '--no-edit', 'other');
  t.true(existsSync(outsideMarker));
  t.is(readFileSync(path.join(outside.ws, 'f.txt'), 'utf8'), 'other\n');

  for (const confined of [true, false]) {
    const result = await world.run('git -c user.name=t -c user.email=t@example.com merge --no-edit other', { confined });
    t.false(existsSync(marker), `confined: ${confined}`);
    // git ran "false" in the driver's place: the merge stops with a conflict, and f.txt keeps this branch's side.
    t.not(result.exitCode, 0, `confined: ${confined}`);
    t.regex(result.stdout, /CONFLICT \(content\): Merge conflict in f\.txt/);
    t.is(readFileSync(path.join(world.ws, 'f.txt'), 'utf8'), 'main\n');
    gitIn(world.ws, 'merge', '--abort');
  }
});
