// The grader processes (src/host/eval/graders/grader-host.ts, issue 22 §3): a grader
// that takes its process down (a V8 abort on out-of-memory) fails only itself; the
// graders that were in flight in that process run again, each alone, and their
// verdicts stand. Grader processes run with core dumps off.
import test from 'ava';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { GraderHost, type GraderAttempt } from '../../../../src/host/eval/graders/grader-host.js';
import { graderInput } from '../../../fixtures/grader-input.js';
import { REPO_ROOT } from '../../../fixtures/paths.js';

/** A Map that grows without end: V8 aborts the whole process (SIGABRT) on out-of-memory, which isolated-vm's memory limit does not catch. */
const HOSTILE = 'export function grade() { const seen = new Map(); for (let i = 0; ; i++) seen.set(i, { i }); }';
/** Honest. The seam below holds its answer until the shared process has died, so it is in flight then, whatever the machine's speed. */
const HONEST = `export function grade(result) {
  return { pass: result.case.suite.startsWith('suite-'), reason: 'graded ' + result.case.suite + '/' + result.case.id };
}`;

test('a grader that aborts V8 fails only itself: 10 honest graders of other suites in flight in its process all pass', async (t) => {
  let sharedEnded!: () => void;
  const ended = new Promise<void>((resolve) => (sharedEnded = resolve));
  const ends: string[] = [];
  const host = new GraderHost(
    { memoryMb: 8, cpuTimeMs: 60_000 }, // the Map reaches V8's abort soon, never the CPU limit, however busy the machine
    {
      // Every answer of the shared process is held until that process has ended: all 10 are in flight when it dies.
      beforeSettle: ({ attempt }) => (attempt === 'shared' ? ended : Promise.resolve()),
      processEnded: ({ signal, code, attempt }: { signal: NodeJS.Signals | null; code: number | null; attempt: GraderAttempt }) => {
        ends.push(`${attempt} ${signal ?? String(code)}`);
        if (attempt === 'shared') sharedEnded();
      },
    },
  );
  t.teardown(() => host.close());
  const hostile = host.grade({ source: HOSTILE, file: 'graders/hostile.js' }, graderInput({ case: { suite: 'hostile', id: 'oom', prompt: 'p', description: null, repeat: 1 } }));
  const honest = Array.from({ length: 10 }, (_, index) =>
    host.grade({ source: HONEST, file: `graders/honest-${index}.js` }, graderInput({ case: { suite: `suite-${index}`, id: `case-${index}`, prompt: 'p', description: null, repeat: 1 } })),
  );
  const verdicts = (await Promise.all(honest)).map((outcome) => (outcome.ok ? outcome.verdict : outcome.error.message));
  t.deepEqual(
    verdicts,
    Array.from({ length: 10 }, (_, index) => ({ pass: true, reason: `graded suite-${index}/case-${index}` })),
  );
  const outcome = await hostile;
  t.false(outcome.ok);
  if (!outcome.ok) {
    t.is(outcome.error.code, 'ZB_EVAL_GRADER_FAILED');
    t.like(outcome.error.details, { file: 'graders/hostile.js', fault: 'process_ended' });
    t.regex(outcome.error.message, /ended \(SIGABRT\) while it ran, and again when it ran alone in a fresh process/);
  }
  t.is(ends[0], 'shared SIGABRT', 'the shared process was aborted by V8');
  t.true(ends.includes('alone SIGABRT'), 'the hostile grader, run again alone, aborted its own process');
});

test('grader processes run with core dumps off, even when zotbox may dump core', async (t) => {
  const script = path.join(REPO_ROOT, 'dist', 'test', 'fixtures', 'core-limit-grader-host.js');
  // Core dumps allowed for the host (as root, or up to the hard limit a user has), then the host starts its grader process.
  const child = spawn('/bin/sh', ['-c', 'ulimit -c unlimited && exec "$0" "$@"', process.execPath, '--no-node-snapshot', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  t.is(code, 0, text);
  t.deepEqual(JSON.parse(text) as unknown, {
    passed: true,
    host: 'Max core file size unlimited unlimited bytes',
    grader: 'Max core file size 0 0 bytes',
  });
});
