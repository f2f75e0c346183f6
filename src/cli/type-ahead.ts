// Input typed before the --approve prompt opened must not answer it (adv27). Outside
// a chat nothing reads the terminal while a run streams, so keys typed then (an "a"
// and Enter meant for something else, a paste) wait: in the terminal's input queue,
// or in the stream's buffer once Node has read them. Both are dropped just before the
// prompt is drawn, so the answer is typed after the question was on screen.
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';

/**
 * The helper programs, by absolute path in the system's own directories only: they run on the host with the user's
 * rights, so a PATH that holds a workspace directory (npm run's node_modules/.bin, direnv's PATH_add) must not choose
 * them (adv27b). A file that root does not own, or that others may write, is not used.
 */
const HELPERS: readonly (readonly [readonly string[], readonly string[]])[] = [
  [
    ['/usr/bin/perl', '/bin/perl'],
    ['-MPOSIX', '-e', 'POSIX::tcflush(0, POSIX::TCIFLUSH) or exit 1'],
  ],
  [
    ['/usr/bin/python3', '/bin/python3'],
    // -I: isolated (no current directory or user site on sys.path, no PYTHON* variables): termios is not built in,
    // so a termios.py in the workspace would otherwise be imported (adv27c).
    ['-I', '-c', 'import termios; termios.tcflush(0, termios.TCIFLUSH)'],
  ],
];

function systemProgram(candidates: readonly string[]): string | undefined {
  return candidates.find((file) => {
    const stats = statSync(file, { throwIfNoEntry: false });
    return stats !== undefined && stats.isFile() && stats.uid === 0 && (stats.mode & 0o022) === 0;
  });
}

/**
 * Flushes the kernel's input queue of the terminal on fd 0 (tcflush TCIFLUSH). Node has no binding for it;
 * perl's POSIX module (perl-base, present wherever perl is) does, with python3 as the fallback. Best effort:
 * without either the stream's own buffer is still dropped.
 */
function flushTerminalInput(): void {
  for (const [candidates, args] of HELPERS) {
    const program = systemProgram(candidates);
    if (program === undefined) continue;
    // cwd "/": nothing a helper looks up relative to its directory can be the agent's (the workspace is usually ours).
    const flushed = spawnSync(program, args, { stdio: [0, 'ignore', 'ignore'], env: {}, cwd: '/' });
    if (flushed.error === undefined && flushed.status === 0) return;
  }
}

/** Drops input waiting on `stdin` when the prompt is about to be drawn: the kernel's queue of a real terminal, and the stream's buffer. */
export function discardTypeAhead(stdin: NodeJS.ReadableStream & { isTTY?: boolean; fd?: number }): void {
  if (stdin.isTTY === true && stdin.fd === 0) flushTerminalInput();
  // In flowing mode (a chat's keyboard watcher) nothing waits in the buffer: its reader has it already.
  if ((stdin as { readableFlowing?: boolean | null }).readableFlowing === true) return;
  // read() returns null once the buffer is empty (its type says it never does).
  const next = (): unknown => stdin.read();
  while (next() !== null) {
    // dropped: typed before the question was shown
  }
}
