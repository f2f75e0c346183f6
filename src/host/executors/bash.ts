// The bash executor. In allowlist mode it runs the approved plan itself: one
// process per command (the canonical program, the argv as approved, argv[0] as
// written), pipes between the commands of a pipeline, ; && || with bash's
// semantics, each command in the working directory the gate checked it in. In
// ask mode it runs the string with bash -c. How each command starts (inside a
// sandbox built for the call, or unconfined on the user's explicit opt-out) is
// the isolation's (confine/command-isolation.ts). Every command gets the fixed
// environment with a private HOME, no TTY and a closed stdin, a time limit that
// kills its whole process group, and capped output.
import { spawn, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import type { ApprovedShell } from '../../policy/gate-server.js';
import type { PlannedStep } from '../../policy/shell-decision.js';
import type { CallIsolation, CommandIsolation, CommandSpec } from '../confine/command-isolation.js';
import { inheritableDescriptors, nullDescriptor } from '../confine/inherited-descriptors.js';
import { killSession } from '../confine/session-reaper.js';
import { reverifyCanonical } from './file-guard.js';

export interface BashRunOptions {
  /** Where ask-mode commands start (the workspace). */
  readonly workspace: string;
  readonly timeoutMs: number;
  /** Bytes kept of stdout and of stderr each; the rest is counted and dropped. */
  readonly outputCapBytes: number;
  readonly signal?: AbortSignal;
  /** How commands start: confined, or unconfined only on the user's opt-out. */
  readonly isolation: CommandIsolation;
}

export interface BashResult {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
  /** True when output beyond the cap was dropped (a notice is appended to the text). */
  readonly truncated: boolean;
  readonly timedOut: boolean;
  readonly durationMs: number;
}

class CappedText {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  dropped = 0;
  constructor(private readonly cap: number) {}
  push(chunk: Buffer): void {
    const room = this.cap - this.kept;
    if (room > 0) {
      const part = chunk.subarray(0, room);
      this.chunks.push(part);
      this.kept += part.length;
    }
    this.dropped += Math.max(0, chunk.length - Math.max(room, 0));
  }
  text(): string {
    const body = Buffer.concat(this.chunks).toString('utf8');
    return this.dropped === 0 ? body : `${body}\n[zotbox: output truncated, ${this.dropped} more bytes not shown]`;
  }
}

/** Runs a set of processes until they all exit, killing their process groups on timeout or abort. */
class ProcessGroupSet {
  private readonly children: ChildProcess[] = [];
  timedOut = false;
  add(child: ChildProcess): void {
    this.children.push(child);
  }
  killAll(): void {
    for (const child of this.children) {
      if (child.pid === undefined) continue;
      // The whole group, even when its leader has exited: what it started may still be running.
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is already gone
      }
      // And the whole session (each command leads its own), which also holds processes that left the group.
      killSession(child.pid);
    }
  }
}

/** Starts one command through the call's isolation; `previous` is the pipeline's upstream command. */
function startCommand(call: CallIsolation, command: CommandSpec, stdin: Readable | 'ignore', group: ProcessGroupSet): { child: ChildProcess; exit: Promise<{ code: number | null; signal: string | null }> } {
  const launch = call.launch(command);
  const piped = launch.pipedInput === undefined ? [] : ['pipe' as const];
  const stdio: (Readable | number | 'ignore' | 'pipe')[] = [stdin, 'pipe', 'pipe', ...launch.extraFds, ...piped];
  // What zotbox inherited without close-on-exec must not reach the command: /dev/null is laid over each.
  for (const fd of inheritableDescriptors()) {
    while (stdio.length <= fd) stdio.push('ignore');
    if (fd >= 3 + launch.extraFds.length + piped.length) stdio[fd] = nullDescriptor();
  }
  const child = spawn(launch.file, [...launch.args], {
    ...(launch.argv0 === undefined ? {} : { argv0: launch.argv0 }),
    cwd: command.cwd,
    env: launch.env,
    stdio,
    detached: true, // its own process group and session, so a timeout kills everything it started
  });
  group.add(child);
  if (launch.pipedInput !== undefined) {
    const input = child.stdio[3 + launch.extraFds.length] as Writable | null;
    input?.on('error', () => undefined); // the child exited before reading: its exit status reports why
    input?.end(launch.pipedInput);
  }
  // On exit, not on close: a background process left holding the output pipe would otherwise hold 'close' back.
  child.once('exit', () => launch.done(child.pid));
  return { child, exit: waitForExit(child) };
}

