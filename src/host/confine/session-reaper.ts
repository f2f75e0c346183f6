// Unconfined commands have no PID namespace to end them (issue 9 §2). Each is
// started as the leader of a new session (spawn's detached), and when it ends,
// every process still in that session is killed: `sleep 47 &` left behind by a
// shell that already exited is found by its session id, where a process-group
// kill misses it once the group's leader is gone. The documented limit: a
// process that calls setsid(2) itself leaves the session and is not found.
import { readFileSync, readdirSync } from 'node:fs';

/** The session id of a process, from /proc/<pid>/stat (field 6, after the parenthesised name). */
function sessionOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[3]);
  } catch {
    return undefined; // exited meanwhile
  }
}

/** Kills every process whose session is `session`; returns how many were signalled. */
export function killSession(session: number): number {
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
