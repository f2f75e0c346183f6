// The bash executor. In allowlist mode it runs the approved line itself,
// pipeline by pipeline, ; && || with bash's semantics: just before a pipeline
// starts, the gate decides it again (decidePipeline) against the filesystem as
// the earlier commands left it, from the directory the line's cd steps reached,
// and the executor runs the steps of that decision, never the up-front plan: one
// process per command (the canonical program, the argv as approved, argv[0] as
// written), pipes between them. A pipeline denied then stops the line. In ask
// mode it runs the string with bash -c. How each command starts (inside a
// sandbox built for the call, or unconfined on the user's explicit opt-out) is
// the isolation's (confine/command-isolation.ts). Every command gets the fixed
// environment with a private HOME, no TTY and a closed stdin, a time limit that
// kills its whole process group, and capped output. A confined command also has
// resource limits (confine/command-limits.ts): the first it reaches stops the line,
// and the result says which (ZB_COMMAND_LIMIT).
import { spawn, type ChildProcess } from 'node:child_process';
import { PassThrough, type Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { ErrorCode } from '../../errors.js';
import type { NetConnection } from '../../policy/net-allow.js';
import type { ApprovedShell } from '../../policy/gate-server.js';
import { decidePipeline, describeSimpleCommand, directoryAfter, shellStartDirectory, type PlannedStep, type ShellContext } from '../../policy/shell-decision.js';
import type { ShellAst } from '../../policy/shell-parse.js';
import type { CallIsolation, CommandIsolation, CommandLaunch, CommandSpec, HandoffLaunch } from './confine/command-isolation.js';
import type { HandedOff } from './confine/warm-calls.js';
import { inheritableDescriptors, nullDescriptor } from './confine/inherited-descriptors.js';
import { killSession } from './confine/session-reaper.js';
import { limitOfExit, limitReport, type LimitReport } from './confine/command-limits.js';

export interface BashRunOptions {
  /** Where ask-mode commands start (the workspace). */
  readonly workspace: string;
  readonly timeoutMs: number;
  /** Bytes kept of stdout and of stderr each; the rest is counted and dropped. */
  readonly outputCapBytes: number;
  readonly signal?: AbortSignal;
  /** How commands start: confined, or unconfined only on the user's opt-out. */
  readonly isolation: CommandIsolation;
  /** The gate's shell context (the one its decider uses): allowlisted pipelines are decided again with it when they start. */
  readonly shell: ShellContext;
}

/** A command the gate denied when it was about to run; it and everything after it did not run. */
export interface GateStop {
  readonly code: ErrorCode;
  readonly reason: string;
  /** The denied command as the agent wrote it (argv joined by spaces). */
  readonly command: string;
}

export interface BashResult {
  /** Set when a command reached one of its resource limits: it and everything the call started were killed. */
  readonly limit?: LimitReport;
  /** Set when the gate denied a command of the line just before it ran (exit code 126); absent otherwise. */
  readonly stoppedByGate?: GateStop;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
  /** True when output beyond the cap was dropped (a notice is appended to the text). */
  readonly truncated: boolean;
  readonly timedOut: boolean;
  readonly durationMs: number;
  /** With net.allow: each connection attempt the commands made through the sandbox's proxy (absent when none). */
  readonly network?: readonly NetConnection[];
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
  private readonly children: { readonly child: ChildProcess; readonly contained: boolean }[] = [];
  /** Commands handed to the run's reused sandbox: each is ended through its init. */
  private readonly handedOff: (() => void)[] = [];
  timedOut = false;
  /** Set once killAll ran: a sandbox still being verified was killed, not refused. */
  stopped = false;
  /** The first resource limit a command reached; the call is killed then. */
  limit: LimitReport | undefined;
  reachLimit(report: LimitReport): void {
    if (this.limit !== undefined) return;
    this.limit = report;
    this.killAll();
  }
  /** `contained`: every process the child starts stays in a PID namespace that ends with the group (CommandLaunch). */
  add(child: ChildProcess, contained: boolean): void {
    this.children.push({ child, contained });
  }
  addHandedOff(kill: () => void): void {
    this.handedOff.push(kill);
  }
  killAll(): void {
    this.stopped = true;
    for (const kill of this.handedOff) kill();
    for (const { child, contained } of this.children) {
      if (child.pid === undefined) continue;
      // The whole group, even when its leader has exited: what it started may still be running.
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is already gone
      }
      // And the whole session (each command leads its own), which also holds processes that left the group. A
      // confined command's processes cannot leave its PID namespace, which the group kill ends: no /proc scan.
      if (!contained) killSession(child.pid);
    }
  }
}

type Status = { code: number | null; signal: string | null };

/** A command started through the call's isolation: its output streams and its end. */
interface StartedCommand {
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;
  /** Tells `push` why the command could not start (a spawn error), if it could not. */
  onError(push: (text: string) => void): void;
  readonly exit: Promise<Status>;
}

