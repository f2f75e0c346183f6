// The mutation runner (scripts/mutants.ts) on a tiny fixture project: a mutant a
// test notices is `caught`, one no test notices `survived`, a stale or ill-typed
// patch `broken`; the exit status says whether all were caught; and the tree it
// reads is never written, its private copy always removed, even on Ctrl-C.
import test, { type ExecutionContext } from 'ava';
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../fixtures/paths.js';
import { tempDir } from '../fixtures/temp.js';
import { snapshotTree } from '../fixtures/tree-snapshot.js';

const RUNNER = path.join(REPO_ROOT, 'dist', 'scripts', 'mutants.js');

const ARITH = 'export function add(a: number, b: number): number {\n  return a + b;\n}\n\nexport function double(a: number): number {\n  return a * 2;\n}\n';

function patch(description: string, hunk: string): string {
  return `# mutant: ${description}\n# tests: dist/test/arith.test.js\ndiff --git a/src/arith.ts b/src/arith.ts\n--- a/src/arith.ts\n+++ b/src/arith.ts\n${hunk}`;
}

/** A project with one source file, one test of add (none of double), and four mutants. */
function fixtureProject(t: ExecutionContext): string {
  const root = tempDir(t, 'zb-mutants-tree-');
  mkdirSync(path.join(root, 'src'));
  mkdirSync(path.join(root, 'test', 'mutations'), { recursive: true });
  symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(root, 'node_modules'));
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'fixture', private: true, type: 'module', ava: { files: ['dist/test/**/*.test.js'], workerThreads: false } }));
  const compilerOptions = { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', rootDir: '.', outDir: 'dist', strict: true, noEmitOnError: true, skipLibCheck: true, types: ['node'] };
  writeFileSync(path.join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['src/**/*.ts', 'test/**/*.ts'] }));
  writeFileSync(path.join(root, 'src', 'arith.ts'), ARITH);
  writeFileSync(path.join(root, 'test', 'arith.test.ts'), "import test from 'ava';\nimport { add } from '../src/arith.js';\n\ntest('add adds', (t) => {\n  t.is(add(2, 3), 5);\n});\n");
  const mutants: Record<string, string> = {
    caught: patch('add subtracts', '@@ -1,3 +1,3 @@\n export function add(a: number, b: number): number {\n-  return a + b;\n+  return a - b;\n }\n'),
    survives: patch('double triples', '@@ -5,3 +5,3 @@\n export function double(a: number): number {\n-  return a * 2;\n+  return a * 3;\n }\n'),
    stale: patch('written against code that has changed since', '@@ -1,3 +1,3 @@\n export function add(x: number, y: number): number {\n-  return x + y;\n+  return x - y;\n }\n'),
    'ill-typed': patch('add returns a string', '@@ -1,3 +1,3 @@\n export function add(a: number, b: number): number {\n-  return a + b;\n+  return String(a + b);\n }\n'),
  };
  for (const [name, text] of Object.entries(mutants)) writeFileSync(path.join(root, 'test', 'mutations', `${name}.patch`), text);
  return root;
}

/** Runs the runner on `root`; `onLine` may interrupt it. */
function runRunner(root: string, tmpParent: string, names: readonly string[], onLine: (line: string, child: ReturnType<typeof spawn>) => void = () => undefined) {
  const child = spawn(process.execPath, ['--no-node-snapshot', RUNNER, '--root', root, '--tmp-parent', tmpParent, ...names], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let partial = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop()!;
    for (const line of lines) onLine(line, child);
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => child.once('close', (status) => resolve({ status, stdout, stderr })));
}

test('each mutant is reported caught, survived or broken, the run fails, and the tree is left as it was', async (t) => {
  const root = fixtureProject(t);
  const tmpParent = tempDir(t, 'zb-mutants-tmp-');
  const before = snapshotTree(root, []);
  const run = await runRunner(root, tmpParent, []);
  t.is(run.status, 1, run.stdout + run.stderr);
  const outcomes = run.stdout
    .split('\n')
    .map((line) => /^(caught|survived|broken)\s+(\S+) /.exec(line))
    .filter((m) => m !== null)
    .map((m) => [m[2], m[1]])
    // Lanes end in any order.
    .sort(([a], [b]) => a!.localeCompare(b!));
  t.deepEqual(outcomes, [
    ['caught', 'caught'],
    ['ill-typed', 'broken'],
    ['stale', 'broken'],
    ['survives', 'survived'],
  ]);
  t.regex(run.stdout, /broken +ill-typed .*the build fails with the patch applied/s);
  t.regex(run.stdout, /broken +stale .*the patch no longer applies/);
  t.regex(run.stdout, /^mutants: 1 caught, 1 survived, 2 broken, of 4, in \d+\.\d s$/m);
  t.deepEqual(snapshotTree(root, []), before);
  t.deepEqual(readdirSync(tmpParent), []);
});

