// `npm run mutants [-- NAME…]`: runs the mutation list. Each test/mutations/<name>.patch
// (or each one named) is applied to a private copy of the tree, built, and the
// test files its `# tests:` line names are run: `caught` when one fails,
// `survived` when all pass, `broken` when the patch no longer applies, the build
// fails or a named test file does not exist. Never writes the tree it reads: each
// copy lives in a temporary directory that is removed on exit, error or signal.
// `--jobs N` mutants are tested at once (default: one per core, at most two), each
// in its own copy with its own compiler.
// After the last patch, the tests that caught mutants run once more on the
// unmutated copy (by title): a test that fails there (for example one the copy's
// place makes fail) would "catch" every mutant for the wrong reason, so the
// mutants it alone caught are reported broken and the run fails.
// Exit status: 0 when every mutant was caught, 1 otherwise, 2 when the unmutated
// copy does not build, a catching test fails on it, or the arguments are wrong,
// 128+n on signal n.
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, cpSync, existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuilderReply } from './mutant-builder.js';
import { matchPattern, type TestId, tapResults, testKey } from './mutant-catches.js';
import { parseMutantPatch } from './mutant-patch.js';
import { testStages } from './mutant-stages.js';

type Outcome = 'caught' | 'survived' | 'broken';

interface Options {
  readonly root: string;
  readonly tmpParent: string;
  /** How many mutants are tested at once, each in its own copy with its own compiler. */
  readonly jobs: number;
  readonly names: readonly string[];
}

const USAGE = 'usage: mutants [--root DIR] [--tmp-parent DIR] [--jobs N] [NAME|FILE.patch]…';

/**
 * One lane per core, at most two: a mutant's ava run leaves a core idle while it starts and while one test file is
 * left, so a second lane fills that time; more lanes than cores only contend.
 */
function defaultJobs(): number {
  return Math.max(1, Math.min(2, availableParallelism()));
}

function parseArguments(argv: readonly string[]): Options {
  let root = fileURLToPath(new URL('../../', import.meta.url));
  let tmpParent = tmpdir();
  let jobs = defaultJobs();
  const names: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--jobs') {
      const value = argv[++i];
      if (value === undefined || !/^[1-9]\d{0,1}$/.test(value)) throw new Error(`--jobs needs a whole number from 1 to 99, not ${JSON.stringify(value ?? '')}. ${USAGE}`);
      jobs = Number(value);
    } else if (arg === '--root' || arg === '--tmp-parent') {
      const value = argv[++i];
      if (value === undefined) throw new Error(`${arg} needs a directory. ${USAGE}`);
      if (arg === '--root') root = value;
      else tmpParent = value;
    } else if (arg.startsWith('-')) throw new Error(`unknown option ${arg}. ${USAGE}`);
    else names.push(arg);
  }
  return { root: realpathSync(root), tmpParent, jobs, names };
}

/** The patch files to run: the named ones (a path to a .patch file, or a name in test/mutations/), else all of test/mutations/*.patch. */
function patchFiles(options: Options): string[] {
  const listDir = path.join(options.root, 'test', 'mutations');
  if (options.names.length === 0) {
    return readdirSync(listDir)
      .filter((f) => f.endsWith('.patch'))
      .sort()
      .map((f) => path.join(listDir, f));
  }
  return options.names.map((name) => {
    const file = name.endsWith('.patch') && existsSync(name) ? path.resolve(name) : path.join(listDir, `${name.replace(/\.patch$/, '')}.patch`);
    if (!existsSync(file)) throw new Error(`no mutant ${JSON.stringify(name)}: ${file} does not exist. ${USAGE}`);
    return file;
  });
}

/** What the copy leaves out: git metadata, build output and dependencies (linked instead). */
const NOT_COPIED = new Set(['.git', 'node_modules', 'dist', '.bench-tmp']);

function copyTree(root: string, copy: string): void {
  for (const entry of readdirSync(root)) {
    if (NOT_COPIED.has(entry) || entry.endsWith('.tsbuildinfo')) continue;
    // Links are copied as written: a relative link in a fixture must not point back into the tree.
    cpSync(path.join(root, entry), path.join(copy, entry), { recursive: true, verbatimSymlinks: true });
  }
  symlinkSync(realpathSync(path.join(root, 'node_modules')), path.join(copy, 'node_modules'));
}

/** The children running now, each the leader of its own process group, killed with it on a signal. */
const running = new Set<ChildProcess>();