function waitForExit(child: ChildProcess): Promise<{ code: number | null; signal: string | null }> {
  return new Promise((resolve) => {
    child.once('error', () => resolve({ code: 127, signal: null }));
    child.once('close', (code, signal) => resolve({ code, signal }));
  });
}

async function runPipeline(steps: readonly PlannedStep[], call: CallIsolation, stdout: CappedText, stderr: CappedText, group: ProcessGroupSet): Promise<{ code: number | null; signal: string | null }> {
  const only = steps.length === 1 ? steps[0] : undefined;
  if (only?.kind === 'cd') {
    // The gate checked later commands from this directory; here it must still be that directory.
    try {
      reverifyCanonical(only.directory);
      if (!statSync(only.directory).isDirectory()) throw new Error('not a directory');
      return { code: 0, signal: null };
    } catch {
      stderr.push(Buffer.from(`cd: ${only.directory}: no longer an approved directory\n`));
      return { code: 1, signal: null };
    }
  }
  call.beginPipeline();
  const exits: Promise<{ code: number | null; signal: string | null }>[] = [];
  let previous: ChildProcess | undefined;
  for (const [index, step] of steps.entries()) {
    if (step.kind !== 'exec') continue; // the gate allows cd only alone in its pipeline
    const last = index === steps.length - 1;
    let started;
    try {
      started = startCommand(call, { cwd: step.cwd, program: step.program, invokedPath: step.invokedPath, argv0: step.argv[0]!, args: step.argv.slice(1), assignments: step.env }, previous?.stdout ?? 'ignore', group);
    } catch (error) {
      previous?.stdout?.destroy();
      await Promise.all(exits);
      throw error; // a sandbox that cannot be built safely runs nothing more
    }
    const child = started.child;
    // The next command now holds the pipe; the parent's paused copy would keep the
    // previous command's stdio open forever, so its 'close' would never come.
    previous?.stdout?.destroy();
    child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', (error) => stderr.push(Buffer.from(`${step.argv[0]}: ${error.message}\n`)));
    if (last) child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
    exits.push(started.exit);
    previous = child;
  }
  const results = await Promise.all(exits);
  return results[results.length - 1]!; // a pipeline's status is its last command's, as in bash
}

export async function executeBash(decision: ApprovedShell, options: BashRunOptions): Promise<BashResult> {
  const started = Date.now();
  const stdout = new CappedText(options.outputCapBytes);
  const stderr = new CappedText(options.outputCapBytes);
  const group = new ProcessGroupSet();
  const timer = setTimeout(() => {
    group.timedOut = true;
    group.killAll();
  }, options.timeoutMs);
  const onAbort = () => group.killAll();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  let status: { code: number | null; signal: string | null } = { code: 0, signal: null };
  let call: CallIsolation | undefined;
  try {
    call = options.isolation.beginCall();
    if (decision.mode === 'ask') {
      const { child, exit } = startCommand(call, { cwd: options.workspace, program: '/bin/bash', invokedPath: '/bin/bash', argv0: 'bash', args: ['-c', decision.command] }, 'ignore', group);
      child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
      child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
      status = await exit;
    } else {
      for (const item of decision.plan.items) {
        if (group.timedOut || options.signal?.aborted) {
          // The rest of the line never ran: its status is not the last command's success.
          status = { code: null, signal: 'SIGKILL' };
          break;
        }
        const runs = item.connector === null || item.connector === ';' || (item.connector === '&&' ? status.code === 0 : status.code !== 0);
        if (runs) status = await runPipeline(item.pipeline, call, stdout, stderr, group);
      }
    }
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    group.killAll();
    // The git aftercare runs whatever happened: a command that failed may still have planted a hook.
    call?.finish();
  }
  return {
    exitCode: status.code,
    signal: status.signal,
    stdout: stdout.text(),
    stderr: stderr.text() + (group.timedOut ? `\n[zotbox: killed after ${options.timeoutMs} ms]` : ''),
    truncated: stdout.dropped + stderr.dropped > 0,
    timedOut: group.timedOut,
    durationMs: Date.now() - started,
  };
}
