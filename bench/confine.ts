// The cost of confinement per bash call: `true` run by the bash executor inside the
// sandbox (plan the sandbox, walk the write scope for git metadata before and
// after, then hand the command to the run's reused sandbox, or start one) and
// unconfined, against a bare bubblewrap sandbox
// running the same program (the baseline, issue 21 §9: a confined call within 2×
// of it whatever the workspace's size), in a small workspace, one shaped like a
// JavaScript repository (this checkout's node_modules) and generated ones of
// 20,000 and 100,000 directories. A floor row runs bubblewrap with the call's own
// sandbox arguments and `true` directly: what the mount set alone costs. The walk alone is timed four ways: watched with
// nothing changed (the calls above), watched after a change deep in the tree, with
// the stat-based cache only (the fallback when the watch cannot vouch), and uncached.
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { COMMAND_SEARCH_PATH, TRUSTED_PROGRAM_DIRECTORIES } from '../src/host/executors/command-environment.js';
import { createCommandIsolation, type CommandIsolation, type SandboxProbe } from '../src/host/executors/confine/command-isolation.js';
import { isShapedLikeGitDirectory, scanGitMetadata } from '../src/host/executors/confine/git-inventory.js';
import { ScopeWalker } from '../src/host/executors/confine/scope-walk.js';
import { resolveConfinement } from '../src/host/executors/confine/mode.js';
import { executeBash } from '../src/host/executors/bash.js';
import { prepareSandbox, type SandboxLayout } from '../src/host/executors/confine/sandbox-plan.js';
import { buildSeccompFilter } from '../src/host/executors/confine/seccomp-filter.js';
import type { ApprovedShell } from '../src/policy/gate-server.js';
import { isGitDirectoryName } from '../src/policy/git-control.js';
import { compileScopes } from '../src/policy/scopes.js';
import { decideShellCommand, type ShellContext } from '../src/policy/shell-decision.js';
import { formatTable, measure, measureRounds } from './harness.js';

const REPOSITORY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

function spawnAndWait(file: string, args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, [...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.once('error', reject);
    child.once('close', () => resolve());
  });
}

function approveTrue(workspace: string): { decision: ApprovedShell; shell: ShellContext } {
  const scopes = compileScopes({ read: ['${workspace}'], write: ['${workspace}'] }, { workspace, agentData: workspace });
  const shell: ShellContext = { mode: 'allowlist', allow: ['true'], scopes, searchPath: COMMAND_SEARCH_PATH, trustedDirectories: TRUSTED_PROGRAM_DIRECTORIES };
  const decision = decideShellCommand('true', shell);
  if (!decision.allow) throw new Error(decision.reason);
  return { decision, shell };
}

/** `count` directories below `root`, ten to a directory (breadth first), each holding one small file. */
function makeTree(root: string, count: number): void {
  mkdirSync(root);
  const queue = [root];
  let made = 0;
  for (let head = 0; made < count; head++) {
    const parent = queue[head]!;
    for (let i = 0; i < 10 && made < count; i++, made++) {
      const directory = path.join(parent, `d${i}`);
      mkdirSync(directory);
      writeFileSync(path.join(directory, 'index.js'), 'export {};\n');
      queue.push(directory);
    }
  }
}

/** The last directory in a depth-first descent that always takes the last subdirectory. */
function makeDeepest(root: string): string {
  let directory = root;
  for (;;) {
    const subdirectories = readdirSync(directory, { withFileTypes: true }).filter((entry) => entry.isDirectory() && entry.name !== 'changed');
    const last = subdirectories.sort((a, b) => a.name.localeCompare(b.name)).pop();
    if (last === undefined) return directory;
    directory = path.join(directory, last.name);
  }
}

