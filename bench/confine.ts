// The cost of confinement per bash call: `true` run by the bash executor inside the
// sandbox (build the sandbox, walk the write scope for git metadata before and
// after, start bubblewrap) and unconfined, against spawning the same program
// directly (the baseline), in a small workspace and in one shaped like a
// JavaScript repository (this checkout's node_modules: hundreds of directories).
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMMAND_SEARCH_PATH, TRUSTED_PROGRAM_DIRECTORIES } from '../src/host/executors/command-environment.js';
import { createCommandIsolation } from '../src/host/executors/confine/command-isolation.js';
import { scanGitMetadata } from '../src/host/executors/confine/git-inventory.js';
import { resolveConfinement } from '../src/host/executors/confine/mode.js';
import { executeBash } from '../src/host/executors/bash.js';
import type { ApprovedShell } from '../src/policy/gate-server.js';
import { compileScopes } from '../src/policy/scopes.js';
import { decideShellCommand, type ShellContext } from '../src/policy/shell-decision.js';
import { formatTable, measure, measurePair } from './harness.js';

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

export async function runConfineBench(): Promise<void> {
  const confinement = resolveConfinement('required');
  if (confinement.kind !== 'bubblewrap') throw new Error(`the confinement bench needs bubblewrap: ${confinement.kind === 'unavailable' ? confinement.reason : 'off'}`);
  const scratch = realpathSync(mkdtempSync(path.join(tmpdir(), 'zb-bench-confine-')));
  try {
    const small = path.join(scratch, 'small');
    const large = path.join(scratch, 'large');
    cpSync(path.join(REPOSITORY, 'src'), small, { recursive: true });
    cpSync(path.join(REPOSITORY, 'node_modules'), path.join(large, 'node_modules'), { recursive: true, verbatimSymlinks: true });
    const rows: string[][] = [];
    for (const [label, workspace] of [
      ['small workspace', small],
      ['node_modules-sized workspace', large],
    ] as const) {
      const layout = { readRoots: [workspace], writeRoots: [workspace] };
      const { decision, shell } = approveTrue(workspace);
      const run = (kind: 'confined' | 'unconfined') => () =>
        executeBash(decision, { workspace, timeoutMs: 30_000, outputCapBytes: 4096, shell, isolation: createCommandIsolation(kind === 'confined' ? confinement : { kind: 'unconfined' }, layout) });
      const spawnTrue = () => spawnAndWait('/usr/bin/true', []);
      const confined = await measurePair({ name: 'spawn', fn: spawnTrue }, { name: 'confined', fn: run('confined') }, { warmup: 3, samples: 21 });
      const unconfined = await measurePair({ name: 'spawn', fn: spawnTrue }, { name: 'unconfined', fn: run('unconfined') }, { warmup: 3, samples: 21 });
      const walk = await measure('walk', () => scanGitMetadata([workspace]), { warmup: 2, samples: 15 });
      // bubblewrap alone, with a minimal sandbox: what the kernel and bwrap themselves cost.
      const bwrapAlone = await measure(
        'bwrap',
        () =>
          spawnAndWait(confinement.bwrap, [
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
          ]),
        { warmup: 3, samples: 21 },
      );
      rows.push(
        [`${label}: confined call`, confined.b.medianMs.toFixed(2), confined.a.medianMs.toFixed(2), `${confined.speedup.toFixed(1)}×`],
        [`${label}: unconfined call`, unconfined.b.medianMs.toFixed(2), unconfined.a.medianMs.toFixed(2), `${unconfined.speedup.toFixed(1)}×`],
        [`${label}: one git-metadata walk`, walk.medianMs.toFixed(2), '-', '-'],
        [`${label}: bare bwrap running true (reference)`, bwrapAlone.medianMs.toFixed(2), '-', '-'],
      );
    }
    process.stdout.write(formatTable(['measure (median ms)', 'zotbox', 'spawn /usr/bin/true', 'zotbox ÷ spawn'], rows));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