/** Starts one command through the call's isolation; `stdin` is the pipeline's upstream command's output. */
function startCommand(call: CallIsolation, command: CommandSpec, stdin: Readable | 'ignore', group: ProcessGroupSet): StartedCommand {
  const launch = call.launch(command);
  return launch.kind === 'handoff' ? startHandedOff(launch, group) : spawnCommand(launch, command, stdin, group);
}

/** Runs the command in the run's reused sandbox: its output flows through as it comes, the exit waits for both ends. */
function startHandedOff(launch: HandoffLaunch, group: ProcessGroupSet): StartedCommand {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let handed: HandedOff | undefined;
  group.addHandedOff(() => handed?.kill());
  const exit = launch
    .start(() => group.stopped)
    .then(
      async (started): Promise<Status> => {
        if (started === undefined) {
          stdout.end();
          stderr.end();
          return { code: null, signal: 'SIGKILL' }; // stopped before it started: nothing ran
        }
        handed = started;
        if (group.stopped) started.kill(); // a timeout or cancel while it was being handed over
        started.watch((limit) => group.reachLimit(limitReport(limit, launch.limits.values[limit])));
        started.stdout.pipe(stdout);
        started.stderr.pipe(stderr);
        const [status] = await Promise.all([started.exit, finished(stdout), finished(stderr)]);
        const limit = limitOfExit(status.code, status.signal);
        if (limit !== undefined) group.reachLimit(limitReport(limit, launch.limits.values[limit]));
        return status;
      },
      (error: unknown) => {
        stdout.end();
        stderr.end();
        throw error;
      },
    );
  return { stdout, stderr, onError: () => undefined, exit };
}

/** Spawns the command (confined: bubblewrap, which waits for the isolation's verification before it runs it). */
function spawnCommand(launch: CommandLaunch, command: CommandSpec, stdin: Readable | 'ignore', group: ProcessGroupSet): StartedCommand {
  const stdio: (Readable | number | 'ignore' | 'pipe')[] = [stdin, 'pipe', 'pipe', ...launch.extraStdio];
  // What zotbox inherited without close-on-exec must not reach the command: /dev/null is laid over each.
  for (const fd of inheritableDescriptors()) {
    while (stdio.length <= fd) stdio.push('ignore');
    if (fd >= 3 + launch.extraStdio.length) stdio[fd] = nullDescriptor();
  }
  const child = spawn(launch.file, [...launch.args], {
    ...(launch.argv0 === undefined ? {} : { argv0: launch.argv0 }),
    cwd: launch.hostCwd ?? command.cwd,
    env: launch.env,
    stdio,
    detached: true, // its own process group and session, so a timeout kills everything it started
  });
  group.add(child, launch.contained);
  // Confined, the command waits in its sandbox until the isolation has verified it; a refusal fails the pipeline.
  const started = launch.started?.(child.pid, child.stdio.slice(3, 3 + launch.extraStdio.length), () => group.stopped) ?? Promise.resolve();
  const limits = launch.limits;
  limits?.watch((limit) => group.reachLimit(limitReport(limit, limits.values[limit])));
  // On exit, not on close: a background process left holding the output pipe would otherwise hold 'close' back.
  const released = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      // A limit its cgroup shows is reported here, before the exit status is read for one.
      const removal = launch.done(child.pid);
      const limit = limitOfExit(code, signal);
      if (limits !== undefined && limit !== undefined) group.reachLimit(limitReport(limit, limits.values[limit]));
      void (removal ?? Promise.resolve()).then(resolve);
    });
    child.once('error', () => resolve()); // never spawned: no exit, nothing to release
  });
  // The command has ended once its process has closed its streams and what it ran in (its cgroup) is gone.
  const exit = Promise.all([waitForExit(child), released]).then(([status]) => status);
  return {
    stdout: child.stdout,
    stderr: child.stderr,
    onError: (push) => child.on('error', (error) => push(`${command.argv0}: ${error.message}\n`)),
    exit: started.then(
      () => exit,
      async (error: unknown) => {
        await exit;
        throw error;
      },
    ),
  };
}

function waitForExit(child: ChildProcess): Promise<{ code: number | null; signal: string | null }> {
  return new Promise((resolve) => {
    child.once('error', () => resolve({ code: 127, signal: null }));
    child.once('close', (code, signal) => resolve({ code, signal }));
  });
}

/** Runs one pipeline of exec steps (the gate allows cd only alone, and the line runs that itself). */
async function runPipeline(
  steps: readonly PlannedStep[],
  call: CallIsolation,
  stdout: CappedText,
  stderr: CappedText,
  group: ProcessGroupSet,
): Promise<{ code: number | null; signal: string | null }> {
  call.beginPipeline(steps.filter((step) => step.kind === 'exec').length);
  const exits: Promise<Status>[] = [];
  let previous: StartedCommand | undefined;
  for (const [index, step] of steps.entries()) {
    if (step.kind !== 'exec') continue; // never: decidePipeline allows cd only alone in its pipeline
    const last = index === steps.length - 1;
    const argv0 = step.argv[0]!; // an allowed command always has a program word
    let started: StartedCommand;
    try {
      started = startCommand(
        call,
        { cwd: step.cwd, program: step.program, invokedPath: step.invokedPath, argv0, args: step.argv.slice(1), assignments: step.env },
        previous?.stdout ?? 'ignore',
        group,
      );
    } catch (error) {
      previous?.stdout?.destroy();
      await Promise.all(exits);
      throw error; // a sandbox that cannot be built safely runs nothing more
    }
    // The next command now holds the pipe; the parent's paused copy would keep the
    // previous command's stdio open forever, so its 'close' would never come.
    previous?.stdout?.destroy();
    started.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    started.onError((text) => stderr.push(Buffer.from(text)));
    if (last) started.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
    exits.push(started.exit);
    previous = started;
  }
  const results = await Promise.all(exits);
  return results[results.length - 1]!; // a pipeline's status is its last command's, as in bash
}