/**
 * bubblewrap with the call's own sandbox (every mount, the copied /etc, the seccomp filter) running `true` directly:
 * what zotbox's closed-world mount set costs in bubblewrap and the kernel, without the start script's handshake, the
 * mount verification, the cgroup or the git record and aftercare. Not a mode zotbox runs: a floor for the call.
 */
function spawnSandboxOnly(bwrap: string, layout: SandboxLayout, cwd: string): Promise<void> {
  const sandbox = prepareSandbox(layout, { seccomp: true });
  const fds = sandbox.descriptors();
  const args = [...sandbox.args, '--chdir', cwd, '--', '/usr/bin/true'];
  // fd 3 is the start channel's place (unused here), the bind sources from fd 4, then the filter's pipe.
  const child = spawn(bwrap, args, { stdio: ['ignore', 'ignore', 'ignore', 'ignore', ...fds, 'pipe'] });
  const filterInput = child.stdio[4 + fds.length] as Writable;
  filterInput.on('error', () => undefined);
  filterInput.end(buildSeccompFilter());
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      sandbox.close();
      if (code === 0) resolve();
      else reject(new Error(`bubblewrap with the call's sandbox exited ${String(code)}`));
    });
  });
}

/** bubblewrap alone, with a minimal sandbox running the same program: what the kernel and bwrap themselves cost. */
function bareBubblewrapArguments(): string[] {
  return [
    '--unshare-user',
    '--unshare-pid',
    '--unshare-net',
    '--ro-bind',
    '/usr',
    '/usr',
    '--symlink',
    'usr/bin',
    '/bin',
    '--symlink',
    'usr/lib',
    '/lib',
    '--symlink',
    'usr/lib64',
    '/lib64',
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--',
    '/usr/bin/true',
  ];
}

