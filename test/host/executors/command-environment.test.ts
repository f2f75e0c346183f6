// The fixed command environment (src/host/executors/command-environment.ts),
// with real programs: every program the repository's git configuration names is
// switched off (here merge drivers, with a real repository and a real `git
// merge`, confined and unconfined), and a project's own npm scripts run confined
// as a developer runs them (issue 24 §3): `npm test` and `npm run build` decided
// by the gate in allowlist mode and run in the real sandbox, with the machine's
// npm and with npm 10 and npm 11 (dev dependencies npm-10 and npm-11); npm 10.9
// and 11 refuse to start when one file is both the user and the global config.
// Expectations written by hand.
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { executeBash, type BashResult } from '../../../src/host/executors/bash.js';
import { COMMAND_SEARCH_PATH, TRUSTED_PROGRAM_DIRECTORIES } from '../../../src/host/executors/command-environment.js';
import { compileScopes } from '../../../src/policy/scopes.js';
import { decideShellCommand, type ShellContext } from '../../../src/policy/shell-decision.js';
import { confinedIsolation } from '../../fixtures/isolation.js';
import { sandboxWorld } from '../../fixtures/sandbox-world.js';
import { tempDir } from '../../fixtures/temp.js';

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

const require = createRequire(import.meta.url);

/** The directory of an npm release installed as a dev dependency, canonical (node_modules may be a link). */
function npmPackage(name: 'npm-10' | 'npm-11'): string {
  return realpathSync(path.dirname(require.resolve(`${name}/package.json`)));
}

const PROJECT = {
  name: 'tiny-project',
  version: '1.0.0',
  private: true,
  scripts: { test: 'node check.js', build: 'node build.js' },
};

function npmWorld(t: ExecutionContext): { ws: string; run: (command: string) => Promise<BashResult> } {
  const root = realpathSync(tempDir(t, 'zb-npm-'));
  const ws = path.join(root, 'ws');
  mkdirSync(ws);
  writeFileSync(path.join(ws, 'package.json'), JSON.stringify(PROJECT));
  writeFileSync(path.join(ws, 'check.js'), "if (1 + 1 !== 2) process.exit(1);\nconsole.log('tests ok');\n");
  writeFileSync(path.join(ws, 'build.js'), "require('node:fs').mkdirSync('out', { recursive: true });\nrequire('node:fs').writeFileSync('out/built.txt', 'built');\n");
  const releases = [npmPackage('npm-10'), npmPackage('npm-11')];
  const agentData = path.join(root, 'data');
  const scopes = compileScopes({ read: ['${workspace}', ...releases], write: ['${workspace}'] }, { workspace: ws, agentData });
  const shell: ShellContext = { mode: 'allowlist', allow: ['npm', 'node'], scopes, searchPath: COMMAND_SEARCH_PATH, trustedDirectories: TRUSTED_PROGRAM_DIRECTORIES, confined: true };
  const isolation = confinedIsolation({ readRoots: [ws, ...releases], writeRoots: [ws], agentData });
  return {
    ws,
    run: (command) => {
      const decision = decideShellCommand(command, shell);
      if (!decision.allow) throw new Error(`the gate denied ${command}: ${decision.reason}`);
      return executeBash(decision, { workspace: ws, timeoutMs: 120_000, outputCapBytes: 65_536, isolation, shell });
    },
  };
}

test("the machine's npm runs a project's test and build scripts confined", async (t) => {
  const world = npmWorld(t);
  const tested = await world.run('npm test');
  t.is(tested.exitCode, 0, tested.stderr);
  t.regex(tested.stdout, /^tests ok$/mu);
  const built = await world.run('npm run build');
  t.is(built.exitCode, 0, built.stderr);
  t.is(readFileSync(path.join(world.ws, 'out', 'built.txt'), 'utf8'), 'built');
});

for (const [name, major] of [
  ['npm-10', '10'],
  ['npm-11', '11'],
] as const) {
  test(`npm ${major} runs a project's test and build scripts confined`, async (t) => {
    const world = npmWorld(t);
    const cli = path.join(npmPackage(name), 'bin', 'npm-cli.js');
    const version = await world.run(`node ${cli} --version`);
    t.is(version.exitCode, 0, version.stderr);
    t.is(version.stdout.split('.')[0], major);
    const tested = await world.run(`node ${cli} test`);
    t.is(tested.exitCode, 0, tested.stderr);
    t.regex(tested.stdout, /^tests ok$/mu);
    const built = await world.run(`node ${cli} run build`);
    t.is(built.exitCode, 0, built.stderr);
    t.is(readFileSync(path.join(world.ws, 'out', 'built.txt'), 'utf8'), 'built');
  });
}
