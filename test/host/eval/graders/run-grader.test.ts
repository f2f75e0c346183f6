// JS graders in isolated-vm (src/host/eval/graders/run-grader.ts, issue 14): each
// grader runs in an isolate of its own, with only what V8 gives, under a memory and
// a CPU time limit; whatever it does, runGrader resolves, with the checked verdict or
// a ZB_EVAL_GRADER_FAILED error whose details.fault says why, and only it fails.
import test, { type ExecutionContext } from 'ava';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { GRADER_INPUT_MAX_BYTES, runGrader, type GraderLimits, type GraderOutcome } from '../../../../src/host/eval/graders/run-grader.js';
import type { GraderVerdict } from '../../../../src/host/eval/grader-input.js';
import { graderInput } from '../../../fixtures/grader-input.js';
import { REPO_ROOT } from '../../../fixtures/paths.js';

/**
 * Small limits keep the tests that hit them quick. A test of anything but the CPU limit gets the largest budget: the
 * budget also bounds each isolated-vm call in wall time, which a busy machine must never reach.
 */
const FAST_CPU: GraderLimits = { cpuTimeMs: 200 };
const ROOMY_CPU_MS = 600_000;
const SMALL_MEMORY: GraderLimits = { memoryMb: 16, cpuTimeMs: ROOMY_CPU_MS };

/** A grader's outcome; with no limits given, the roomy CPU budget (no test here is about the default's size). */
function grade(source: string, limits: GraderLimits = { cpuTimeMs: ROOMY_CPU_MS }): Promise<GraderOutcome> {
  return runGrader({ source, file: 'graders/check.js' }, graderInput(), limits);
}

function verdictOf(t: ExecutionContext, outcome: GraderOutcome): GraderVerdict | undefined {
  if (outcome.ok) return outcome.verdict;
  t.fail(`the grader failed: ${outcome.error.message}`);
  return undefined;
}

/** Asserts the grader failed with ZB_EVAL_GRADER_FAILED for `fault`, naming its file, and returns the message. */
function failureOf(t: ExecutionContext, outcome: GraderOutcome, fault: string): string {
  if (outcome.ok) {
    t.fail(`the grader passed with ${JSON.stringify(outcome.verdict)}`);
    return '';
  }
  t.is(outcome.error.code, 'ZB_EVAL_GRADER_FAILED');
  t.like(outcome.error.details, { file: 'graders/check.js', fault });
  t.regex(outcome.error.message, /Fix: /);
  return outcome.error.message;
}

test('a passing grader returns its verdict, computed from the input', async (t) => {
  const outcome = await grade(`export function grade(result) {
    const added = result.files.filter((file) => file.change === 'added').map((file) => file.path);
    return { pass: result.status === 'completed' && added.includes('hello.txt'), reason: result.case.id + ' added ' + added.join(',') };
  }`);
  t.deepEqual(verdictOf(t, outcome), { pass: true, reason: 'add-file added hello.txt' });
  t.true(outcome.timing.startMs > 0 && outcome.timing.gradeMs > 0);
});

test('a failing grader returns pass false with its reason and score', async (t) => {
  const outcome = await grade(`export function grade(result) { return { pass: false, score: 0.25, reason: 'expected 4 turns, took ' + result.turns }; }`);
  t.deepEqual(verdictOf(t, outcome), { pass: false, score: 0.25, reason: 'expected 4 turns, took 2' });
});

test('scores 0 and 1 are in range', async (t) => {
  t.deepEqual(verdictOf(t, await grade(`export function grade() { return { pass: false, score: 0, reason: 'none' }; }`)), { pass: false, score: 0, reason: 'none' });
  t.deepEqual(verdictOf(t, await grade(`export function grade() { return { pass: true, score: 1, reason: 'all' }; }`)), { pass: true, score: 1, reason: 'all' });
});

test('an async grader is awaited', async (t) => {
  const outcome = await grade(`export async function grade(result) {
    const text = await Promise.resolve(result.final_text);
    await null;
    return { pass: text.startsWith('Added'), reason: 'final text checked' };
  }`);
  t.deepEqual(verdictOf(t, outcome), { pass: true, reason: 'final text checked' });
});