export async function runConfineBench(): Promise<void> {
  const confinement = resolveConfinement('required');
  if (confinement.kind !== 'bubblewrap') throw new Error(`the confinement bench needs bubblewrap: ${confinement.kind === 'unavailable' ? confinement.reason : 'off'}`);
  const scratch = realpathSync(mkdtempSync(path.join(tmpdir(), 'zb-bench-confine-')));
  try {
    const small = path.join(scratch, 'small');
    const large = path.join(scratch, 'large');
    cpSync(path.join(REPOSITORY, 'src'), small, { recursive: true });
    // realpath: in a worktree node_modules can be a link to another checkout's.
    cpSync(realpathSync(path.join(REPOSITORY, 'node_modules')), path.join(large, 'node_modules'), { recursive: true, verbatimSymlinks: true });
    const rows: string[][] = [];
    const workspaces: [string, string, () => void, number][] = [
      ['small workspace', small, () => undefined, 21],
      ['node_modules-sized workspace', large, () => undefined, 21],
      ['20,000 directories', path.join(scratch, 'd20k'), () => makeTree(path.join(scratch, 'd20k'), 20_000), 15],
      ['100,000 directories', path.join(scratch, 'd100k'), () => makeTree(path.join(scratch, 'd100k'), 100_000), 7],
    ];
    for (const [label, workspace, make, samples] of workspaces) {
      make();
      const deep = path.join(makeDeepest(workspace), 'changed');
      const layout = { readRoots: [workspace], writeRoots: [workspace] };
      const { decision, shell } = approveTrue(workspace);
      const call = (isolation: CommandIsolation) => executeBash(decision, { workspace, timeoutMs: 60_000, outputCapBytes: 4096, shell, isolation });
      /** A call in a run of its own: `cold`, a sandbox for the command alone (as pipelines and net.allow get); else the run's first call, which starts the sandbox its later calls reuse. */
      const firstOfRun = (probe: SandboxProbe | undefined) => async () => {
        const isolation = createCommandIsolation(confinement, layout, probe);
        await call(isolation);
        await isolation.release();
      };
      // One run across every sample: after the warm-up, each call reuses the run's sandbox (the steady state).
      const run = createCommandIsolation(confinement, layout);
      let rounds: Awaited<ReturnType<typeof measureRounds>>;
      try {
        rounds = await measureRounds(
          [
            { name: 'bare bwrap', fn: () => spawnAndWait(confinement.bwrap, bareBubblewrapArguments()) },
            { name: 'confined, reused sandbox', fn: () => call(run) },
            { name: 'confined, first of a run', fn: firstOfRun(undefined) },
            { name: 'confined, sandbox of its own', fn: firstOfRun({ cold: true }) },
            { name: 'unconfined', fn: () => call(createCommandIsolation({ kind: 'unconfined' }, layout)) },
            { name: 'sandbox only', fn: () => spawnSandboxOnly(confinement.bwrap, layout, workspace) },
          ],
          { warmup: 2, samples },
        );
      } finally {
        await run.release();
      }
      const [bare, reused, first, own, unconfined, sandboxOnly] = rounds.samples;
      const walk = await measure('walk', () => scanGitMetadata([workspace]), { warmup: 2, samples });
      // A directory made or removed deep in the tree before each walk: the watch names it, the rest is vouched for.
      let made = false;
      const changed = await measure(
        'walk after a change',
        () => {
          if (made) rmdirSync(deep);
          else mkdirSync(deep);
          made = !made;
          return scanGitMetadata([workspace]);
        },
        { warmup: 2, samples },
      );
      rmSync(deep, { recursive: true, force: true }); // made or not: the next workspace starts clean
      const gitWalker = () => new ScopeWalker({ entries: { git: (e) => isGitDirectoryName(e.name) }, directories: { shaped: isShapedLikeGitDirectory } });
      const statOnly = gitWalker();
      const statted = await measure('stat-checked walk', () => statOnly.walk({ roots: [workspace] }), { warmup: 2, samples: Math.min(samples, 7) });
      const fresh = await measure('uncached walk', () => gitWalker().walk({ roots: [workspace] }), { warmup: 1, samples: Math.min(samples, 7) });
      const ratio = (i: number) => `${rounds.ratios[i]!.toFixed(2)}×`;
      rows.push(
        [`${label}: bare bwrap running true (baseline)`, bare!.medianMs.toFixed(2), bare!.p99Ms.toFixed(2), '1.00×'],
        [`${label}: confined call, the run's sandbox reused`, reused!.medianMs.toFixed(2), reused!.p99Ms.toFixed(2), ratio(1)],
        [`${label}: confined call, first of a run (starts its sandbox)`, first!.medianMs.toFixed(2), first!.p99Ms.toFixed(2), ratio(2)],
        [`${label}: confined call, a sandbox of its own (pipelines, net.allow)`, own!.medianMs.toFixed(2), own!.p99Ms.toFixed(2), ratio(3)],
        [`${label}: unconfined call`, unconfined!.medianMs.toFixed(2), unconfined!.p99Ms.toFixed(2), ratio(4)],
        [`${label}: bwrap with the call's sandbox, running true (floor)`, sandboxOnly!.medianMs.toFixed(2), sandboxOnly!.p99Ms.toFixed(2), ratio(5)],
        [`${label}: one git-metadata walk (watched, nothing changed)`, walk.medianMs.toFixed(2), walk.p99Ms.toFixed(2), '-'],
        [`${label}: one git-metadata walk (watched, one deep change)`, changed.medianMs.toFixed(2), changed.p99Ms.toFixed(2), '-'],
        [`${label}: one git-metadata walk (no watch, every directory stat-ed)`, statted.medianMs.toFixed(2), statted.p99Ms.toFixed(2), '-'],
        [`${label}: one git-metadata walk (uncached)`, fresh.medianMs.toFixed(2), fresh.p99Ms.toFixed(2), '-'],
      );
      rmSync(workspace, { recursive: true, force: true });
    }
    process.stdout.write(formatTable(['measure', 'median ms', 'p99 ms', '÷ bare bwrap'], rows));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
