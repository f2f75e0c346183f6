// Matching a suite's patterns without ever blocking the eval (issue 22 §4): every
// text_matches regex, call-matcher command regex and path glob is matched in a
// worker thread (pattern-worker.ts), one request at a time, each within a time
// bound that starts when the worker takes it up, on subjects of bounded length.
// Past either bound the worker is terminated (a fresh one takes the next request)
// and the verdict fails with ZB_EVAL_PATTERN_LIMIT; it never passes. The eval's
// signal terminates the worker at once, whatever it is matching.
import { Worker } from 'node:worker_threads';

/** How long one request may match once the worker took it up; an honest pattern on bounded text needs milliseconds. */
export const PATTERN_TIME_LIMIT_MS = 1000;
/** The most characters a pattern is matched against (a final text, a command, a path). */
export const MAX_PATTERN_SUBJECT_CHARS = 1_000_000;
/** The worker's heap: matching needs little, and a pattern that allocates without end fails alone. */
const WORKER_HEAP_MB = 64;

const WORKER_FILE = new URL('./pattern-worker.js', import.meta.url);

/** What to match: a regex (JavaScript syntax, Unicode mode) or a glob (call-match.ts); it matches when any subject does. */
export interface PatternRequest {
  readonly kind: 'regex' | 'glob';
  readonly source: string;
  readonly subjects: readonly string[];
  /** What the subjects are, for a reason: "the final text", "the command". */
  readonly what: string;
}

export type PatternOutcome = { readonly ok: true; readonly matched: boolean } | { readonly ok: false; readonly reason: string };

/** Matches patterns without blocking its caller's thread. */
export interface PatternTester {
  test(request: PatternRequest): Promise<PatternOutcome>;
}

/** An outcome with the time the pattern thread spent on it (from when it took the request up), by the host's clock. */
export interface TimedOutcome {
  readonly outcome: PatternOutcome;
  readonly spentMs: number;
}

/** A pattern tester that says how long each match took: what a case's budget is counted in (pattern-budget.ts). */
export interface TimedPatternTester extends PatternTester {
  testTimed(request: PatternRequest): Promise<TimedOutcome>;
}

/** A request as the worker gets it. */
export interface PatternJob {
  readonly id: number;
  readonly kind: 'regex' | 'glob';
  readonly source: string;
  readonly subjects: readonly string[];
}

/** The worker's answers: it started a request, then its result or why it could not match. */
export type PatternAnswer = { readonly id: number; readonly started: true } | { readonly id: number; readonly matched: boolean } | { readonly id: number; readonly error: string };

interface Waiting {
  readonly job: PatternJob;
  readonly request: PatternRequest;
  readonly resolve: (timed: TimedOutcome) => void;
  /** By the host's clock, when the thread took it up. */
  startedAt?: number;
}

export interface PatternHostOptions {
  /** Default PATTERN_TIME_LIMIT_MS. */
  readonly timeLimitMs?: number;
  /** The eval's: once aborted, every request fails at once and the worker is terminated. */
  readonly signal?: AbortSignal;
  /** Test seam: called when the worker takes up a request (production passes none). */
  readonly onStarted?: (request: PatternRequest) => void;
  /**
   * Test seam: the clock a match's time is read from, in milliseconds (default performance.now). A test gives a
   * clock that advances by a fixed step per reading, so that a case's budget runs out at a known match.
   */
  readonly clock?: () => number;
}

export class PatternHost implements TimedPatternTester {
  private readonly queue: Waiting[] = [];
  private current: Waiting | undefined;
  private worker: Worker | undefined;
  private timer: NodeJS.Timeout | undefined;
  private nextId = 0;
  private closedBecause: string | undefined;
  private readonly timeLimitMs: number;

  constructor(private readonly options: PatternHostOptions = {}) {
    this.timeLimitMs = options.timeLimitMs ?? PATTERN_TIME_LIMIT_MS;
    options.signal?.addEventListener('abort', () => this.close('the eval was interrupted before this pattern was matched'), { once: true });
    if (options.signal?.aborted === true) this.close('the eval was interrupted before this pattern was matched');
  }

  async test(request: PatternRequest): Promise<PatternOutcome> {
    return (await this.testTimed(request)).outcome;
  }

