// Runs one JS grader in a fresh isolated-vm isolate of its own, under a memory and a
// CPU time limit, and returns its checked verdict or the reason it failed. The input
// goes in as JSON text, only primitives come out; the isolate is disposed on every
// path. It never throws or rejects for anything a grader does (docs/eval.md).
import ivm from 'isolated-vm';
import { ZotboxError } from '../../../errors.js';
import type { GraderInput, GraderVerdict } from '../grader-input.js';
import * as fail from './grader-failure.js';
import { HARNESS_SOURCE } from './grader-harness.js';
import { boundedText, checkVerdict, ReadRecordSchema, StartRecordSchema, type Thrown } from './verdict-check.js';

/** Memory limit of a grader's isolate, in MiB (isolated-vm's memoryLimit; its minimum is 8). */
export const GRADER_MEMORY_MB = 64;
/** CPU time limit of a grader, in ms: loading its module, grade, and reading the verdict together. */
export const GRADER_CPU_TIME_MS = 2000;
/** Largest grader input, as UTF-8 JSON, that is copied into an isolate. */
export const GRADER_INPUT_MAX_BYTES = 8 * 1024 * 1024;
/**
 * How long past its CPU limit an isolate may stay busy before the host stops waiting.
 * isolated-vm's own timeout stops every loop in grader code; it cannot stop one in a
 * getter it calls itself while copying an unhandled rejection out (5.0.4), and then
 * the host must not wait for ever.
 */
export const GRADER_WATCHDOG_GRACE_MS = 1000;
const WATCHDOG_POLL_MS = 50;

export interface GraderSource {
  /** The module's text. */
  readonly source: string;
  /** Where it came from: named in errors and stack traces. */
  readonly file: string;
}

export interface GraderLimits {
  readonly memoryMb?: number;
  readonly cpuTimeMs?: number;
}

/**
 * Where a grader's time went, in ms of wall-clock time on the host: `startMs` from
 * the call to a ready isolate (isolate, context and harness); `gradeMs` from then to
 * the outcome (compiling and loading the module, grade, reading and checking the
 * verdict). Their sum is the overhead a grader adds to its case (bench: grader overhead).
 */
export interface GraderTiming {
  readonly startMs: number;
  readonly gradeMs: number;
}

export type GraderOutcome = { readonly ok: true; readonly verdict: GraderVerdict; readonly timing: GraderTiming } | { readonly ok: false; readonly error: ZotboxError; readonly timing: GraderTiming };

interface Limits {
  readonly memoryMb: number;
  readonly cpuTimeMs: number;
}

type Result = { readonly ok: true; readonly verdict: GraderVerdict } | { readonly ok: false; readonly error: ZotboxError };

/**
 * Runs `grade(input)` from the grader module in an isolate of its own.
 * Rejects only for a caller's mistake (limits out of range, ZB_OPTION_INVALID).
 * @example
 * const outcome = await runGrader({ source: 'export function grade(r) { return { pass: r.status === "completed", reason: r.status }; }', file: 'graders/ok.js' }, input);
 * if (!outcome.ok) console.error(outcome.error.message);
 */
export async function runGrader(grader: GraderSource, input: GraderInput, limits: GraderLimits = {}): Promise<GraderOutcome> {
  const startedAt = performance.now();
  const checked = checkLimits(limits);
  const json = inputJson(grader.file, input);
  if (typeof json !== 'string') return { ok: false, error: json, timing: { startMs: performance.now() - startedAt, gradeMs: 0 } };
  const isolate = new ivm.Isolate({ memoryLimit: checked.memoryMb });
  let readyAt = startedAt;
  try {
    const result = await watched(isolate, grader.file, checked, async () => {
      const context = await isolate.createContext();
      const harness = await context.eval(HARNESS_SOURCE, { reference: true, timeout: remainingMs(isolate, checked) });
      readyAt = performance.now();
      return gradeIn(isolate, context, harness, grader, json, checked);
    });
    return { ...result, timing: { startMs: readyAt - startedAt, gradeMs: performance.now() - readyAt } };
  } finally {
    if (!isolate.isDisposed) isolate.dispose();
  }
}

function checkLimits(limits: GraderLimits): Limits {
  const memoryMb = limits.memoryMb ?? GRADER_MEMORY_MB;
  const cpuTimeMs = limits.cpuTimeMs ?? GRADER_CPU_TIME_MS;
  if (!Number.isInteger(memoryMb) || memoryMb < 8 || memoryMb > 4096) {
    throw new ZotboxError('ZB_OPTION_INVALID', `grader memoryMb is ${memoryMb}; it takes a whole number of MiB from 8 to 4096. Fix: pass one, or leave it out for ${GRADER_MEMORY_MB}.`);
  }
  if (!Number.isInteger(cpuTimeMs) || cpuTimeMs < 1 || cpuTimeMs > 600_000) {
    throw new ZotboxError('ZB_OPTION_INVALID', `grader cpuTimeMs is ${cpuTimeMs}; it takes a whole number of ms from 1 to 600000. Fix: pass one, or leave it out for ${GRADER_CPU_TIME_MS}.`);
  }
  return { memoryMb, cpuTimeMs };
}

function inputJson(file: string, input: GraderInput): string | ZotboxError {
  let json: string;
  try {
    json = JSON.stringify(input);
  } catch (cause) {
    return fail.inputNotJson(file, cause);
  }
  const bytes = Buffer.byteLength(json, 'utf8');
  return bytes > GRADER_INPUT_MAX_BYTES ? fail.inputTooLarge(file, bytes, GRADER_INPUT_MAX_BYTES) : json;
}

