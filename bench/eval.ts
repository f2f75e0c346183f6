// npm run bench -- eval
// One `zotbox eval` process running a generated 200-case replay suite (--max-runs 32)
// against the same 200 cases as one `zotbox run --replay` process per case, as many
// at once as the machine has cores (the baseline), each in its own copy of the
// workspace. Then what a JS grader costs per case: runGrader in-process (isolate
// start and grade), a round trip through GraderHost's shared grader process, and a
// grader process of its own per grader (the design issue 22 §3 weighed: zotbox
// keeps the shared process and runs a grader again alone only when it crashed).
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GraderInput } from '../src/host/eval/grader-input.js';
import { GraderHost } from '../src/host/eval/graders/grader-host.js';
import { runGrader, type GraderOutcome, type GraderSource } from '../src/host/eval/graders/run-grader.js';
import { formatTable, measure, measurePair } from './harness.js';
import { shebangFlags } from './start.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const BIN = path.join(repoRoot, 'bin', 'zotbox.js');
const REVIEWER = path.join(repoRoot, 'examples', 'code-reviewer');
const CASES = 200;
const MAX_RUNS = 32;
/** One case in GRADED_EVERY has a JS grader. */
const GRADED_EVERY = 4;
const GRADERS = 200;

const GRADER_SOURCE = `export function grade(result) {
  const read = result.events.some((event) => event.type === 'tool.call' && event.tool === 'read');
  const pass = read && result.status === 'completed' && result.final_text.includes(result.case.id);
  return { pass, score: pass ? 1 : 0, reason: pass ? 'read a file and named the case' : 'no read, or the answer does not name the case' };
}
`;

interface Corpus {
  readonly root: string;
  readonly suite: string;
  readonly fixture: string;
  readonly transcripts: readonly string[];
}

function transcriptFor(index: number): unknown {
  const usage = { input_tokens: 300, output_tokens: 20 };
  return {
    zotbox_replay: 1,
    model: 'replay',
    turns: [
      {
        content: [
          { type: 'tool_use', id: 'toolu_1', name: 'skill', input: { name: 'review-change' } },
          { type: 'tool_use', id: 'toolu_2', name: 'read', input: { path: `src/m${index % 10}.js` } },
        ],
        stop: 'tool_use',
        usage,
      },
      { content: [{ type: 'text', text: `Reviewed src/m${index % 10}.js for case-${index}: no problems found.` }], stop: 'end', usage },
    ],
  };
}

/** The suite folder: a fixture of ten small files, one transcript per case, one grader. */
function writeCorpus(): Corpus {
  const root = mkdtempSync(path.join(tmpdir(), 'zb-bench-eval-'));
  const suiteDir = path.join(root, 'suite');
  const fixture = path.join(suiteDir, 'fixtures', 'project');
  mkdirSync(path.join(fixture, 'src'), { recursive: true });
  for (let i = 0; i < 10; i++) writeFileSync(path.join(fixture, 'src', `m${i}.js`), `export const value${i} = ${i};\n`);
  mkdirSync(path.join(suiteDir, 'transcripts'));
  mkdirSync(path.join(suiteDir, 'graders'));
  writeFileSync(path.join(suiteDir, 'graders', 'check.js'), GRADER_SOURCE);
  const transcripts: string[] = [];
  const cases = [];
  for (let i = 0; i < CASES; i++) {
    const file = path.join(suiteDir, 'transcripts', `case-${i}.json`);
    writeFileSync(file, JSON.stringify(transcriptFor(i)));
    transcripts.push(file);
    const expect: unknown[] = [{ status: 'completed' }, { tool_called: { tool: 'read', path: 'src/*.js' } }, { text_contains: `case-${i}:` }];
    if (i % GRADED_EVERY === 0) expect.push({ grader: 'graders/check.js' });
    cases.push({ id: `case-${i}`, prompt: `Review src/m${i % 10}.js.`, replay: `transcripts/case-${i}.json`, expect });
  }
  const suite = path.join(suiteDir, 'bench.json');
  writeFileSync(suite, JSON.stringify({ zotbox_eval: 1, name: 'bench', agent: REVIEWER, defaults: { workspace: 'fixtures/project' }, cases }));
  return { root, suite, fixture, transcripts };
}

/** A child's environment: a fresh state directory, and none of the caller's NODE_OPTIONS. */
function childEnv(home: string): NodeJS.ProcessEnv {
  const { NODE_OPTIONS: _dropped, ...inherited } = process.env;
  return { ...inherited, ZOTBOX_HOME: home };
}

function spawnZotbox(args: readonly string[], env: NodeJS.ProcessEnv): Promise<void> {
  const zotbox = [...shebangFlags(readFileSync(BIN, 'utf8').split('\n', 1)[0]!), BIN];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...zotbox, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (piece: Buffer) => (stderr += piece.toString()));
    child.once('error', reject);
    child.once('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`zotbox ${args.slice(0, 2).join(' ')} exited ${String(code ?? signal)}: ${stderr}`))));
  });
}

/** One `zotbox eval` process for all the cases. */
async function evalOnce(corpus: Corpus, sample: number): Promise<void> {
  const env = childEnv(path.join(corpus.root, `eval-home-${sample}`));
  // The reviewer lies outside the generated suite folder: allowed for this eval, as a user would (docs/eval.md).
  await spawnZotbox(['eval', corpus.suite, '--max-runs', String(MAX_RUNS), '-y', '--allow-scope', REVIEWER, '--reporter', 'line'], env);
}