  testTimed(request: PatternRequest): Promise<TimedOutcome> {
    if (this.closedBecause !== undefined) return Promise.resolve({ outcome: { ok: false, reason: this.closedBecause }, spentMs: 0 });
    const long = request.subjects.find((subject) => subject.length > MAX_PATTERN_SUBJECT_CHARS);
    if (long !== undefined) {
      return Promise.resolve({
        outcome: limit(`${request.what} is ${long.length} characters, over the ${MAX_PATTERN_SUBJECT_CHARS} a suite pattern is matched against, so /${shown(request.source)}/ was not matched`),
        spentMs: 0,
      });
    }
    return new Promise((resolve) => {
      this.queue.push({ job: { id: this.nextId++, kind: request.kind, source: request.source, subjects: request.subjects }, request, resolve });
      this.pump();
    });
  }

  /** Terminates the worker; every request waiting, and every later one, fails with `why`. */
  close(why = 'the eval ended before this pattern was matched'): void {
    this.closedBecause ??= why;
    this.stopWorker();
    const waiting = [...(this.current === undefined ? [] : [this.current]), ...this.queue.splice(0)];
    this.current = undefined;
    for (const entry of waiting) entry.resolve({ outcome: { ok: false, reason: this.closedBecause }, spentMs: this.spentOn(entry) });
  }

  private pump(): void {
    if (this.current !== undefined || this.closedBecause !== undefined) return;
    const next = this.queue.shift();
    if (next === undefined) return;
    this.current = next;
    this.workerFor().postMessage(next.job);
  }

  private workerFor(): Worker {
    if (this.worker !== undefined) return this.worker;
    const worker = new Worker(WORKER_FILE, { env: {}, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB }, stdout: true, stderr: true });
    // Never what keeps zotbox running: the eval closes it, and an exit needs nothing from it.
    worker.unref();
    worker.on('message', (answer: PatternAnswer) => {
      if (worker === this.worker) this.answer(answer);
    });
    // Out of memory, or any other end while it held a request: that request fails; a fresh worker takes the next.
    const gone = (why: string) => {
      if (worker !== this.worker) return;
      this.stopWorker();
      this.finish(limit(`the pattern thread ended while it matched /${shown(this.current?.request.source ?? '')}/ against ${this.current?.request.what ?? 'a subject'} (${why})`));
    };
    worker.on('error', (error) => gone(error.message));
    worker.on('exit', (code) => gone(`exit ${code}`));
    this.worker = worker;
    return worker;
  }

  private answer(answer: PatternAnswer): void {
    const current = this.current;
    if (current === undefined || answer.id !== current.job.id) return;
    if ('started' in answer) {
      current.startedAt = this.now();
      this.options.onStarted?.(current.request);
      this.timer = setTimeout(() => this.timedOut(current), this.timeLimitMs);
      return;
    }
    this.finish('matched' in answer ? { ok: true, matched: answer.matched } : limit(`/${shown(current.request.source)}/ could not be matched against ${current.request.what}: ${answer.error}`));
  }

  private timedOut(waiting: Waiting): void {
    if (this.current !== waiting) return;
    this.stopWorker();
    this.finish(
      limit(
        `/${shown(waiting.request.source)}/ ran past its ${this.timeLimitMs} ms bound on ${waiting.request.what} (a pattern that backtracks without end, such as nested quantifiers) and was stopped`,
      ),
    );
  }

  private finish(outcome: PatternOutcome): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const current = this.current;
    this.current = undefined;
    if (current !== undefined) current.resolve({ outcome, spentMs: this.spentOn(current) });
    this.pump();
  }

  private now(): number {
    return (this.options.clock ?? performance.now.bind(performance))();
  }

  /** The thread's time on a request so far: none when it never took it up. */
  private spentOn(waiting: Waiting): number {
    return waiting.startedAt === undefined ? 0 : Math.max(0, this.now() - waiting.startedAt);
  }

  private stopWorker(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const worker = this.worker;
    this.worker = undefined;
    // terminate() stops a spinning regex at its next interrupt check; what it resolves to is not needed.
    void worker?.terminate();
  }
}

export function limit(why: string): PatternOutcome {
  return { ok: false, reason: `ZB_EVAL_PATTERN_LIMIT: ${why}. Fix: make the pattern linear (no nested quantifiers such as (\\w+\\s?)+), or match a shorter text` };
}

export function shown(source: string): string {
  return source.length > 200 ? `${source.slice(0, 200)}…` : source;
}
