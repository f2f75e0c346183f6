// The ways a JS grader fails, each as one ZB_EVAL_GRADER_FAILED error whose message
// says what went wrong and how to fix it, with the grader's file and the fault in
// details. Pure: builds errors, never throws them; only the grader's case fails.
import { ZotboxError } from '../../../errors.js';
import type { Thrown } from './verdict-check.js';

/** Why a grader failed, as a stable word in details.fault (tests and reporters match on it). */
export type GraderFault =
  | 'input_too_large'
  | 'input_not_json'
  | 'syntax'
  | 'import'
  | 'load_threw'
  | 'no_grade'
  | 'threw'
  | 'unhandled_rejection'
  | 'never_settled'
  | 'verdict'
  | 'cpu_time'
  | 'memory';

const SHAPE = 'return { pass: boolean, reason: string }, with score (a number from 0 to 1) when there is one';
const BARE = 'graders run in a bare V8 isolate with only what JavaScript itself provides: no require or import, no process, console output, fetch, timers, file system or network';

function failure(file: string, fault: GraderFault, message: string, more: Readonly<Record<string, unknown>> = {}): ZotboxError {
  return new ZotboxError('ZB_EVAL_GRADER_FAILED', message, { details: { file, fault, ...more } });
}

export function inputTooLarge(file: string, bytes: number, limit: number): ZotboxError {
  return failure(
    file,
    'input_too_large',
    `the input for grader ${file} is ${bytes} bytes of JSON, over the ${limit}-byte limit, so it was not copied in. Fix: make the case produce less (fewer or smaller changed files, fewer events).`,
    {
      bytes,
      limit,
    },
  );
}

export function inputNotJson(file: string, cause: unknown): ZotboxError {
  return failure(
    file,
    'input_not_json',
    `the input for grader ${file} cannot be written as JSON (${cause instanceof Error ? cause.message : String(cause)}). This is a bug in zotbox; rerun with --debug and report it.`,
  );
}

export function syntaxError(file: string, message: string): ZotboxError {
  return failure(file, 'syntax', `grader ${file} does not compile: ${message}. Fix: correct it; a grader is an ES module that exports function grade(result).`);
}

export function importRefused(file: string, specifiers: readonly string[]): ZotboxError {
  const names = specifiers.map((specifier) => JSON.stringify(specifier)).join(', ');
  return failure(file, 'import', `grader ${file} imports ${names}, and graders have no imports: ${BARE}. Fix: remove the import and compute the verdict from the result argument alone.`, {
    specifiers: [...specifiers],
  });
}

export function loadThrew(file: string, thrown: Thrown): ZotboxError {
  return failure(file, 'load_threw', `grader ${file} threw while loading (in its top-level code): ${describe(thrown)}. Fix: keep the top level to declarations; do the work inside grade.`);
}

export function noGrade(file: string, found: string): ZotboxError {
  return failure(file, 'no_grade', `grader ${file} does not export a function named grade (its grade export is ${found}). Fix: export function grade(result) { ... } and ${SHAPE}.`);
}

export function gradeThrew(file: string, thrown: Thrown): ZotboxError {
  return failure(file, 'threw', `grade in ${file} threw ${describe(thrown)}. Fix: ${fixFor(thrown)}`);
}

export function unhandledRejection(file: string, thrown: Thrown): ZotboxError {
  return failure(file, 'unhandled_rejection', `grader ${file} left a promise rejected with no handler: ${describe(thrown)}. Fix: await or catch every promise grade makes.`);
}

export function neverSettled(file: string): ZotboxError {
  return failure(
    file,
    'never_settled',
    `grade in ${file} returned a promise that never settled: graders have no timers or I/O, so once its microtasks had run nothing was left that could settle it. Fix: resolve the promise from the input alone, or make grade synchronous.`,
  );
}

export function badVerdict(file: string, problem: string): ZotboxError {
  return failure(file, 'verdict', `grade in ${file} returned an invalid verdict: ${problem}. Fix: ${SHAPE}, and no other keys.`);
}

/** The harness around grade answered in a shape it never gives: the grader replaced a built-in the harness uses. */
export function harnessBroken(file: string): ZotboxError {
  return failure(
    file,
    'verdict',
    `what grade in ${file} returned could not be read: the grader changed a JavaScript built-in (an Array, Object or Promise method) that zotbox uses to read it. Fix: leave the built-ins as they are and ${SHAPE}.`,
  );
}

export function cpuTimeExceeded(file: string, limitMs: number, stuck: boolean): ZotboxError {
  const how = stuck
    ? ' and isolated-vm could not stop it (its thread may stay busy until zotbox exits). Fix: look for a getter or proxy that never returns on a value the grader threw or rejected a promise with'
    : ' and was stopped. Fix: make grade do less work; an endless loop or a promise chain that never ends does this';
  return failure(file, 'cpu_time', `grader ${file} ran past its CPU time limit of ${limitMs} ms${how}.`, { limit_ms: limitMs, stuck });
}

export function memoryExhausted(file: string, limitMb: number): ZotboxError {
  return failure(file, 'memory', `grader ${file} exhausted its memory limit of ${limitMb} MiB and was stopped. Fix: keep less in memory at once; a grader that collects without end does this.`, {
    limit_mb: limitMb,
  });
}

function describe(thrown: Thrown): string {
  return thrown.message === '' ? thrown.name : `${thrown.name}: ${thrown.message}`;
}

/** isolated-vm rejects every import() with exactly this message. */
const DYNAMIC_IMPORT_REFUSED = 'Not supported';

function fixFor(thrown: Thrown): string {
  if (thrown.message.includes('is not available to a grader')) return 'compute the verdict from the result argument alone.';
  if (thrown.message === DYNAMIC_IMPORT_REFUSED) return `this is how an import() is refused: ${BARE}. Remove the import() and compute the verdict from the result argument alone.`;
  return `handle that case in grade and ${SHAPE}; a grader that throws fails its case.`;
}
