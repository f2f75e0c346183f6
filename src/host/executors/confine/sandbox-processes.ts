// The process of a confined command's sandbox that becomes the command: while
// the start script waits for the host's go (command-isolation.ts), the sandbox is
// bubblewrap's monitor (the host's child), the sandbox's init (the pid bubblewrap
// reports on --info-fd) and init's one child, the start script, which execs the
// command. Nothing forks until the host releases the script, so moving the script
// into the command's cgroup then puts everything the command will ever start
// there (issue 21 §9: no wrapper shell to exec per command); bubblewrap's own two
// processes only wait and reap. Only reads /proc; a sandbox not shaped so is refused.
import { readdirSync, readFileSync } from 'node:fs';
import { ZotboxError } from '../../../errors.js';

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

/** The parent pid in /proc/PID/stat (the field after the state, after the last ")": a command name may hold one). */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined; // exited while the scan listed it
  }
}

/** The children of a single-threaded process: its task's children file, or a scan of /proc where the kernel has none. */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .split(' ')
      .filter((field) => field.trim() !== '')
      .map(Number);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  // Kernels built without CONFIG_PROC_CHILDREN: every process's parent, read from /proc.
  if (parentOf(pid) === undefined) throw new Error(`process ${pid} is gone`);
  return readdirSync('/proc')
    .filter((entry) => /^[0-9]+$/u.test(entry))
    .map(Number)
    .filter((candidate) => parentOf(candidate) === pid);
}

function unshaped(why: string): ZotboxError {
  return new ZotboxError(
    'ZB_CONFINEMENT_UNAVAILABLE',
    `command refused: it must run in a cgroup with its limits, and its sandbox's processes could not be told apart before it started: ${why}. Nothing ran; retry, and if it persists, \`zotbox doctor\` checks the sandbox.`,
    { details: { reason: 'cgroup', cause: 'other' } },
  );
}

/** The start script's pid; throws ZB_CONFINEMENT_UNAVAILABLE unless the sandbox is shaped as above. */
export function startScriptOf(monitor: number, init: number): number {
  if (parentOf(init) !== monitor) throw unshaped(`the sandbox's init (pid ${init}) is not the child of bubblewrap (pid ${monitor})`);
  let children: number[];
  try {
    children = childrenOf(init);
  } catch (error) {
    throw unshaped(`the children of the sandbox's init (pid ${init}) cannot be read (${String(error)})`);
  }
  if (children.length !== 1) throw unshaped(`the sandbox's init (pid ${init}) has ${children.length} child processes, not the one start script`);
  return children[0]!;
}