test('a grader that loops forever fails with the CPU time reason', async (t) => {
  const message = failureOf(t, await grade('export function grade() { for (;;) {} }', FAST_CPU), 'cpu_time');
  t.regex(message, /ran past its CPU time limit of 200 ms/);
});

test('a grader whose promise chain never ends fails with the CPU time reason (microtasks are timed too)', async (t) => {
  failureOf(t, await grade('export async function grade() { for (;;) await null; }', FAST_CPU), 'cpu_time');
});

test('a grader that loops at load time fails with the CPU time reason', async (t) => {
  failureOf(t, await grade('for (;;) {}\nexport function grade() {}', FAST_CPU), 'cpu_time');
});

test('a grader that allocates without bound fails with the memory reason; the process survives and the next grader works', async (t) => {
  const message = failureOf(t, await grade('export function grade() { const hoard = []; for (;;) hoard.push(new Array(1e5).fill(Math.random())); }', SMALL_MEMORY), 'memory');
  t.regex(message, /exhausted its memory limit of 16 MiB/);
  t.deepEqual(verdictOf(t, await grade(`export function grade() { return { pass: true, reason: 'after' }; }`)), { pass: true, reason: 'after' });
});

test("the memory limit is the one given, well below isolated-vm's own 128 MiB: 64 MiB kept fails at 16 MiB and passes at 256 MiB", async (t) => {
  // About 64 MiB of doubles, held until grade returns: between the limit given and the isolate's default.
  const hoarder = 'export function grade() { const hoard = []; for (let i = 0; i < 80; i++) hoard.push(new Array(1e5).fill(Math.random())); return { pass: hoard.length === 80, reason: "kept" }; }';
  t.regex(failureOf(t, await grade(hoarder, SMALL_MEMORY), 'memory'), /exhausted its memory limit of 16 MiB/);
  t.deepEqual(verdictOf(t, await grade(hoarder, { memoryMb: 256, cpuTimeMs: ROOMY_CPU_MS })), { pass: true, reason: 'kept' });
});

const reachesFor = test.macro({
  async exec(t, body: string, said: RegExp) {
    const message = failureOf(t, await grade(`export async function grade() { ${body} }`), 'threw');
    t.regex(message, said);
  },
  title: (_given, body: string) => `a grader that reaches for the host (${body}) fails only itself, saying it is not available`,
});

test(reachesFor, `require('node:fs');`, /require is not available to a grader/);
test(reachesFor, `return process.env;`, /process is not available to a grader/);
test(reachesFor, `return globalThis.process.env;`, /process is not available to a grader/);
test(reachesFor, `await fetch('http://127.0.0.1:9/');`, /fetch is not available to a grader/);
test(reachesFor, `await new Promise((resolve) => setTimeout(resolve, 1));`, /setTimeout is not available to a grader/);
test(reachesFor, `return typeof Buffer;`, /Buffer is not available to a grader/);
test(reachesFor, `await import('node:fs');`, /import\(\) is refused.*no require or import/);

test('a grader with a static import is refused before it runs, naming the import', async (t) => {
  const outcome = await grade(`import fs from 'node:fs';\nexport function grade() { return { pass: true, reason: String(fs) }; }`);
  const message = failureOf(t, outcome, 'import');
  t.like(!outcome.ok && outcome.error.details, { specifiers: ['node:fs'] });
  t.regex(message, /imports "node:fs", and graders have no imports/);
});

test('graders that reach for the host fail only themselves: a passing grader run with them passes', async (t) => {
  const outcomes = await Promise.all([
    grade(`export function grade() { return process.exit(1); }`),
    grade(`import { readFileSync } from 'node:fs';\nexport function grade() { return readFileSync('/etc/passwd'); }`),
    grade(`export function grade() { return { pass: true, reason: 'unaffected' }; }`),
    grade(`export async function grade() { await import('node:child_process'); }`),
  ]);
  t.deepEqual(
    outcomes.map((outcome) => outcome.ok),
    [false, false, true, false],
  );
  const [, , unaffected] = outcomes;
  t.deepEqual(unaffected.ok && unaffected.verdict, { pass: true, reason: 'unaffected' });
});

test("V8's own console exists and drops what is logged: a grader that logs still passes", async (t) => {
  const outcome = await grade(`export function grade() { console.log('checking'); console.error('still checking'); return { pass: true, reason: 'logged' }; }`);
  t.deepEqual(verdictOf(t, outcome), { pass: true, reason: 'logged' });
});

