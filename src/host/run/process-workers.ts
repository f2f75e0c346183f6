// The pool's process transport (issue 26 §3): agent tasks on N pool processes
// instead of worker threads. A process starts with an empty environment and only
// its three pipes (inside bubblewrap where a launcher is given). Each run's gate
// and model ports stay in the host; their messages travel as frames
// (policy/process-frames.ts), and every frame from a process is bounded and
// validated before its message reaches the port, whose handler checks it again as
// it checks a thread's. A process that exits, or breaks the protocol, fails only
// its own runs; the next task starts a new one in its place.
import { spawn, type ChildProcess } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { MessagePort } from 'node:worker_threads';
import type { z } from 'zod';
import { ZotboxError } from '../../errors.js';
import { ChildFrameSchema, FrameDecoder, encodeFrame, type ChildFrame, type HostFrame, type PortName } from '../../policy/process-frames.js';
import { inheritableDescriptors, nullDescriptor } from '../executors/confine/inherited-descriptors.js';

/** How a pool process is started: the program and the arguments before Node's own (bubblewrap's, for a confined one). */
export interface ProcessLauncher {
  readonly command: string;
  readonly prefix: readonly string[];
  /** Where Node is to be found by the launched command (inside a sandbox, the path it is mounted at). */
  readonly node: string;
}

export interface ProcessWorkersOptions {
  readonly processes: number;
  readonly maxOldGenerationSizeMb: number;
  /** The module a process runs (worker/process-entry.js), and its arguments (a test's task module). */
  readonly entryFile: URL;
  readonly entryArgs: readonly string[];
  /** Checks a task's result before the host believes it. */
  readonly resultSchema: z.ZodType;
  /** Default: Node itself, unconfined. */
  readonly launcher?: ProcessLauncher;
}

interface RunEntry {
  readonly ports: Map<PortName, MessagePort>;
  resolve(result: unknown): void;
  reject(error: ZotboxError): void;
}

/** The last stderr kept from a process, for the message when it dies. */
const STDERR_TAIL_BYTES = 2048;

class PoolProcess {
  readonly runs = new Map<number, RunEntry>();
  private readonly child: ChildProcess;
  private stderrTail = '';
  private failure: ZotboxError | undefined;
  readonly exited: Promise<void>;

