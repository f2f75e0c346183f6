// The eval host's side of grading: sends each grader to a grader process
// (grader-child.ts) and awaits its outcome. Many graders run at once in one
// process. When one leaves a thread spinning (outcome `stuck`), that process takes
// no new graders and is killed once its others are answered; a fresh one takes
// over. A process that ends on its own (a V8 abort on out-of-memory, a signal)
// takes no verdict with it: each grader it held runs once more, alone in a fresh
// process, and only one that ends its process again fails (issue 22 §3). So no
// grader can fail another's case, stop an eval from finishing, or its process from
// exiting. Grader processes run with core dumps off (RLIMIT_CORE 0).
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ZotboxError, fromWireError } from '../../../errors.js';
import type { GraderInput } from '../grader-input.js';
import { GradeAnswerSchema, type GradeRequest } from './grader-protocol.js';
import type { GraderLimits, GraderOutcome, GraderSource } from './run-grader.js';

const CHILD_FILE = fileURLToPath(new URL('./grader-child.js', import.meta.url));

/**
 * The shell line a grader process starts through: core dumps off, soft and hard
 * (Node has no setrlimit), then exec of Node itself, so the process zotbox holds
 * is the grader process. If the limit cannot be set, nothing starts.
 */
const CORE_DUMPS_OFF = 'ulimit -c 0 && exec "$0" "$@"';

/** Which try a grader is on: in the shared process, or again alone after that process ended under it. */
export type GraderAttempt = 'shared' | 'alone';

/**
 * Test seams: zotbox never passes them. `beforeSettle` holds an answer that
 * arrived before the host takes it (so a test can end the process while graders are
 * in flight); `processStarted` and `processEnded` report a grader process's pid and end.
 */
export interface GraderHostSeams {
  readonly beforeSettle?: (answer: { readonly file: string; readonly attempt: GraderAttempt }) => Promise<void>;
  readonly processStarted?: (pid: number | undefined, attempt: GraderAttempt) => void;
  readonly processEnded?: (how: { readonly code: number | null; readonly signal: NodeJS.Signals | null; readonly attempt: GraderAttempt }) => void;
}

interface Waiting {
  readonly request: GradeRequest;
  readonly resolve: (outcome: GraderOutcome) => void;
}

class GraderProcess {
  readonly pending = new Map<number, Waiting>();
  retiring = false;
  /** The host killed it (close, or a stuck isolate): what it held is not run again. */
  private killed = false;
  private ended = false;
  private readonly child: ChildProcess;

  constructor(
    readonly attempt: GraderAttempt,
    private readonly onGone: (process: GraderProcess, orphans: readonly Waiting[] | undefined) => void,
    private readonly seams: GraderHostSeams,
  ) {
    // No environment: a grader process needs nothing of the user's, and holds no key (Node adds its IPC channel's fd).
    // --no-node-snapshot: isolated-vm crashes at random on Node 20 with the startup snapshot.
    this.child = spawn('/bin/sh', ['-c', CORE_DUMPS_OFF, process.execPath, '--no-node-snapshot', CHILD_FILE], {
      env: {},
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
      serialization: 'json',
    });
    this.child.on('message', (message: unknown) => void this.answer(message));
    this.child.once('exit', (code, signal) => this.gone(code, signal));
    // It could not start, or be signalled: what it holds fails (no retry: a fresh process would fail the same way).
    this.child.once('error', () => {
      this.kill();
      this.gone(null, null);
    });
    seams.processStarted?.(this.child.pid, attempt);
  }

  send(waiting: Waiting): void {
    const { request } = waiting;
    this.pending.set(request.id, waiting);
    this.child.send(request, (error) => {
      // The channel is closed: the process is ending, and its end runs what it held again (or fails it, alone).
      if (error !== null) this.child.kill('SIGKILL');
    });
  }

  kill(): void {
    this.killed = true;
    this.child.kill('SIGKILL');
  }

