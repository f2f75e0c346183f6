// Unconfined commands have no PID namespace to end them (issue 9 §2). Each is
// started as the leader of a new session (spawn's detached), and when it ends,
// every process still in that session is killed: `sleep 47 &` left behind by a
// shell that already exited is found by its session id, where a process-group
// kill misses it once the group's leader is gone. The documented limit: a
// process that calls setsid(2) itself leaves the session and is not found.
import { readFileSync, readdirSync } from 'node:fs';

/** The session id of a live process, from /proc/<pid>/stat (field 6, after the parenthesised name); undefined for a zombie. */
function sessionOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // A zombie has exited already (only its parent's wait is owed): signalling it changes nothing.
    return fields[0] === 'Z' || fields[0] === 'X' ? undefined : Number(fields[3]);
  } catch {
    return undefined; // exited meanwhile
  }
}

/** Signals every process found in `session` by one scan of /proc; returns how many were signalled. */
function killSessionOnce(session: number): number {
  let killed = 0;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return 0; // no /proc (not Linux): only the group kill in the executor applies
  }
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid || sessionOf(pid) !== session) continue;
    try {
      process.kill(pid, 'SIGKILL');
      killed++;
    } catch {
      // exited between the scan and the signal
    }
  }
  return killed;
}

/** Scans before giving up on a session that keeps forking (each scan kills all it finds). */
const MAX_SCANS = 1000;

/**
 * Kills every process in `session`, scanning again until a scan finds none: a
 * process forked between one scan and its kills is found by the next (a chain
 * that forks and exits would otherwise outrun a single pass).
 */
export function killSession(session: number): number {
  let total = 0;
  for (let scan = 0; scan < MAX_SCANS; scan++) {
    const killed = killSessionOnce(session);
    if (killed === 0) return total;
    total += killed;
  }
  return total;
}
