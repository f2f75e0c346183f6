// The session reaper (src/host/executors/confine/session-reaper.ts) ends every
// process of an unconfined command's session. The race that let a fork chain
// escape it is made to happen at the worst moment by its seam: after a scan has
// listed /proc and before it reads the states, the chain's head starts its
// successor and exits, so the scan sees only an exited process.
import test, { type ExecutionContext } from 'ava';
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { killSession } from '../../../../src/host/executors/confine/session-reaper.js';
import { tempDir } from '../../../fixtures/temp.js';

/** Live (not zombie) processes whose session is `session`. */
function liveMembers(session: number): number[] {
  return readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return fields[0] !== 'Z' && fields[0] !== 'X' && Number(fields[3]) === session;
      } catch {
        return false; // exited while listing
      }
    })
    .map(Number);
}

/** Blocks until `pid` has exited (a zombie or gone), awaiting the kernel's pidfd event. */
function awaitExit(pid: number): void {
  const script = 'import os, select, sys\ntry:\n    fd = os.pidfd_open(int(sys.argv[1]))\nexcept ProcessLookupError:\n    sys.exit(0)\nselect.select([fd], [], [])\n';
  execFileSync('/usr/bin/python3', ['-c', script, String(pid)]);
}

/**
 * A chain in a session of its own: each link is a bash that writes its pid to `ready`, then
 * waits on a FIFO of its own (`go-PID`); a line there makes it start the next link in the
 * background and exit. No signal is involved: a trapped signal that lands between bash's
 * check for pending traps and its blocking read is lost, which hung this test under load.
 */
function startChain(t: ExecutionContext) {
  const dir = tempDir(t, 'zb-reaper-');
  const ready = path.join(dir, 'ready');
  execFileSync('mkfifo', [ready]);
  const link = path.join(dir, 'link.sh');
  writeFileSync(link, 'go="${1%/*}/go-$$"\nmkfifo "$go"\necho $$ > "$1"\nread -r _ < "$go"\nbash "$0" "$1" &\nexit 0\n');
  const leader = spawn('bash', [link, ready], { detached: true, stdio: 'ignore' });
  const pids = new Set<number>();
  t.teardown(() => {
    for (const pid of [leader.pid!, ...pids, ...liveMembers(leader.pid!)]) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone: what the test expects
      }
    }
  });
  let head = Number(readFileSync(ready, 'utf8'));
  const passOn = () => {
    const previous = head;
    writeFileSync(path.join(dir, `go-${previous}`), 'pass on\n');
    head = Number(readFileSync(ready, 'utf8'));
    pids.add(head);
    awaitExit(previous);
  };
  return { session: leader.pid!, passOn };
}

test('a chain whose head starts the next link and exits after each scan lists /proc is ended, not outrun', (t) => {
  const { session, passOn } = startChain(t);
  t.is(liveMembers(session).length, 1);
  let scans = 0;
  // The first three scans each see the head exit and miss its successor; the reaper must scan again.
  killSession(session, {
    afterListing: () => {
      if (scans++ < 3) passOn();
    },
  });
  t.true(scans > 3);
  t.deepEqual(liveMembers(session), []);
});

test('without the seam, a waiting chain is ended by one call', (t) => {
  const { session } = startChain(t);
  t.true(killSession(session) > 0);
  t.deepEqual(liveMembers(session), []);
});