/** One `zotbox run --replay` process per case, `parallel` at once, each in its own copy of the fixture. */
async function processPerCase(corpus: Corpus, sample: number, parallel: number): Promise<void> {
  const base = path.join(corpus.root, `runs-${sample}`);
  const env = childEnv(path.join(base, 'home'));
  let next = 0;
  const worker = async () => {
    while (next < CASES) {
      const i = next++;
      const workspace = path.join(base, `case-${i}`);
      cpSync(corpus.fixture, workspace, { recursive: true });
      await spawnZotbox(['run', REVIEWER, `Review src/m${i % 10}.js.`, '--replay', corpus.transcripts[i]!, '--cwd', workspace, '-y'], env);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
}

function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))]!;
}

function benchInput(index: number): GraderInput {
  return {
    case: { suite: 'bench', id: `case-${index}`, prompt: 'Review src/m0.js.', description: null, repeat: 1 },
    status: 'completed',
    final_text: `Reviewed src/m0.js for case-${index}: no problems found.`,
    turns: 2,
    usage: { input_tokens: 600, output_tokens: 40, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    error: null,
    events: [
      { type: 'tool.call', id: 1, tool: 'skill', input: { name: 'review-change' } },
      { type: 'tool.call', id: 2, tool: 'read', input: { path: 'src/m0.js' } },
      { type: 'run.end', status: 'completed' },
    ],
    events_dropped: 0,
    files: [],
    files_truncated: false,
    files_unreadable: [],
  };
}

function passed(outcome: GraderOutcome): GraderOutcome {
  if (!outcome.ok || !outcome.verdict.pass) throw new Error(`bench grader did not pass: ${outcome.ok ? outcome.verdict.reason : outcome.error.message}`);
  return outcome;
}

/** runGrader in-process, one after another: where each grader's time goes. */
async function graderTimings(grader: GraderSource): Promise<{ startMs: number[]; gradeMs: number[] }> {
  for (let i = 0; i < 10; i++) passed(await runGrader(grader, benchInput(i)));
  const startMs: number[] = [];
  const gradeMs: number[] = [];
  for (let i = 0; i < GRADERS; i++) {
    const { timing } = passed(await runGrader(grader, benchInput(i)));
    startMs.push(timing.startMs);
    gradeMs.push(timing.gradeMs);
  }
  return { startMs, gradeMs };
}

/** The 1, 5 and 15 minute load averages: the machine is shared, and the figures depend on them. */
function loadAverage(): string {
  return loadavg()
    .map((load) => load.toFixed(2))
    .join(', ');
}

export async function runEvalBench(): Promise<void> {
  const parallel = availableParallelism();
  process.stdout.write(`load average at the start: ${loadAverage()}; ${parallel} cores\n`);
  const corpus = writeCorpus();
  const grader: GraderSource = { source: GRADER_SOURCE, file: 'graders/check.js' };
  const host = new GraderHost();
  try {
    spawnSync(process.execPath, [BIN, '--version']); // warm the file cache
    let sample = 0;
    const pair = await measurePair(
      { name: 'eval', fn: () => evalOnce(corpus, sample++) },
      { name: 'process per case', fn: () => processPerCase(corpus, sample++, parallel) },
      { warmup: 1, samples: 3 },
    );
    const timings = await graderTimings(grader);
    let index = 0;
    const roundTrip = await measure('GraderHost.grade', async () => passed(await host.grade(grader, benchInput(index++))), { warmup: 10, samples: GRADERS });
    const ownProcess = await measure(
      'a grader process per grader',
      async () => {
        const alone = new GraderHost();
        try {
          passed(await alone.grade(grader, benchInput(index++)));
        } finally {
          alone.close();
        }
      },
      { warmup: 3, samples: 30 },
    );
    const rows = [
      [
        `${CASES} replayed cases, wall`,
        `${(pair.a.medianMs / 1000).toFixed(2)} s (one eval, --max-runs ${MAX_RUNS})`,
        `one zotbox run per case, ${parallel} at once`,
        `${(pair.b.medianMs / 1000).toFixed(2)} s`,
        `${pair.speedup.toFixed(1)}×`,
        `≥ 10× ${pair.speedup >= 10 ? '✔' : '✘'}`,
      ],
      ['per case', `${(pair.a.medianMs / CASES).toFixed(1)} ms`, 'per case', `${(pair.b.medianMs / CASES).toFixed(1)} ms`, '', ''],
    ];
    process.stdout.write(formatTable(['measure', 'zotbox eval', 'baseline', 'baseline value', 'ratio', 'target'], rows));
    process.stdout.write(`(median of ${pair.a.samples} alternating samples after 1 warm-up each; ${CASES / GRADED_EVERY} of the cases have a JS grader)\n\n`);
    const ms = (value: number) => `${value.toFixed(2)} ms`;
    const graderRows = [
      ['runGrader: start (isolate, context, harness)', ms(percentile(timings.startMs, 0.5)), ms(percentile(timings.startMs, 0.99))],
      ['runGrader: grade (compile, load, grade, verdict)', ms(percentile(timings.gradeMs, 0.5)), ms(percentile(timings.gradeMs, 0.99))],
      ['GraderHost.grade round trip (shared grader process)', ms(roundTrip.medianMs), ms(roundTrip.p99Ms)],
      ['a grader process of its own per grader (start, grade, exit)', ms(ownProcess.medianMs), ms(ownProcess.p99Ms)],
    ];
    process.stdout.write(formatTable([`grader overhead per case (${GRADERS} graders, one at a time)`, 'median', 'p99'], graderRows));
    process.stdout.write(`load average at the end: ${loadAverage()}\n`);
  } finally {
    host.close();
    rmSync(corpus.root, { recursive: true, force: true });
  }
}