function killRunning(): void {
  for (const child of running) {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // the group has exited already
    }
  }
}

function run(file: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (status) => {
      running.delete(child);
      resolve({ status, output });
    });
  });
}

/** The compiler child: `build()` sends a request and awaits the reply. */
function startBuilder(copy: string): { build: () => Promise<BuilderReply>; stop: () => void } {
  const child = fork(fileURLToPath(new URL('mutant-builder.js', import.meta.url)), [], { cwd: copy, detached: true, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  running.add(child);
  return {
    build: () =>
      new Promise((resolve, reject) => {
        const onExit = (code: number | null) => reject(new Error(`the compiler process exited (status ${String(code)}) before it answered`));
        child.once('exit', onExit);
        child.once('message', (reply) => {
          child.off('exit', onExit);
          resolve(reply as BuilderReply);
        });
        child.send('build');
      }),
    stop: () => {
      child.kill('SIGKILL');
      running.delete(child);
    },
  };
}

/** Runs ava on the copy with its TAP reporter (a line per test, titles plain); `--fail-fast` when one failure is the answer. */
function runAva(copy: string, tests: readonly string[], more: readonly string[]): Promise<{ status: number | null; output: string }> {
  return run(process.execPath, [path.join(copy, 'node_modules', 'ava', 'entrypoints', 'cli.mjs'), '--tap', ...more, ...tests], copy, { ...process.env, FORCE_COLOR: '0' });
}

/** The lines that say which tests failed. */
function failedLines(failed: readonly TestId[]): string {
  return failed.map((id) => `\n    ✘ ${id.file} › ${id.title}`).join('');
}

interface MutantResult {
  readonly outcome: Outcome;
  readonly detail: string;
  readonly caughtBy?: Catch;
}

/** The tests that caught a mutant: by title, or (a file crashed, a hook failed) whole files. */
interface Catch {
  readonly tests: readonly TestId[];
  readonly wholeFiles: readonly string[];
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

interface MutantContext {
  readonly copy: string;
  readonly gitEnv: NodeJS.ProcessEnv;
  readonly builder: ReturnType<typeof startBuilder>;
  readonly say: (line: string) => void;
}

/** Whether the patch changes the native code (native/), which tsc does not build. */
function touchesNative(file: string): boolean {
  return /^diff --git a\/native\//mu.test(readFileSync(file, 'utf8'));
}

/**
 * Rebuilds build/Release in the copy (npm's node-gyp, as `npm ci` does). A worktree's build is a link to another
 * checkout's: the copy's link is removed first, so the mutant is never built into a tree it does not own.
 */
async function rebuildNative(copy: string): Promise<{ ok: boolean; output: string }> {
  const build = path.join(copy, 'build');
  if (lstatSync(build, { throwIfNoEntry: false })?.isSymbolicLink() === true) rmSync(build);
  const result = await run('npm', ['run', '--silent', 'install'], copy, process.env);
  return { ok: result.status === 0, output: result.output };
}

/**
 * Runs a mutant's test files stage by stage (mutant-stages.ts), `--fail-fast`: one failing test is the answer, so the
 * rest of a caught mutant's tests need not run. What caught it, or undefined when every test passed.
 */
async function runStages(copy: string, files: readonly string[]): Promise<Catch | undefined> {
  for (const stage of testStages(files)) {
    const tests = await runAva(copy, stage, ['--fail-fast']);
    if (tests.status === 0) continue;
    const { failed, unattributed } = tapResults(tests.output, stage);
    // A failure that names no one test (a file that crashed, a hook, a timeout): the stage's files are checked whole.
    return { tests: failed, wholeFiles: unattributed || failed.length === 0 ? stage : [] };
  }
  return undefined;
}

/** Applies one patch to the copy, builds, runs its tests and reverts it; throws only when the copy cannot be put back. */
async function testMutant(file: string, { copy, gitEnv, builder, say }: MutantContext): Promise<MutantResult> {
  const parsed = parseMutantPatch(path.basename(file, '.patch'), readFileSync(file, 'utf8'));
  if (!parsed.ok) return { outcome: 'broken', detail: parsed.reason };
  const { mutant } = parsed;
  const missing = mutant.tests.find((test) => !existsSync(path.join(copy, test)));
  if (missing !== undefined) return { outcome: 'broken', detail: `its tests line names ${missing}, which the build does not produce` };
  const check = await run('git', ['apply', '--check', file], copy, gitEnv);
  if (check.status !== 0) return { outcome: 'broken', detail: `the patch no longer applies: ${check.output.trim()}` };
  const applied = await run('git', ['apply', file], copy, gitEnv);
  if (applied.status !== 0) throw new Error(`git apply ${file} failed after its check passed: ${applied.output}`);
  let result: MutantResult;
  try {
    say(`testing  ${mutant.name}: ${mutant.description}`);
    const buildStarted = Date.now();
    const nativeBuilt = touchesNative(file) ? await rebuildNative(copy) : { ok: true, output: '' };
    const built = nativeBuilt.ok ? await builder.build() : { ok: false as const, errors: nativeBuilt.output };
    const buildTime = `built in ${seconds(Date.now() - buildStarted)}`;
    if (!built.ok) result = { outcome: 'broken', detail: `the build fails with the patch applied:\n${built.errors}` };
    else {
      const testStarted = Date.now();
      const caught = await runStages(copy, mutant.tests);
      const times = `${buildTime}, tested in ${seconds(Date.now() - testStarted)}`;
      result =
        caught === undefined
          ? { outcome: 'survived', detail: `every test passed (${times}): ${mutant.tests.join(' ')}` }
          : { outcome: 'caught', detail: `${times}, by:${failedLines(caught.tests) || ` ${caught.wholeFiles.join(' ')}`}`, caughtBy: caught };
    }
  } catch (error) {
    await run('git', ['apply', '-R', file], copy, gitEnv);
    throw error;
  }
  const reverted = await run('git', ['apply', '-R', file], copy, gitEnv);
  if (reverted.status !== 0) throw new Error(`git apply -R ${file} failed, so the copy no longer matches the tree: ${reverted.output}`);
  if (touchesNative(file) && !(await rebuildNative(copy)).ok) throw new Error(`the native code does not build again after ${file} was reverted`);
  return result;
}

/** One private copy of the tree with its own compiler: a lane tests one mutant at a time. */
type Lane = MutantContext;

function makeCopy(options: Options): string {
  const copy = mkdtempSync(path.join(options.tmpParent, 'zotbox-mutants-'));
  // As a clone is: tests that run commands as another user (the sandbox's 65534) must reach the copy, as they reach the tree.
  chmodSync(copy, 0o755);
  copyTree(options.root, copy);
  return copy;
}

/** Tests the files in order, `lanes.length` at a time; each result is said as its mutant ends. The catches, by mutant. */
async function testAll(files: readonly string[], lanes: readonly Lane[], counts: Record<Outcome, number>, say: (line: string) => void): Promise<Map<string, Catch>> {
  const catches = new Map<string, Catch>();
  let next = 0;
  const drain = async (lane: Lane): Promise<void> => {
    while (next < files.length) {
      const file = files[next++]!;
      const mutantStarted = Date.now();
      const { outcome, detail, caughtBy } = await testMutant(file, lane);
      counts[outcome]++;
      if (caughtBy !== undefined) catches.set(path.basename(file, '.patch'), caughtBy);
      say(`${outcome.padEnd(8)} ${path.basename(file, '.patch')} (${seconds(Date.now() - mutantStarted)}): ${detail}`);
    }
  };
  try {
    await Promise.all(lanes.map(drain));
  } catch (error) {
    // A lane that cannot put its copy back ends the run: the others' children must not outlive their copies.
    killRunning();
    throw error;
  }
  return catches;
}

/**
 * Runs the tests that caught mutants once more, on the unmutated copy: by title where ava named one, else whole
 * files. A mutant is caught only where a test that caught it passes without its patch; the others, with the tests
 * that failed unmutated, are returned: such a test would catch every mutant for the wrong reason.
 */
async function unconfirmed(copy: string, catches: ReadonlyMap<string, Catch>): Promise<{ mutants: string[]; failing: string }> {
  const titled = new Map<string, Set<string>>();
  for (const { tests } of catches.values()) for (const id of tests) titled.set(id.file, (titled.get(id.file) ?? new Set()).add(id.title));
  const passed = new Set<string>();
  let failing: TestId[] = [];
  if (titled.size > 0) {
    const files = [...titled.keys()].sort();
    const patterns = [...new Set([...titled.values()].flatMap((titles) => [...titles]))].flatMap((title) => ['--match', matchPattern(title)]);
    const rerun = tapResults((await runAva(copy, files, patterns)).output, files);
    for (const id of rerun.passed) passed.add(testKey(id));
    failing = rerun.failed;
  }
  const confirmedByTitle = (caught: Catch) => caught.tests.some((id) => passed.has(testKey(id)));
  // Whole files for the rest: a crash, a hook, or a title the rerun did not meet.
  const whole = [...new Set([...catches.values()].filter((caught) => !confirmedByTitle(caught)).flatMap((caught) => [...caught.wholeFiles, ...caught.tests.map((id) => id.file)]))].sort();
  let wholePass = true;
  if (whole.length > 0) {
    const rerun = await runAva(copy, whole, []);
    const results = tapResults(rerun.output, whole);
    wholePass = rerun.status === 0;
    for (const id of results.passed) passed.add(testKey(id));
    failing = [...failing, ...results.failed];
  }
  const mutants = [...catches].filter(([, caught]) => !confirmedByTitle(caught) && !(wholePass && caught.wholeFiles.length + caught.tests.length > 0)).map(([name]) => name);
  const once = [...new Map(failing.map((id) => [testKey(id), id])).values()];
  return { mutants: mutants.sort(), failing: failedLines(once) };
}

async function main(options: Options, say: (line: string) => void): Promise<number> {
  const started = Date.now();
  const files = patchFiles(options);
  const copies: string[] = [];
  const cleanUp = () => {
    for (const copy of copies) rmSync(copy, { recursive: true, force: true });
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      killRunning();
      cleanUp();
      say(`interrupted by ${signal}; removed ${copies.join(', ')}`);
      process.exit(signal === 'SIGINT' ? 130 : signal === 'SIGTERM' ? 143 : 129);
    });
  }
  const counts: Record<Outcome, number> = { caught: 0, survived: 0, broken: 0 };
  const lanes: Lane[] = [];
  let unmutatedFails = false;
  try {
    // No more lanes than mutants: a copy and a compiler cost seconds each.
    const laneCount = Math.max(1, Math.min(options.jobs, files.length));
    for (let i = 0; i < laneCount; i++) copies.push(makeCopy(options));
    say(`building ${laneCount === 1 ? 'a private copy' : `${laneCount} private copies`} of ${options.root} in ${copies.join(', ')}`);
    for (const copy of copies) {
      // git apply acts on the copy as a plain directory tree, never on a repository around it.
      const gitEnv = { ...process.env, GIT_CEILING_DIRECTORIES: path.dirname(copy) };
      lanes.push({ copy, gitEnv, builder: startBuilder(copy), say });
    }
    const bases = await Promise.all(lanes.map((lane) => lane.builder.build()));
    const failedBase = bases.find((base): base is Extract<BuilderReply, { ok: false }> => !base.ok);
    if (failedBase !== undefined) {
      say(`the unmutated tree does not build:\n${failedBase.errors}`);
      return 2;
    }
    say(`built in ${seconds(Date.now() - started)}; ${files.length} mutant${files.length === 1 ? '' : 's'}, ${laneCount} at a time`);
    const catches = await testAll(files, lanes, counts, say);
    // The copies are the same tree: one check of the catching tests, unmutated, speaks for all.
    say(`checking that the tests that caught ${catches.size} mutant${catches.size === 1 ? '' : 's'} pass without the patches`);
    // Its build is the last mutant's until built again: the patch was reverted, the output not.
    const rebuilt = await lanes[0]!.builder.build();
    if (!rebuilt.ok) throw new Error(`the unmutated copy no longer builds after its last patch was reverted:\n${rebuilt.errors}`);
    const wrong = await unconfirmed(copies[0]!, catches);
    if (wrong.mutants.length > 0) {
      counts.caught -= wrong.mutants.length;
      counts.broken += wrong.mutants.length;
      for (const name of wrong.mutants) say(`broken   ${name}: the tests that caught it fail without its patch too, so they prove nothing`);
      say(`the unmutated copy fails tests that caught mutants, so those catches prove nothing; fix these first:${wrong.failing || ' (see above)'}`);
      unmutatedFails = true;
    }
  } finally {
    for (const lane of lanes) lane.builder.stop();
    cleanUp();
  }
  const total = counts.caught + counts.survived + counts.broken;
  say(`mutants: ${counts.caught} caught, ${counts.survived} survived, ${counts.broken} broken, of ${total}, in ${seconds(Date.now() - started)}`);
  return unmutatedFails ? 2 : counts.caught === total ? 0 : 1;
}

let options: Options;
try {
  options = parseArguments(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
}
process.exitCode = await main(options, (line) => process.stdout.write(`${line}\n`));