test('a grader that throws fails with the thrown message', async (t) => {
  const message = failureOf(t, await grade(`export function grade() { throw new TypeError('no report.json in the workspace'); }`), 'threw');
  t.regex(message, /threw TypeError: no report\.json in the workspace/);
});

test('an async grader that rejects fails with the rejection message', async (t) => {
  const message = failureOf(t, await grade(`export async function grade() { await null; throw new Error('late failure'); }`), 'threw');
  t.regex(message, /threw Error: late failure/);
});

test('a grader that throws in its top-level code fails as it loads', async (t) => {
  const message = failureOf(t, await grade(`throw new Error('broken at load');\nexport function grade() {}`), 'load_threw');
  t.regex(message, /broken at load/);
});

test('a grader that does not compile fails with the syntax error', async (t) => {
  failureOf(t, await grade('export function grade( {'), 'syntax');
});

const withoutGrade = test.macro({
  async exec(t, source: string) {
    const message = failureOf(t, await grade(source), 'no_grade');
    t.regex(message, /does not export a function named grade/);
  },
  title: (given) => `a grader without a grade function export fails: ${given ?? ''}`,
});

test('no grade export at all', withoutGrade, `export function check() { return { pass: true, reason: 'x' }; }`);
test('a default export only', withoutGrade, `export default function grade() { return { pass: true, reason: 'x' }; }`);
test('grade is not a function', withoutGrade, `export const grade = { pass: true, reason: 'x' };`);

const wrongShape = test.macro({
  async exec(t, returned: string, problem: RegExp) {
    const message = failureOf(t, await grade(`export function grade() { return ${returned}; }`), 'verdict');
    t.regex(message, problem);
  },
  title: (_given, returned: string) => `a grader returning ${returned} fails as an invalid verdict`,
});

test(wrongShape, `{ pass: true }`, /has no reason/);
test(wrongShape, `{ reason: 'x' }`, /has no pass/);
test(wrongShape, `{ pass: 'yes', reason: 'x' }`, /pass is a string, not a boolean/);
test(wrongShape, `{ pass: true, reason: 42 }`, /reason is a number, not a string/);
test(wrongShape, `{ pass: true, score: 2, reason: 'x' }`, /score is 2, outside 0 to 1/);
test(wrongShape, `{ pass: true, score: NaN, reason: 'x' }`, /score is NaN, outside 0 to 1/);
test(wrongShape, `{ pass: true, score: Infinity, reason: 'x' }`, /score is Infinity, outside 0 to 1/);
test(wrongShape, `{ pass: true, score: '0.5', reason: 'x' }`, /score is a string, not a number/);
test(wrongShape, `{ pass: true, score: undefined, reason: 'x' }`, /score is undefined, not a number/);
test(wrongShape, `{ pass: true, reason: 'x', details: {} }`, /has key "details", which a verdict does not have/);
test(wrongShape, `{ pass: true, reason: 'x', [Symbol('s')]: 1 }`, /symbol keys/);
test(wrongShape, `42`, /returned a number, not an object/);
test(wrongShape, `null`, /returned null, not an object/);
test(wrongShape, `undefined`, /returned undefined, not an object/);
test(wrongShape, `[true, 'x']`, /returned an array, not an object/);
test(wrongShape, `new Map([['pass', true], ['reason', 'x']])`, /not a plain object/);

test('a grader whose promise never settles fails instead of hanging', async (t) => {
  const message = failureOf(t, await grade(`export function grade() { return new Promise(() => {}); }`), 'never_settled');
  t.regex(message, /never settled/);
});

test('the input is deeply frozen: mutating it throws in module code, so the grader fails', async (t) => {
  const message = failureOf(t, await grade(`export function grade(result) { result.files[0].content = 'rewritten'; return { pass: true, reason: 'x' }; }`), 'threw');
  t.regex(message, /TypeError: Cannot assign to read only property 'content'/);
});

test('a grader sees its input frozen at every depth', async (t) => {
  const outcome = await grade(`export function grade(result) {
    const all = [result, result.case, result.usage, result.events, result.events[1], result.files, result.files[0]];
    return { pass: all.every((value) => Object.isFrozen(value)), reason: 'checked ' + all.length };
  }`);
  t.deepEqual(verdictOf(t, outcome), { pass: true, reason: 'checked 7' });
});

