// Unconfined commands have no PID namespace to end them (issue 9 §2). Each is
// started as the leader of a new session (spawn's detached), and when it ends,
// every process still in that session is killed: `sleep 47 &` left behind by a
// shell that already exited is found by its session id, where a process-group
// kill misses it once the group's leader is gone. The documented limit: a
// process that calls setsid(2) itself leaves the session and is not found.
import { readFileSync, readdirSync } from 'node:fs';

/** The session id and state of a live process, from /proc/<pid>/stat (fields 3 and 6, after the parenthesised name); undefined for a zombie. */
function statusOf(pid: number): { readonly session: number; readonly stopped: boolean } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // A zombie has exited already (only its parent's wait is owed): signalling it changes nothing.
    if (fields[0] === 'Z' || fields[0] === 'X') return undefined;
    return { session: Number(fields[3]), stopped: fields[0] === 'T' || fields[0] === 't' };
  } catch {
    return undefined; // exited meanwhile
  }
}

/** Sends `signal` to every process one scan of /proc finds in `session` (with SIGSTOP, only to those not stopped yet); returns how many. */
function signalSessionOnce(session: number, signal: 'SIGSTOP' | 'SIGKILL'): number {
  let signalled = 0;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return 0; // no /proc (not Linux): only the group kill in the executor applies
  }
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    const status = statusOf(pid);
    if (status === undefined || status.session !== session || (signal === 'SIGSTOP' && status.stopped)) continue;
    try {
      process.kill(pid, signal);
      signalled++;
    } catch {
      // exited between the scan and the signal
    }
  }
  return signalled;
}

/** Scans before giving up on a session that keeps forking. */
const MAX_SCANS = 1000;

/**
 * Kills every process in `session`. First it stops them, scanning again until a
 * scan finds none still running: a stopped process cannot fork, so a chain that
 * forks and exits faster than a scan cannot outrun it, however slow the machine.
 * Then it kills them all, again until a scan finds none.
 */
export function killSession(session: number): number {
  for (let scan = 0; scan < MAX_SCANS && signalSessionOnce(session, 'SIGSTOP') > 0; scan++);
  let total = 0;
  for (let scan = 0; scan < MAX_SCANS; scan++) {
    const killed = signalSessionOnce(session, 'SIGKILL');
    if (killed === 0) return total;
    total += killed;
  }
  return total;
}