/** What is left of the CPU budget, as the isolated-vm timeout of the next call (a bound in time on that call; the budget itself is CPU time). */
function remainingMs(isolate: ivm.Isolate, limits: Limits): number {
  return Math.max(1, Math.ceil(limits.cpuTimeMs - busyMs(isolate)));
}

/**
 * CPU time the isolate has used, in ms; 0 once it is disposed (the call then fails
 * on its own). CPU, not wall time: on a busy machine a thread waits for a core, and
 * that wait must not count against a grader or make the watchdog take a slow grader
 * for a stuck one.
 */
function busyMs(isolate: ivm.Isolate): number {
  try {
    return isolate.isDisposed ? 0 : Number(isolate.cpuTime) / 1e6;
  } catch {
    // Disposed between the check and the read (by its memory limit, on its own thread).
    return 0;
  }
}

async function gradeIn(isolate: ivm.Isolate, context: ivm.Context, harness: ivm.Reference, grader: GraderSource, json: string, limits: Limits): Promise<Result> {
  const { file } = grader;
  let module: ivm.Module;
  try {
    module = await isolate.compileModule(grader.source, { filename: file });
  } catch (thrown) {
    return { ok: false, error: limitFailure(thrown, file, limits) ?? fail.syntaxError(file, messageOf(thrown)) };
  }
  if (module.dependencySpecifiers.length > 0) return { ok: false, error: fail.importRefused(file, module.dependencySpecifiers) };
  try {
    // No specifier reaches here; the resolver refuses any that did rather than trust the check above.
    await module.instantiate(context, (specifier) => {
      throw new Error(specifier);
    });
  } catch (thrown) {
    return { ok: false, error: limitFailure(thrown, file, limits) ?? fail.importRefused(file, [messageOf(thrown)]) };
  }
  try {
    await module.evaluate({ timeout: remainingMs(isolate, limits) });
  } catch (thrown) {
    return { ok: false, error: limitFailure(thrown, file, limits) ?? fail.loadThrew(file, thrownOf(thrown)) };
  }
  const start: ivm.Reference = await harness.get('start', { reference: true });
  const read: ivm.Reference = await harness.get('read', { reference: true });
  try {
    const started = StartRecordSchema.safeParse(await start.apply(undefined, [module.namespace.derefInto(), json], { timeout: remainingMs(isolate, limits), result: { copy: true } }));
    if (!started.success) return { ok: false, error: fail.harnessBroken(file) };
    if (started.data.state === 'no_grade') return { ok: false, error: fail.noGrade(file, started.data.found) };
    const readBack = ReadRecordSchema.safeParse(await read.apply(undefined, [], { timeout: remainingMs(isolate, limits), result: { copy: true } }));
    if (!readBack.success) return { ok: false, error: fail.harnessBroken(file) };
    const record = readBack.data;
    if (record.state === 'pending') return { ok: false, error: fail.neverSettled(file) };
    if (record.state === 'threw') return { ok: false, error: fail.gradeThrew(file, bounded(record.error)) };
    const verdict = checkVerdict(record.verdict);
    return verdict.ok ? verdict : { ok: false, error: fail.badVerdict(file, verdict.problem) };
  } catch (thrown) {
    // The harness catches all that grade throws, so anything else is a limit or a
    // promise the grader rejected and left, which isolated-vm throws at the call.
    return { ok: false, error: limitFailure(thrown, file, limits) ?? fail.unhandledRejection(file, thrownOf(thrown)) };
  }
}

/**
 * Runs `work` on the isolate, and gives up on it if the isolate stays busy past its
 * limit and the grace: then it disposes the isolate and reports the CPU limit.
 */
async function watched(isolate: ivm.Isolate, file: string, limits: Limits, work: () => Promise<Result>): Promise<Result> {
  const pending = work().catch((thrown: unknown): Result => ({ ok: false, error: limitFailure(thrown, file, limits) ?? fail.unhandledRejection(file, thrownOf(thrown)) }));
  let timer: NodeJS.Timeout | undefined;
  const overrun = new Promise<Result>((resolve) => {
    timer = setInterval(() => {
      if (busyMs(isolate) <= limits.cpuTimeMs + GRADER_WATCHDOG_GRACE_MS) return;
      try {
        isolate.dispose();
      } catch {
        // Already disposed: by its memory limit, or the work finished in between; either way it is gone.
      }
      resolve({ ok: false, error: fail.cpuTimeExceeded(file, limits.cpuTimeMs, true) });
    }, WATCHDOG_POLL_MS);
  });
  try {
    return await Promise.race([pending, overrun]);
  } finally {
    clearInterval(timer);
  }
}

/** The CPU or memory limit, when that is what stopped the isolate. */
function limitFailure(thrown: unknown, file: string, limits: Limits): ZotboxError | undefined {
  const message = messageOf(thrown);
  if (message.includes('due to memory limit')) return fail.memoryExhausted(file, limits.memoryMb);
  if (message === 'Script execution timed out.') return fail.cpuTimeExceeded(file, limits.cpuTimeMs, false);
  return undefined;
}

/** isolated-vm rebuilds what the isolate threw as a host Error (or a primitive); only its name and message are kept. */
function thrownOf(thrown: unknown): Thrown {
  if (thrown instanceof Error) return bounded({ name: thrown.name, message: thrown.message });
  return bounded({ name: 'a thrown value', message: String(thrown) });
}

function messageOf(thrown: unknown): string {
  return thrown instanceof Error ? thrown.message : String(thrown);
}

function bounded(thrown: Thrown): Thrown {
  return { name: boundedText(thrown.name), message: boundedText(thrown.message) };
}