  private async answer(message: unknown): Promise<void> {
    const parsed = GradeAnswerSchema.safeParse(message);
    if (!parsed.success) return; // not an answer zotbox asked for; the grade it leaves waiting fails when the process ends
    const { id, outcome } = parsed.data;
    const held = this.pending.get(id);
    if (held === undefined) return;
    if (this.seams.beforeSettle !== undefined) await this.seams.beforeSettle({ file: held.request.grader.file, attempt: this.attempt });
    const waiting = this.pending.get(id);
    if (waiting === undefined) return; // the process ended while the answer was held: the grader runs again
    const result: GraderOutcome = outcome.ok
      ? { ok: true, verdict: { pass: outcome.verdict.pass, reason: outcome.verdict.reason, ...(outcome.verdict.score === undefined ? {} : { score: outcome.verdict.score }) }, timing: outcome.timing }
      : { ok: false, error: fromWireError(outcome.error), timing: outcome.timing };
    if (!result.ok && result.error.details?.['stuck'] === true) this.retiring = true;
    this.settle(id, result);
  }

  private settle(id: number, outcome: GraderOutcome): void {
    const waiting = this.pending.get(id);
    if (waiting === undefined) return;
    this.pending.delete(id);
    waiting.resolve(outcome);
    // A stuck isolate thread spins until its process dies: once nothing else waits on it, it does.
    // So does a process that ran one grader alone, once it has answered.
    if ((this.retiring || this.attempt === 'alone') && this.pending.size === 0) this.kill();
  }

  private gone(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.ended) return;
    this.ended = true;
    this.seams.processEnded?.({ code, signal, attempt: this.attempt });
    const orphans = [...this.pending.values()];
    this.pending.clear();
    if (this.killed || this.attempt === 'alone') {
      // Killed by the host (the eval is closing), or a grader alone in its process ended it a second time: it fails, and only it.
      const how = signal ?? `exit ${code ?? '?'}`;
      const why = this.killed ? `the grader process was stopped (${how}) while it ran` : `its grader process ended (${how}) while it ran, and again when it ran alone in a fresh process`;
      for (const waiting of orphans) waiting.resolve(failed(waiting.request.grader.file, why));
      this.onGone(this, undefined);
    } else {
      // Which of the graders it held ended it is not known: each runs again, alone.
      this.onGone(this, orphans);
    }
  }
}

export class GraderHost {
  private current: GraderProcess | undefined;
  private readonly all = new Set<GraderProcess>();
  private nextId = 0;
  private closed = false;

  constructor(
    private readonly limits: GraderLimits = {},
    private readonly seams: GraderHostSeams = {},
  ) {}

  grade(grader: GraderSource, input: GraderInput): Promise<GraderOutcome> {
    return new Promise((resolve) => {
      const request: GradeRequest = { type: 'grade', id: this.nextId++, grader: { source: grader.source, file: grader.file }, input, limits: { ...this.limits } };
      if (this.closed) resolve(failed(grader.file, 'the eval closed its grader processes'));
      else this.shared().send({ request, resolve });
    });
  }

  /** Kills every grader process; graders still running fail. */
  close(): void {
    this.closed = true;
    for (const process of this.all) process.kill();
  }

  private shared(): GraderProcess {
    if (this.current === undefined || this.current.retiring) this.current = this.start('shared');
    return this.current;
  }

  private start(attempt: GraderAttempt): GraderProcess {
    const started = new GraderProcess(attempt, (gone, orphans) => this.gone(gone, orphans), this.seams);
    this.all.add(started);
    return started;
  }

  private gone(process: GraderProcess, orphans: readonly Waiting[] | undefined): void {
    this.all.delete(process);
    if (this.current === process) this.current = undefined;
    for (const waiting of orphans ?? []) {
      if (this.closed) waiting.resolve(failed(waiting.request.grader.file, 'the eval closed its grader processes'));
      else this.start('alone').send({ request: { ...waiting.request, id: this.nextId++ }, resolve: waiting.resolve });
    }
  }
}

function failed(file: string, why: string): GraderOutcome {
  return {
    ok: false,
    error: new ZotboxError(
      'ZB_EVAL_GRADER_FAILED',
      `grader ${file} did not finish: ${why}. Only its case failed. Fix: keep what the grader holds small (V8 aborts its process on a huge Array or a Map that grows without end, past the isolate's memory limit), and check it for loops in getters or proxies that zotbox cannot interrupt.`,
      {
        details: { file, fault: 'process_ended' },
      },
    ),
    timing: { startMs: 0, gradeMs: 0 },
  };
}
