// The eval host's side of grading: sends each grader to a grader process
// (grader-child.ts) and awaits its outcome. Many graders run at once in one
// process. When one leaves a thread spinning (outcome `stuck`), that process takes
// no new graders and is killed once its others are answered; a fresh one takes
// over. A process that dies fails only the graders it held. So no grader can stop
// an eval from finishing or its process from exiting.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ZotboxError, fromWireError } from '../../../errors.js';
import type { GraderInput } from '../grader-input.js';
import { GradeAnswerSchema, type GradeRequest } from './grader-protocol.js';
import type { GraderLimits, GraderOutcome, GraderSource } from './run-grader.js';

const CHILD_FILE = fileURLToPath(new URL('./grader-child.js', import.meta.url));

interface Waiting {
  readonly file: string;
  readonly resolve: (outcome: GraderOutcome) => void;
}

class GraderProcess {
  readonly pending = new Map<number, Waiting>();
  retiring = false;
  private readonly child: ChildProcess;

  constructor(private readonly onGone: (process: GraderProcess) => void) {
    // No environment: a grader process needs nothing of the user's, and holds no key.
    // --no-node-snapshot: isolated-vm crashes at random on Node 20 with the startup snapshot.
    this.child = fork(CHILD_FILE, [], { env: {}, execArgv: ['--no-node-snapshot'], stdio: ['ignore', 'ignore', 'ignore', 'ipc'], serialization: 'json' });
    this.child.on('message', (message: unknown) => this.answer(message));
    this.child.once('exit', (code, signal) => this.gone(code, signal));
    this.child.once('error', () => this.kill());
  }

  send(request: GradeRequest, waiting: Waiting): void {
    this.pending.set(request.id, waiting);
    this.child.send(request, (error) => {
      if (error !== null) this.settle(request.id, failed(waiting.file, `it could not be sent to the grader process (${error.message})`));
    });
  }

  kill(): void {
    this.child.kill('SIGKILL');
  }

  private answer(message: unknown): void {
    const parsed = GradeAnswerSchema.safeParse(message);
    if (!parsed.success) return; // not an answer zotbox asked for; the grade it leaves waiting fails when the process ends
    const { id, outcome } = parsed.data;
    const waiting = this.pending.get(id);
    if (waiting === undefined) return;
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
    if (this.retiring && this.pending.size === 0) this.kill();
  }

  private gone(code: number | null, signal: NodeJS.Signals | null): void {
    for (const [id, waiting] of this.pending) this.settle(id, failed(waiting.file, `the grader process ended (${signal ?? `exit ${code ?? '?'}`}) while it ran`));
    this.onGone(this);
  }
}

export class GraderHost {
  private current: GraderProcess | undefined;
  private readonly all = new Set<GraderProcess>();
  private nextId = 0;

  constructor(private readonly limits: GraderLimits = {}) {}

  grade(grader: GraderSource, input: GraderInput): Promise<GraderOutcome> {
    return new Promise((resolve) => {
      const target = this.process();
      target.send({ type: 'grade', id: this.nextId++, grader: { source: grader.source, file: grader.file }, input, limits: { ...this.limits } }, { file: grader.file, resolve });
    });
  }

  /** Kills every grader process; graders still running fail. */
  close(): void {
    for (const process of this.all) process.kill();
  }

  private process(): GraderProcess {
    if (this.current === undefined || this.current.retiring) {
      const started = new GraderProcess((gone) => {
        this.all.delete(gone);
        if (this.current === gone) this.current = undefined;
      });
      this.all.add(started);
      this.current = started;
    }
    return this.current;
  }
}

function failed(file: string, why: string): GraderOutcome {
  return {
    ok: false,
    error: new ZotboxError(
      'ZB_EVAL_GRADER_FAILED',
      `grader ${file} did not finish: ${why}. Only its case failed. Fix: check the grader for loops in getters or proxies that zotbox cannot interrupt.`,
      {
        details: { file, fault: 'process_ended' },
      },
    ),
    timing: { startMs: 0, gradeMs: 0 },
  };
}