  constructor(
    private readonly options: ProcessWorkersOptions,
    private readonly onGone: (gone: PoolProcess) => void,
  ) {
    const launcher = options.launcher ?? { command: process.execPath, prefix: [], node: process.execPath };
    // Real paths: what a sandbox binds, and what Node resolves package.json and zod from.
    const entry = realpathSync(fileURLToPath(options.entryFile));
    const node = launcher.prefix.length > 0 ? [launcher.node] : [];
    const args = [...launcher.prefix, ...node, `--max-old-space-size=${options.maxOldGenerationSizeMb}`, '--no-experimental-require-module', entry, ...options.entryArgs];
    // Descriptors zotbox inherited without close-on-exec get /dev/null laid over them (inherited-descriptors.ts).
    const stdio: ('pipe' | 'ignore' | number)[] = ['pipe', 'pipe', 'pipe'];
    for (const fd of inheritableDescriptors()) {
      for (let at = stdio.length; at < fd; at++) stdio[at] = 'ignore';
      stdio[fd] = nullDescriptor();
    }
    this.child = spawn(launcher.command, args, { env: {}, stdio: stdio as never, cwd: '/' });
    const decoder = new FrameDecoder();
    this.child.stdout!.on('data', (chunk: Buffer) => {
      try {
        for (const raw of decoder.push(chunk)) this.receive(raw);
      } catch (error) {
        this.breakOff(error as ZotboxError);
      }
    });
    this.child.stderr!.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
    });
    // A write to a process that has just died fails; its exit fails its runs.
    this.child.stdin!.on('error', () => undefined);
    this.exited = new Promise((resolve) => {
      this.child.once('error', (error) => {
        this.failure ??= new ZotboxError('ZB_WORKER_CRASHED', `a pool process could not be started (${error.message}).`, { cause: error });
      });
      this.child.once('close', (code, signal) => {
        this.fail(code, signal);
        resolve();
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Sends a task; its ports stay here and their messages are carried over the pipe. */
  run(id: number, task: Record<string, unknown>, ports: Map<PortName, MessagePort>): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.runs.set(id, { ports, resolve, reject });
      this.write({ type: 'task.start', run: id, task, ports: [...ports.keys()] });
      for (const [name, port] of ports) {
        port.on('message', (message: unknown) => this.carry(id, name, message));
        port.once('close', () => {
          if (this.runs.get(id)?.ports.delete(name) === true) this.write({ type: 'port.close', run: id, port: name });
        });
      }
    });
  }

  /** Ends the process: its runs fail, and close resolves once it is gone. */
  kill(): Promise<void> {
    this.child.stdin!.end();
    this.child.kill('SIGKILL');
    return this.exited;
  }

  private write(frame: HostFrame): void {
    this.child.stdin!.write(encodeFrame(frame));
  }

  /** A host answer too large for a frame is replaced by the reason, as the port's own limit would answer. */
  private carry(run: number, port: PortName, message: unknown): void {
    try {
      this.write({ type: 'port.message', run, port, message });
    } catch (error) {
      const id = (message as { id?: unknown } | null)?.id;
      const wire = (error as ZotboxError).toWire();
      if (typeof id !== 'number') return;
      if (port === 'gate') this.write({ type: 'port.message', run, port, message: { type: 'tool.result', id, ok: false, error: wire } });
      else this.write({ type: 'port.message', run, port, message: { type: 'model.response', id, ok: false, error: wire } });
    }
  }

  private receive(raw: unknown): void {
    const parsed = ChildFrameSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ZotboxError('ZB_GATE_INVALID_MESSAGE', `a pool process sent a malformed frame: ${issue?.message ?? 'invalid'} at ${issue?.path.join('.') || 'the top level'}.`);
    }
    this.handle(parsed.data);
  }

  private handle(frame: ChildFrame): void {
    if (frame.type === 'process.ready') return;
    const entry = this.runs.get(frame.run);
    if (entry === undefined) return; // a run that has ended here already
    if (frame.type === 'port.message') entry.ports.get(frame.port)?.postMessage(frame.message);
    else if (frame.type === 'port.close') {
      const port = entry.ports.get(frame.port);
      entry.ports.delete(frame.port);
      port?.close();
    } else if (frame.type === 'task.failed')
      this.settle(frame.run, (run) => run.reject(new ZotboxError('ZB_WORKER_CRASHED', `the agent task failed in its pool process (${frame.message}); only the runs on that process were affected.`)));
    else {
      const result = this.options.resultSchema.safeParse(frame.result);
      if (result.success) this.settle(frame.run, (run) => run.resolve(result.data));
      else this.settle(frame.run, (run) => run.reject(new ZotboxError('ZB_WORKER_CRASHED', `a pool process returned a malformed result: ${result.error.issues[0]?.message ?? 'invalid'}.`)));
    }
  }

  private settle(id: number, outcome: (run: RunEntry) => void): void {
    const entry = this.runs.get(id);
    if (entry === undefined) return;
    this.runs.delete(id);
    for (const port of entry.ports.values()) port.close();
    outcome(entry);
  }

  /** The process broke the protocol: it is ended, and its runs fail with the reason. */
  private breakOff(error: ZotboxError): void {
    this.failure ??= new ZotboxError('ZB_WORKER_CRASHED', `a pool process was stopped: ${error.message} Only the runs on that process were affected.`, { cause: error });
    this.child.kill('SIGKILL');
  }

  private fail(code: number | null, signal: NodeJS.Signals | null): void {
    this.onGone(this);
    const how = signal === null ? `exit status ${String(code)}` : `signal ${signal}`;
    const said = this.stderrTail.trim().split('\n').slice(-3).join(' | ');
    const error =
      this.failure ??
      new ZotboxError(
        'ZB_WORKER_CRASHED',
        `the pool process running the agent ended (${how}${said === '' ? '' : `: ${said}`}); only the runs on that process failed. Retry the run; if it keeps failing, report it with --debug output.`,
      );
    for (const id of [...this.runs.keys()]) this.settle(id, (run) => run.reject(error));
  }
}

/** N pool processes; each task goes to the one with the fewest runs, a dead one is started again when a task needs it. */
export class ProcessWorkers {
  private readonly slots: (PoolProcess | undefined)[];
  private nextRun = 1;
  private closed = false;

  constructor(private readonly options: ProcessWorkersOptions) {
    this.slots = Array.from({ length: options.processes }, () => this.start());
  }

  /** The process ids now running (for tests and diagnostics). */
  get pids(): number[] {
    return this.slots.flatMap((slot) => (slot?.pid === undefined ? [] : [slot.pid]));
  }

  run(task: Record<string, unknown>, ports: Map<PortName, MessagePort>): Promise<unknown> {
    if (this.closed) return Promise.reject(new ZotboxError('ZB_WORKER_CRASHED', 'the pool is closed.'));
    let best = 0;
    for (let index = 0; index < this.slots.length; index++) {
      this.slots[index] ??= this.start();
      if (this.slots[index]!.runs.size < this.slots[best]!.runs.size) best = index;
    }
    return this.slots[best]!.run(this.nextRun++, task, ports);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.flatMap((slot) => (slot === undefined ? [] : [slot.kill()])));
  }

  private start(): PoolProcess {
    return new PoolProcess(this.options, (gone) => {
      const index = this.slots.indexOf(gone);
      if (index >= 0) this.slots[index] = undefined;
    });
  }
}
