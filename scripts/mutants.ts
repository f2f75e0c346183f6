// `npm run mutants [-- NAME…]`: runs the mutation list. Each test/mutations/<name>.patch
// (or each one named) is applied to a private copy of the tree, built, and the
// test files its `# tests:` line names are run: `caught` when one fails,
// `survived` when all pass, `broken` when the patch no longer applies, the build
// fails or a named test file does not exist. Never writes the tree it reads: each
// copy lives in a temporary directory that is removed on exit, error or signal.
// `--jobs N` mutants are tested at once (default: one per core, at most two), each
// in its own copy with its own compiler.
// Before any patch, the named tests run once on the unmutated copy: a test that
// fails there (for example one the copy's place makes fail) would "catch" every
// mutant for the wrong reason, so the run stops instead.
// Exit status: 0 when every mutant was caught, 1 otherwise, 2 when the unmutated
// copy does not build, its tests fail, or the arguments are wrong, 128+n on signal n.
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, cpSync, existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuilderReply } from './mutant-builder.js';
import { parseMutantPatch } from './mutant-patch.js';

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

/** Runs ava on the copy; `--fail-fast` when only whether one fails matters. */
function runAva(copy: string, tests: readonly string[], failFast: boolean): Promise<{ status: number | null; output: string }> {
  return run(process.execPath, [path.join(copy, 'node_modules', 'ava', 'entrypoints', 'cli.mjs'), ...(failFast ? ['--fail-fast'] : []), ...tests], copy);
}

function failedLines(output: string): string {
  return output
    .split('\n')
    .filter((line) => line.includes('✘ [fail]'))
    .map((line) => `\n    ${line.trim()}`)
    .join('');
}

/** The tests every mutant names, run once unmutated: undefined when they pass, else what failed. */
async function baselineFailure(copy: string, files: readonly string[]): Promise<string | undefined> {
  const tests = new Set<string>();
  for (const file of files) {
    const parsed = parseMutantPatch(path.basename(file, '.patch'), readFileSync(file, 'utf8'));
    if (parsed.ok) for (const test of parsed.mutant.tests) if (existsSync(path.join(copy, test))) tests.add(test);
  }
  if (tests.size === 0) return undefined;
  const result = await runAva(copy, [...tests].sort(), false);
  return result.status === 0 ? undefined : failedLines(result.output) || `\n${result.output.trim().split('\n').slice(-20).join('\n')}`;
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

/** Applies one patch to the copy, builds, runs its tests and reverts it; throws only when the copy cannot be put back. */
async function testMutant(file: string, { copy, gitEnv, builder, say }: MutantContext): Promise<{ outcome: Outcome; detail: string }> {
  const parsed = parseMutantPatch(path.basename(file, '.patch'), readFileSync(file, 'utf8'));
  if (!parsed.ok) return { outcome: 'broken', detail: parsed.reason };
  const { mutant } = parsed;
  const missing = mutant.tests.find((test) => !existsSync(path.join(copy, test)));
  if (missing !== undefined) return { outcome: 'broken', detail: `its tests line names ${missing}, which the build does not produce` };
  const check = await run('git', ['apply', '--check', file], copy, gitEnv);
  if (check.status !== 0) return { outcome: 'broken', detail: `the patch no longer applies: ${check.output.trim()}` };
  const applied = await run('git', ['apply', file], copy, gitEnv);
  if (applied.status !== 0) throw new Error(`git apply ${file} failed after its check passed: ${applied.output}`);
  let result: { outcome: Outcome; detail: string };
  try {
    say(`testing  ${mutant.name}: ${mutant.description}`);
    const buildStarted = Date.now();
    const nativeBuilt = touchesNative(file) ? await rebuildNative(copy) : { ok: true, output: '' };
    const built = nativeBuilt.ok ? await builder.build() : { ok: false as const, errors: nativeBuilt.output };
    const buildTime = `built in ${seconds(Date.now() - buildStarted)}`;
    if (!built.ok) result = { outcome: 'broken', detail: `the build fails with the patch applied:\n${built.errors}` };
    else {
      const testStarted = Date.now();
      // --fail-fast: one failing test is the answer; the rest of a caught mutant's tests need not run.
      const tests = await runAva(copy, mutant.tests, true);
      const times = `${buildTime}, tested in ${seconds(Date.now() - testStarted)}`;
      const failed = failedLines(tests.output);
      result =
        tests.status === 0
          ? { outcome: 'survived', detail: `every test passed (${times}): ${mutant.tests.join(' ')}` }
          : { outcome: 'caught', detail: `${times}, by:${failed || ` ${mutant.tests.join(' ')}`}` };
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

/** Tests the files in order, `lanes.length` at a time; each result is said as its mutant ends. */
async function testAll(files: readonly string[], lanes: readonly Lane[], counts: Record<Outcome, number>, say: (line: string) => void): Promise<void> {
  let next = 0;
  const drain = async (lane: Lane): Promise<void> => {
    while (next < files.length) {
      const file = files[next++]!;
      const mutantStarted = Date.now();
      const { outcome, detail } = await testMutant(file, lane);
      counts[outcome]++;
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
    say(`built in ${seconds(Date.now() - started)}; running the mutants' tests once, unmutated`);
    // The copies are the same tree: one baseline speaks for all.
    const baseline = await baselineFailure(copies[0]!, files);
    if (baseline !== undefined) {
      say(`the unmutated copy fails the mutants' tests, so a mutant "caught" by them would prove nothing; fix these first:${baseline}`);
      return 2;
    }
    say(`the unmutated tests pass (${seconds(Date.now() - started)}); ${files.length} mutant${files.length === 1 ? '' : 's'}, ${laneCount} at a time`);
    await testAll(files, lanes, counts, say);
  } finally {
    for (const lane of lanes) lane.builder.stop();
    cleanUp();
  }
  const total = counts.caught + counts.survived + counts.broken;
  say(`mutants: ${counts.caught} caught, ${counts.survived} survived, ${counts.broken} broken, of ${total}, in ${seconds(Date.now() - started)}`);
  return counts.caught === total ? 0 : 1;
}

let options: Options;
try {
  options = parseArguments(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
}
process.exitCode = await main(options, (line) => process.stdout.write(`${line}\n`));