/** bash's status for a command that could not be executed. */
const CANNOT_EXECUTE = 126;

/**
 * Runs an allowlisted line: each pipeline whose connector lets it run is decided
 * again from the directory the line has reached, then run as that decision says.
 * A denial stops the line: it is no failure for || or ; to continue from.
 */
async function runLine(
  ast: ShellAst,
  options: BashRunOptions,
  call: CallIsolation,
  stdout: CappedText,
  stderr: CappedText,
  group: ProcessGroupSet,
): Promise<{ status: { code: number | null; signal: string | null }; stoppedByGate?: GateStop }> {
  let status: { code: number | null; signal: string | null } = { code: 0, signal: null };
  let cwd = shellStartDirectory(options.shell);
  for (const item of ast.items) {
    if (group.timedOut || group.limit !== undefined || options.signal?.aborted) {
      // The rest of the line never ran: its status is not the last command's success.
      return { status: { code: null, signal: 'SIGKILL' } };
    }
    const runs = item.connector === null || item.connector === ';' || (item.connector === '&&' ? status.code === 0 : status.code !== 0);
    if (!runs) continue;
    // Synchronous, and runPipeline spawns before its first await: nothing of this line runs between the decision and the start.
    const decided = decidePipeline(item.pipeline, options.shell, cwd);
    if (!decided.allow) {
      return { status: { code: CANNOT_EXECUTE, signal: null }, stoppedByGate: { code: decided.code, reason: decided.reason, command: describeSimpleCommand(decided.command) } };
    }
    if (decided.steps[0]?.kind === 'cd') {
      // A lone cd, decided just now (inside the read scopes, an existing directory): it moves the line and succeeds.
      cwd = directoryAfter(decided.steps, cwd);
      status = { code: 0, signal: null };
      continue;
    }
    status = await runPipeline(decided.steps, call, stdout, stderr, group);
  }
  return { status };
}

export async function executeBash(decision: ApprovedShell, options: BashRunOptions): Promise<BashResult> {
  // Before the time limit starts: a call waits here while another run's call holds an overlapping write scope (scope-lock.ts).
  let call: CallIsolation;
  try {
    call = await options.isolation.beginCall(options.signal);
  } catch (error) {
    // Cancelled while it waited: nothing ran, reported as a line cut short.
    if (options.signal?.aborted === true) return { exitCode: null, signal: 'SIGKILL', stdout: '', stderr: '', truncated: false, timedOut: false, durationMs: 0 };
    throw error;
  }
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
  let stoppedByGate: GateStop | undefined;
  try {
    if (decision.mode === 'ask') {
      const started = startCommand(call, { cwd: options.workspace, program: '/bin/bash', invokedPath: '/bin/bash', argv0: 'bash', args: ['-c', decision.command] }, 'ignore', group);
      started.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
      started.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
      status = await started.exit;
    } else {
      const line = await runLine(decision.ast, options, call, stdout, stderr, group);
      status = line.status;
      stoppedByGate = line.stoppedByGate;
    }
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    group.killAll();
    // The git aftercare runs whatever happened: a command that failed may still have planted a hook.
    call.finish();
  }
  const notices = [
    ...(group.limit === undefined ? [] : [`[zotbox: ${group.limit.code}: ${group.limit.message}]`]),
    ...(stoppedByGate === undefined ? [] : [`[zotbox: ${JSON.stringify(stoppedByGate.command)} was denied when it was about to run: ${stoppedByGate.reason}]`]),
    ...(group.timedOut ? [`[zotbox: killed after ${options.timeoutMs} ms]`] : []),
  ];
  const errors = stderr.text();
  const network = call.connections();
  return {
    ...(group.limit === undefined ? {} : { limit: group.limit }),
    // First when present, so that it leads what the model reads and the tool.result summary (the first 200 characters).
    ...(stoppedByGate === undefined ? {} : { stoppedByGate }),
    exitCode: status.code,
    signal: status.signal,
    stdout: stdout.text(),
    stderr: notices.length === 0 ? errors : `${errors}${errors === '' || errors.endsWith('\n') ? '' : '\n'}${notices.join('\n')}`,
    truncated: stdout.dropped + stderr.dropped > 0,
    timedOut: group.timedOut,
    durationMs: Date.now() - started,
    ...(network.length === 0 ? {} : { network }),
  };
}