test('with two lanes, each mutant is still reported once with its own outcome, and both copies are removed', async (t) => {
  const root = fixtureProject(t);
  const tmpParent = tempDir(t, 'zb-mutants-tmp-');
  const before = snapshotTree(root, []);
  const run = await runRunner(root, tmpParent, ['--jobs', '2', 'caught', 'survives', 'stale', 'ill-typed']);
  t.is(run.status, 1, run.stdout + run.stderr);
  t.regex(run.stdout, /^building 2 private copies of .* in \S+zotbox-mutants-\S+, \S+zotbox-mutants-\S+$/m);
  const outcomes = run.stdout
    .split('\n')
    .map((line) => /^(caught|survived|broken)\s+(\S+) /.exec(line))
    .filter((m) => m !== null)
    .map((m) => `${m[2]!} ${m[1]!}`)
    .sort();
  t.deepEqual(outcomes, ['caught caught', 'ill-typed broken', 'stale broken', 'survives survived']);
  t.regex(run.stdout, /^mutants: 1 caught, 1 survived, 2 broken, of 4, in \d+\.\d s$/m);
  t.deepEqual(snapshotTree(root, []), before);
  t.deepEqual(readdirSync(tmpParent), []);
});

test('--jobs takes a whole number from 1 to 99, else the runner says so and runs nothing', async (t) => {
  const root = fixtureProject(t);
  const tmpParent = tempDir(t, 'zb-mutants-tmp-');
  for (const bad of ['0', 'two', '-1', '100']) {
    const run = await runRunner(root, tmpParent, ['--jobs', bad, 'caught']);
    t.is(run.status, 2, bad);
    t.regex(run.stderr, /--jobs needs a whole number from 1 to 99, not "[^"]*"\. usage: mutants /, bad);
  }
  t.deepEqual(readdirSync(tmpParent), []);
});

test('a run of only caught mutants, named on the command line, succeeds', async (t) => {
  const root = fixtureProject(t);
  const tmpParent = tempDir(t, 'zb-mutants-tmp-');
  const run = await runRunner(root, tmpParent, ['caught']);
  t.is(run.status, 0, run.stdout + run.stderr);
  t.regex(run.stdout, /^mutants: 1 caught, 0 survived, 0 broken, of 1, /m);
  t.deepEqual(readdirSync(tmpParent), []);
});

test('interrupted while a patch is applied, the runner leaves the tree untouched and removes its copy', async (t) => {
  const root = fixtureProject(t);
  const tmpParent = tempDir(t, 'zb-mutants-tmp-');
  const before = snapshotTree(root, []);
  // "testing" is printed once the patch is applied to the copy, before it is built and tested: the worst moment.
  const run = await runRunner(root, tmpParent, ['caught'], (line, child) => {
    if (line.startsWith('testing  caught')) child.kill('SIGINT');
  });
  t.is(run.status, 130, run.stdout + run.stderr);
  t.regex(run.stdout, /interrupted by SIGINT/);
  t.notRegex(run.stdout, /^caught /m);
  t.deepEqual(snapshotTree(root, []), before);
  t.deepEqual(readdirSync(tmpParent), []);
});

test('a test that caught a mutant but fails on the unmutated copy too makes that mutant broken and the run fail: it would catch every one for the wrong reason', async (t) => {
  const root = fixtureProject(t);
  const tmpParent = tempDir(t, 'zb-mutants-tmp-');
  writeFileSync(path.join(root, 'test', 'arith.test.ts'), "import test from 'ava';\nimport { add } from '../src/arith.js';\n\ntest('add adds wrongly', (t) => {\n  t.is(add(2, 3), 6);\n});\n");
  const run = await runRunner(root, tmpParent, ['caught']);
  t.is(run.status, 2, run.stdout + run.stderr);
  t.regex(run.stdout, /^broken +caught: the tests that caught it fail without its patch too, so they prove nothing$/mu);
  t.regex(run.stdout, /the unmutated copy fails tests that caught mutants, so those catches prove nothing; fix these first:\n +✘ dist\/test\/arith\.test\.js › add adds wrongly/u);
  t.regex(run.stdout, /^mutants: 0 caught, 0 survived, 1 broken, of 1, /mu);
  t.deepEqual(readdirSync(tmpParent), []);
});

test('the private copy is reachable by other users, as the tree is: tests that run commands as the sandbox user see it', async (t) => {
  const root = fixtureProject(t);
  const tmpParent = tempDir(t, 'zb-mutants-tmp-');
  // The test reads its own copy's mode: 0755 as a clone would be, not mkdtemp's 0700.
  writeFileSync(
    path.join(root, 'test', 'arith.test.ts'),
    "import test from 'ava';\nimport { statSync } from 'node:fs';\nimport { add } from '../src/arith.js';\n\ntest('add adds', (t) => {\n  t.is(statSync(process.cwd()).mode & 0o777, 0o755);\n  t.is(add(2, 3), 5);\n});\n",
  );
  const run = await runRunner(root, tmpParent, ['caught']);
  t.is(run.status, 0, run.stdout + run.stderr);
  t.regex(run.stdout, /^mutants: 1 caught, 0 survived, 0 broken, of 1, /mu);
});