test('a verdict behind getters and a proxy is read inside the isolate and comes out as plain data', async (t) => {
  const outcome = await grade(`export function grade() {
    const target = { pass: true, reason: 'target' };
    return new Proxy(target, { get: (object, key) => (key === 'reason' ? 'from the proxy' : object[key]) });
  }`);
  const verdict = verdictOf(t, outcome);
  t.deepEqual(verdict, { pass: true, reason: 'from the proxy' });
  t.is(Object.getPrototypeOf(verdict), Object.prototype);
  t.deepEqual(Object.getOwnPropertyDescriptor(verdict, 'reason'), { value: 'from the proxy', writable: true, enumerable: true, configurable: true });
  const withGetter = await grade(`export function grade() { let reads = 0; return { pass: true, get reason() { reads += 1; return 'read ' + reads; } }; }`);
  t.deepEqual(verdictOf(t, withGetter), { pass: true, reason: 'read 1' });
});

test('a verdict getter that never returns runs inside the time limit and fails the grader', async (t) => {
  failureOf(t, await grade(`export function grade() { return { pass: true, get reason() { for (;;) {} } }; }`, FAST_CPU), 'cpu_time');
});

test('a promise rejected and left without a handler fails the grader', async (t) => {
  const message = failureOf(t, await grade(`export function grade() { Promise.reject(new Error('forgotten')); return { pass: true, reason: 'x' }; }`), 'unhandled_rejection');
  t.regex(message, /forgotten/);
});

test('a reason longer than 4096 characters is truncated with a note', async (t) => {
  const verdict = verdictOf(t, await grade(`export function grade() { return { pass: true, reason: 'y'.repeat(10000) }; }`));
  t.is(verdict?.reason, `${'y'.repeat(4096)} … [truncated: longer than 4096 characters]`);
});

test('an input over the JSON size limit is refused before anything is copied into an isolate', async (t) => {
  const outcome = await runGrader({ source: 'export function grade() {}', file: 'graders/check.js' }, graderInput({ final_text: 'z'.repeat(GRADER_INPUT_MAX_BYTES) }));
  failureOf(t, outcome, 'input_too_large');
  t.like(!outcome.ok && outcome.error.details, { limit: 8 * 1024 * 1024 });
});

test('limits out of range are the caller’s mistake and reject with ZB_OPTION_INVALID', async (t) => {
  await t.throwsAsync(grade('export function grade() {}', { memoryMb: 4 }), { code: 'ZB_OPTION_INVALID' } as never);
  await t.throwsAsync(grade('export function grade() {}', { cpuTimeMs: 0 }), { code: 'ZB_OPTION_INVALID' } as never);
});

test('20 graders run at once all finish, each with its own verdict', async (t) => {
  const outcomes = await Promise.all(
    Array.from({ length: 20 }, (_, index) =>
      grade(
        `export async function grade(result) { let sum = 0; for (let i = 0; i < 200000; i += 1) sum += i % 7; await null; return { pass: ${index % 2 === 0}, reason: '${index} ' + result.case.id }; }`,
      ),
    ),
  );
  t.deepEqual(
    outcomes.map((outcome) => (outcome.ok ? outcome.verdict : outcome.error.message)),
    Array.from({ length: 20 }, (_, index) => ({ pass: index % 2 === 0, reason: `${index} add-file` })),
  );
});

test('a grader isolated-vm cannot stop is given up on after the grace: runGrader resolves with the CPU reason', async (t) => {
  // The child's isolate thread spins on for ever and keeps it from exiting, so the child runs it and we kill the child.
  const child = spawn(process.execPath, ['--no-node-snapshot', path.join(REPO_ROOT, 'dist', 'test', 'fixtures', 'stuck-grader-child.js')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const line = await new Promise<string>((resolve) => {
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) resolve(text);
    });
    child.once('exit', () => resolve(text));
  });
  child.kill('SIGKILL');
  await ended;
  t.like(JSON.parse(line), { ok: false, error: { code: 'ZB_EVAL_GRADER_FAILED', details: { file: 'graders/stuck.js', fault: 'cpu_time', stuck: true } } });
});
