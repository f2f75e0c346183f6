// Unconfined commands have no PID namespace to end them (issue 9 §2). Each is
// started as the leader of a new session (spawn's detached), and when it ends,
// every process still in that session is killed: `sleep 47 &` left behind by a
// shell that already exited is found by its session id, where a process-group
// kill misses it once the group's leader is gone. The documented limit: a
// process that calls setsid(2) itself leaves the session and is not found.
import { readFileSync, readdirSync } from 'node:fs';

/** The session id and state of a process, from /proc/<pid>/stat (fields 3 and 6, after the parenthesised name); undefined once it is gone. */
function statusOf(pid: number): { readonly session: number; readonly state: 'zombie' | 'stopped' | 'live' } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // A zombie has exited already (only its parent's wait is owed): signalling it changes nothing, but it was a member.
    const state = fields[0] === 'Z' || fields[0] === 'X' ? 'zombie' : fields[0] === 'T' || fields[0] === 't' ? 'stopped' : 'live';
    return { session: Number(fields[3]), state };
  } catch {
    return undefined; // exited meanwhile
  }
}

/** What one scan found: each process it listed, read as in the session (alive or not), outside it, or gone before its state was read. */
type Listed = 'member' | 'other' | 'gone';

interface Scan {
  readonly listed: ReadonlyMap<number, Listed>;
  readonly signalled: number;
}

/**
 * Sends `signal` to every live process one scan of /proc finds in `session` (with
 * SIGSTOP, only to those not stopped yet). `afterListing` is a test seam: it runs
 * between reading the list of processes and reading their states, the moment a
 * listed process can start a child that this scan does not list, and exit.
 */
function signalSessionOnce(session: number, signal: 'SIGSTOP' | 'SIGKILL', afterListing?: () => void): Scan {
  const listed = new Map<number, Listed>();
  let signalled = 0;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return { listed, signalled }; // no /proc (not Linux): only the group kill in the executor applies
  }
  afterListing?.();
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    const status = statusOf(pid);
    listed.set(pid, status === undefined ? 'gone' : status.session === session ? 'member' : 'other');
    if (status === undefined || status.session !== session) continue;
    if (status.state === 'zombie' || (signal === 'SIGSTOP' && status.state === 'stopped')) continue;
    try {
      process.kill(pid, signal);
      signalled++;
    } catch {
      // exited between the scan and the signal
    }
  }
  return { listed, signalled };
}

/**
 * Whether `current` proves the session frozen: it and the scan before it found every
 * member stopped (or exited) already, and every process it found in the session, or
 * found gone, the scan before had listed and read. A process that forks after a scan
 * listed /proc existed at that listing; if the scan before read it, it was stopped
 * then and cannot fork; if not, this test fails and the scans go on. A child it
 * started in between is listed by the next scan (issue 21 §8: a chain that forks and
 * exits got past a single scan that saw its parent stop or exit).
 */
function provesFrozen(previous: Scan | undefined, current: Scan): boolean {
  if (previous === undefined || previous.signalled > 0 || current.signalled > 0) return false;
  for (const [pid, seen] of current.listed) {
    if (seen === 'other') continue;
    const before = previous.listed.get(pid);
    if (before === undefined || before === 'gone') return false;
  }
  return true;
}

/** Scans before giving up on a session that keeps forking. */
const MAX_SCANS = 1000;

/** Test seams: the production code passes none. */
export interface SessionReaperSeams {
  /** Called in every scan between listing /proc and reading the states of the listed processes. */
  readonly afterListing?: () => void;
}

/**
 * Kills every process in `session`. First it stops them, scanning until two scans
 * in a row prove the session frozen (provesFrozen): a stopped process cannot fork,
 * so a chain that forks and exits faster than a scan cannot outrun it, however
 * slow the machine. Then it kills them all, again until a scan finds none alive.
 */
export function killSession(session: number, seams: SessionReaperSeams = {}): number {
  let previous: Scan | undefined;
  for (let scan = 0; scan < MAX_SCANS; scan++) {
    const current = signalSessionOnce(session, 'SIGSTOP', seams.afterListing);
    if (provesFrozen(previous, current)) break;
    previous = current;
  }
  let total = 0;
  for (let scan = 0; scan < MAX_SCANS; scan++) {
    const killed = signalSessionOnce(session, 'SIGKILL', seams.afterListing).signalled;
    if (killed === 0) return total;
    total += killed;
  }
  return total;
}
