// The sandbox a confined pool process starts in (issue 26 §3): bubblewrap with
// every namespace unshared (no network), no capabilities, a fresh /proc and
// /dev, an empty environment, and read-only binds of exactly what Node needs to
// run zotbox's agent task: the node binary and the libraries it links, zotbox's
// compiled code (package.json and dist/src), and zod. Nothing else of the host's
// file system is there: no home, no /etc but the loader's cache, no /tmp.
import { execFileSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ZotboxError } from '../../errors.js';
import { DROPPED_PRIVILEGES } from '../executors/confine/dropped-privileges.js';
import type { ProcessLauncher } from './process-workers.js';

/** The privileges every confined command drops (confine/dropped-privileges.ts), with every namespace unshared. */
const SANDBOX_FLAGS = ['--unshare-all', ...DROPPED_PRIVILEGES, '--die-with-parent', '--new-session', '--clearenv', '--proc', '/proc', '--dev', '/dev'];

let nodeFiles: readonly string[] | undefined;

/** The node binary and the shared libraries it loads, by the paths the loader opens (ldd), read once. */
function nodeRuntimeFiles(): readonly string[] {
  if (nodeFiles !== undefined) return nodeFiles;
  const node = realpathSync(process.execPath);
  let listing: string;
  try {
    listing = execFileSync('ldd', [node], { encoding: 'utf8', env: {}, timeout: 10_000 });
  } catch (cause) {
    throw new ZotboxError(
      'ZB_CONFINEMENT_UNAVAILABLE',
      `zotbox cannot list the libraries of ${node} (ldd failed: ${(cause as Error).message}), so it cannot build the pool processes' sandbox. Fix: install ldd (libc-bin), or run the pool unconfined (confine: 'off').`,
      { cause },
    );
  }
  const libraries = new Set<string>();
  for (const line of listing.split('\n')) {
    // "libc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x…)" or "/lib64/ld-linux-x86-64.so.2 (0x…)"; the vDSO has no file.
    const found = /(?:=>\s*)?(\/\S+)\s+\(0x[0-9a-f]+\)\s*$/u.exec(line.trim());
    if (found?.[1] !== undefined) libraries.add(found[1]);
  }
  const loaderCache = '/etc/ld.so.cache';
  nodeFiles = [node, ...libraries, ...(existsSync(loaderCache) ? [loaderCache] : [])];
  return nodeFiles;
}

/** The package's root (where package.json is) as Node sees it: its real path. */
function packageRoot(): string {
  return realpathSync(fileURLToPath(new URL('../../../../', import.meta.url)));
}

/** zod's package folder, found the way Node resolves it from the package: the nearest node_modules/zod above it. */
function zodFolder(root: string): string {
  for (let dir = root; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', 'zod');
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) throw new ZotboxError('ZB_INTERNAL_BUG', `zod is not installed above ${root}; reinstall zotbox.`);
  }
}

/**
 * bubblewrap's launcher for pool processes. `testFiles`: a test's entry and task
 * modules, whose folders are bound too.
 */
export function processSandbox(bwrap: string, testFiles: readonly URL[]): ProcessLauncher {
  const root = packageRoot();
  const code = path.join(root, 'dist', 'src');
  const zod = zodFolder(root);
  const binds: [string, string][] = [
    ...nodeRuntimeFiles().map((file): [string, string] => [file, file]),
    [path.join(root, 'package.json'), path.join(root, 'package.json')],
    [code, code],
    [realpathSync(zod), zod],
  ];
  for (const file of testFiles) {
    const folder = path.dirname(realpathSync(fileURLToPath(file)));
    if (!binds.some(([, target]) => target === folder)) binds.push([folder, folder]);
  }
  return {
    command: bwrap,
    prefix: [...SANDBOX_FLAGS, ...binds.flatMap(([source, target]) => ['--ro-bind', source, target]), '--chdir', '/', '--'],
    node: realpathSync(process.execPath),
  };
}
