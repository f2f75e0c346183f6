// OS confinement for bash with bubblewrap (issue: host §6, gate-rules §7): the
// system directories read-only, read scopes read-only, write scopes read-write,
// everything else absent; .git/hooks and .git/config inside writable roots kept
// read-only; a new network namespace (net.allow is always empty), a new PID
// namespace, die-with-parent. The gate is early denial and clear reasons; this
// is the boundary for what an approved program does with its arguments.
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { ZotboxError } from '../errors.js';
import { findProgram } from '../policy/shell-decision.js';
import { COMMAND_SEARCH_PATH } from './command-environment.js';

export type ConfineMode = 'auto' | 'require' | 'off';

export type Confinement = { readonly kind: 'none'; readonly reason: string } | { readonly kind: 'bubblewrap'; readonly bwrap: string };

/** The directories programs need, mounted read-only when they exist (as symlinks when they are symlinks on the host). */
const SYSTEM_DIRECTORIES = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc', '/opt'];

/** Finds bwrap on the fixed search path and checks it can create the namespaces it needs. */
export function detectBubblewrap(searchPath: readonly string[] = COMMAND_SEARCH_PATH): { bwrap: string } | { reason: string } {
  const found = findProgram('bwrap', searchPath);
  if (found === undefined) return { reason: 'bubblewrap (bwrap) is not installed; install the bubblewrap package' };
  const probe = spawnSync(found.foundAt, ['--ro-bind', '/', '/', '--unshare-net', '--unshare-pid', '--die-with-parent', '--', '/bin/true'], { timeout: 10_000, stdio: 'ignore' });
  if (probe.status !== 0) return { reason: 'bubblewrap is installed but cannot create namespaces here (unprivileged user namespaces may be disabled)' };
  return { bwrap: found.foundAt };
}

/** Resolves --confine: auto uses bubblewrap when it works, require insists, off never uses it. */
export function resolveConfinement(mode: ConfineMode, detect: () => { bwrap: string } | { reason: string } = detectBubblewrap): Confinement {
  if (mode === 'off') return { kind: 'none', reason: 'turned off with --confine off' };
  const detected = detect();
  if ('bwrap' in detected) return { kind: 'bubblewrap', bwrap: detected.bwrap };
  if (mode === 'require') {
    throw new ZotboxError('ZB_CONFINEMENT_UNAVAILABLE', `--confine require: ${detected.reason}. Install bubblewrap, or run with --confine auto to accept unconfined commands.`, {
      details: { reason: detected.reason },
    });
  }
  return { kind: 'none', reason: detected.reason };
}

/** How consent and inspect describe the confinement in force. */
export function describeConfinement(confinement: Confinement): string {
  return confinement.kind === 'bubblewrap'
    ? 'bubblewrap: commands see only the system directories and the scopes, with no network'
    : `none (${confinement.reason}): commands run with your permissions, checked only by the gate`;
}

export interface SandboxLayout {
  readonly readRoots: readonly string[];
  readonly writeRoots: readonly string[];
}

/**
 * The bwrap arguments that build the sandbox (up to, not including, "--chdir DIR --
 * PROGRAM ARGS"). Later mounts override earlier ones, so read roots come first,
 * then write roots, then the read-only git paths inside them.
 */
export function sandboxArguments(layout: SandboxLayout): string[] {
  const args = ['--die-with-parent', '--new-session', '--unshare-net', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try', '--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp'];
  for (const directory of SYSTEM_DIRECTORIES) {
    const stats = lstatSync(directory, { throwIfNoEntry: false });
    if (stats === undefined) continue;
    if (stats.isSymbolicLink()) args.push('--symlink', readlinkSync(directory), directory);
    else args.push('--ro-bind', directory, directory);
  }
  for (const root of layout.readRoots) if (existsSync(root)) args.push('--ro-bind', root, root);
  for (const root of layout.writeRoots) {
    if (!existsSync(root)) mkdirSync(root, { recursive: true, mode: 0o700 }); // the agent data directory on a first run
    args.push('--bind', root, root);
  }
  for (const root of layout.writeRoots) {
    const git = path.join(root, '.git');
    if (lstatSync(git, { throwIfNoEntry: false })?.isDirectory() !== true) continue;
    // Pre-created so that an agent cannot create it and plant hooks (gate-rules §7).
    const hooks = path.join(git, 'hooks');
    if (!existsSync(hooks)) mkdirSync(hooks);
    args.push('--ro-bind', hooks, hooks);
    const config = path.join(git, 'config');
    if (existsSync(config)) args.push('--ro-bind', config, config);
  }
  return args;
}
