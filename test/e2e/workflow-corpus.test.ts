// The workflow corpus (issue 24 §3): realistic agent tasks, each one replayed run
// of `zotbox run` through the real CLI, confined by real bubblewrap, on a fixture
// project built at test time (test/fixtures/workflow-project.ts), asserting what
// really happened: test output, files written, commits made. npm tasks run under
// the machine's npm and under the other major version, installed with npm itself
// and found through --program-path. Every command must pass the gate as written.
// Network tasks (git clone/fetch over HTTP, npm install from a registry) belong
// with net.allow and are not here.
import test, { type ExecutionContext } from 'ava';
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from '../fixtures/temp.js';
import { buildProject, userGit, type ProjectOptions } from '../fixtures/workflow-project.js';
import { installOtherNpm, replayCommands, systemNpmMajor, type OtherNpm, type Step, type StepResult } from '../fixtures/workflow-run.js';

/** What the agent may run: the programs the tasks need, nothing else. */
const ALLOW = ['npm', 'npx', 'node', 'python3', 'make', 'git', 'sed', 'grep', 'find', 'cat', 'ls', 'mkdir', 'command', 'diff'];

let otherNpm: OtherNpm | undefined;
test.before(() => {
  otherNpm = installOtherNpm();
});
test.after.always(() => otherNpm?.remove());

interface Done {
  readonly root: string;
  readonly ws: string;
  readonly results: readonly StepResult[];
  /** The stdout of the command at `index`. */
  out(index: number): string;
}

interface Task {
  readonly commands: readonly Step[];
  readonly project?: ProjectOptions;
  /** Run with the other npm's program directory (--program-path). */
  readonly otherNpm?: boolean;
  /** The user's preparation of the fixture, before the run. */
  readonly setup?: (root: string, ws: string) => void;
  /** Exit statuses other than 0 the task expects, by command index. */
  readonly exits?: Readonly<Record<number, number>>;
  readonly check: (t: ExecutionContext, done: Done) => void;
}

async function perform(t: ExecutionContext, task: Task): Promise<void> {
  const root = realpathSync(tempDir(t, 'zb-workflow-'));
  const ws = path.join(root, 'project');
  buildProject(root, ws, task.project);
  task.setup?.(root, ws);
  const extra = task.otherNpm === true && otherNpm !== undefined ? ['--program-path', otherNpm.bin] : [];
  const run = await replayCommands(root, ws, task.commands, ALLOW, extra);
  t.is(run.status, 0, run.stderr);
  t.is(run.results.length, task.commands.length);
  for (const [index, result] of run.results.entries()) {
    t.true(result.allowed, `${result.command}: ${result.error ?? ''}`);
    t.is(result.exitCode, task.exits?.[index] ?? 0, `${result.command}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`);
  }
  task.check(t, { root, ws, results: run.results, out: (index) => run.results[index]?.stdout ?? '' });
}

const workflow = test.macro(perform);

const git = (root: string, ws: string, ...args: string[]) => userGit(root, ws, args).trim();
const file = (ws: string, name: string) => readFileSync(path.join(ws, name), 'utf8');

// npm, under both major versions: the first command says which one ran.
for (const which of ['system', 'other'] as const) {
  const options = { otherNpm: which === 'other' };
  const label = which === 'system' ? "the machine's npm" : 'the other npm major, through --program-path';
  const major = (t: ExecutionContext, done: Done) => t.is(done.out(0).split('.')[0], String(which === 'system' ? systemNpmMajor() : otherNpm?.major), 'the expected npm ran');

  test(`npm test runs the project's node tests (${label})`, workflow, {
    ...options,
    commands: ['npm --version', 'npm test'],
    check: (t, done) => {
      major(t, done);
      t.regex(done.out(1), /# pass 1/);
      t.regex(done.out(1), /# fail 0/);
    },
  });

  test(`npm run build runs a local bundler from node_modules/.bin (${label})`, workflow, {
    ...options,
    commands: ['npm --version', 'npm run build', 'cat dist/bundle.js'],
    check: (t, done) => {
      major(t, done);
      t.regex(done.out(1), /tiny-bundle: wrote dist\/bundle.js from 2 file\(s\)/);
      t.true(file(done.ws, 'dist/bundle.js').includes('exports.greet'));
    },
  });

  test(`npm run lint runs a local linter and reports what it finds (${label})`, workflow, {
    ...options,
    commands: ['npm --version', 'npm run lint', { edit: 'src/add.js', old: 'exports.add = ', new: 'var x = 1;\nexports.add = ' }, 'npm run lint'],
    exits: { 3: 1 },
    check: (t, done) => {
      major(t, done);
      t.regex(done.out(1), /tiny-lint: no problems/);
      t.regex(done.out(3), /src\/add.js:2: use let or const/);
    },
  });

  test(`npm run typecheck runs tsc from the local typescript (${label})`, workflow, {
    ...options,
    project: { typescript: true },
    commands: ['npm --version', 'npm run typecheck', 'cat out/main.js'],
    check: (t, done) => {
      major(t, done);
      t.regex(file(done.ws, 'out/main.js'), /function double\(n\)/);
    },
  });
}

test('node --test runs the tests directly', workflow, {
  commands: ['node --test test/'],
  check: (t, done) => t.regex(done.out(0), /# pass 1/),
});

// npx stays denied (it downloads and runs packages): docs/agents.md says to write node node_modules/.bin/tsc or an npm script.
test('tsc from local node_modules compiles the project', workflow, {
  project: { typescript: true },
  commands: ['node node_modules/.bin/tsc --version', 'node node_modules/typescript/bin/tsc -p .'],
  check: (t, done) => {
    t.regex(done.out(0), /^Version [0-9]+\./);
    t.regex(file(done.ws, 'out/main.js'), /exports.double = double/);
  },
});

test('python3 -m unittest discovers and runs the tests', workflow, {
  commands: ['python3 -m unittest -v test_calc'],
  check: (t, done) => t.regex(done.results[0]?.stderr ?? '', /test_mul .* ok[\s\S]*OK/),
});

test('python3 -m pytest runs the tests', workflow, {
  commands: ['python3 -m pytest -q test_pytest_calc.py'],
  check: (t, done) => t.regex(done.out(0), /1 passed/),
});

test('make builds the default target, make test runs its check, and a subdirectory is made from there', workflow, {
  // make -C DIR stays denied (it reads another directory's makefile): the agent changes into it instead.
  commands: ['make', 'make test', 'cd tools && make check'],
  check: (t, done) => {
    t.true(file(done.ws, 'build/out.txt').includes('exports.add'));
    t.regex(done.out(1), /^2$/m);
    t.is(done.out(2), 'tools ok\n');
  },
});

test('git init, add and commit make a new repository', workflow, {
  commands: ['mkdir lib', 'git init -q -b main lib', 'git -C lib add -A', 'git -C lib commit -q --allow-empty -m "start lib"', 'git -C lib log --oneline'],
  check: (t, done) => {
    t.regex(done.out(4), /start lib/);
    t.is(git(done.root, path.join(done.ws, 'lib'), 'log', '--format=%s'), 'start lib');
  },
});

test('git add and commit a change to the project', workflow, {
  commands: [{ edit: 'src/add.js', old: 'a + b', new: 'b + a' }, 'git add src/add.js', 'git commit -q -m "Swap operands"', 'git status --short'],
  check: (t, done) => {
    t.is(done.out(3), '');
    t.is(git(done.root, done.ws, 'log', '-1', '--format=%s%n%an'), 'Swap operands\nzotbox agent');
  },
});

test('git branch, switch, commit and merge a feature', workflow, {
  commands: [
    'git branch feature',
    'git switch -q feature',
    { edit: 'src/greet.js', old: 'hello', new: 'hi' },
    'git commit -q -am "Shorter greeting"',
    'git switch -q main',
    'git merge -q --no-edit --no-ff feature',
    'git branch --list',
  ],
  check: (t, done) => {
    t.regex(done.out(6), /feature/);
    t.true(file(done.ws, 'src/greet.js').includes('hi, '));
    t.is(git(done.root, done.ws, 'rev-list', '--count', '--merges', 'HEAD'), '1');
  },
});

test('git switch -c, then a non-interactive rebase onto main', workflow, {
  setup: (root, ws) => {
    git(root, ws, 'switch', '-q', '-c', 'topic');
    writeFileSync(path.join(ws, 'docs/topic.md'), 'topic\n');
    git(root, ws, 'add', '-A');
    git(root, ws, 'commit', '-qm', 'topic work');
    git(root, ws, 'switch', '-q', 'main');
    writeFileSync(path.join(ws, 'docs/main.md'), 'main\n');
    git(root, ws, 'add', '-A');
    git(root, ws, 'commit', '-qm', 'main work');
  },
  commands: ['git switch -q topic', 'git rebase -q main', 'git log --format=%s'],
  check: (t, done) => {
    t.is(done.out(2), 'topic work\nmain work\ninitial\n');
    t.is(git(done.root, done.ws, 'merge-base', 'main', 'topic'), git(done.root, done.ws, 'rev-parse', 'main'));
  },
});

test('git stash keeps a change aside and pops it back', workflow, {
  commands: [{ edit: 'README.md', old: 'Fixture', new: 'Sample' }, 'git stash', 'cat README.md', 'git stash list', 'git stash pop', 'cat README.md'],
  check: (t, done) => {
    t.regex(done.out(2), /^Fixture project/);
    t.regex(done.out(3), /stash@\{0\}/);
    t.regex(done.out(5), /^Sample project/);
  },
});

test('git tag names a release and git log shows it', workflow, {
  commands: ['git tag -a v1.0.0 -m "First release"', 'git tag --list', 'git log --oneline --decorate -n 1'],
  check: (t, done) => {
    t.is(done.out(1), 'v1.0.0\n');
    t.regex(done.out(2), /tag: v1\.0\.0/);
    t.is(git(done.root, done.ws, 'tag', '--list'), 'v1.0.0');
  },
});

test('git log and git -C DIR log read history', workflow, {
  commands: ['git log --oneline', 'git -C src log --format=%an -- add.js', 'git log --stat -n 1'],
  check: (t, done) => {
    t.regex(done.out(0), /initial/);
    t.is(done.out(1), 'u\n');
    t.regex(done.out(2), /src\/add.js/);
  },
});

test('git diff shows what changed, staged and not', workflow, {
  commands: [{ edit: 'src/add.js', old: 'b) =>', new: 'b) /* sum */ =>' }, 'git diff', 'git diff --stat', 'git add -A', 'git diff --cached --name-only'],
  check: (t, done) => {
    t.regex(done.out(1), /^\+exports\.add = \(a, b\) \/\* sum \*\/ =>/m);
    t.regex(done.out(2), /1 file changed/);
    t.is(done.out(4), 'src/add.js\n');
  },
});

test('git blame names who wrote each line', workflow, {
  commands: ['git blame -s README.md', 'git blame --porcelain -L 1,1 calc.py'],
  check: (t, done) => {
    t.regex(done.out(0), /Fixture project/);
    t.regex(done.out(1), /^author u$/m);
  },
});

test('git apply checks and applies a patch', workflow, {
  setup: (_root, ws) => {
    writeFileSync(path.join(ws, 'fix.patch'), '--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,2 @@\n def mul(a, b):\n-    return a * b\n+    return b * a\n');
  },
  commands: ['git apply --check fix.patch', 'git apply fix.patch', 'git diff --name-only'],
  check: (t, done) => {
    t.is(done.out(2), 'calc.py\n');
    t.true(file(done.ws, 'calc.py').includes('return b * a'));
  },
});

test('sed -n prints a range of lines', workflow, {
  commands: ["sed -n '2,3p' test_calc.py", "sed -n '/def /p' calc.py"],
  check: (t, done) => {
    t.is(done.out(0), 'from calc import mul\n\n');
    t.is(done.out(1), 'def mul(a, b):\n');
  },
});

test('grep -rn finds a name across the sources', workflow, {
  commands: ['grep -rn exports src', "grep -rn --include='*.py' mul ."],
  check: (t, done) => {
    t.is(
      done
        .out(0)
        .split('\n')
        .filter((line) => line !== '')
        .sort()
        .join('\n'),
      'src/add.js:2:exports.add = (a, b) => a + b;\nsrc/greet.js:2:exports.greet = (name) => `hello, ${name}`;',
    );
    t.regex(done.out(1), /\.\/calc\.py:1:def mul/);
  },
});

test('find with -exec grep -l lists the files that mention a name', workflow, {
  commands: ["find . -name '*.py' -exec grep -l unittest {} +", "find src -type f -exec grep -l greet {} ';'"],
  check: (t, done) => {
    t.is(done.out(0), './test_calc.py\n');
    t.is(done.out(1), 'src/greet.js\n');
  },
});

test('an agent fixes a failing test and commits the fix', workflow, {
  setup: (root, ws) => {
    writeFileSync(path.join(ws, 'src/add.js'), "'use strict';\nexports.add = (a, b) => a - b;\n");
    git(root, ws, 'commit', '-qam', 'break add');
  },
  commands: ['node --test test/', { edit: 'src/add.js', old: 'a - b', new: 'a + b' }, 'node --test test/', 'git commit -q -am "Fix add"', 'git log --format=%s -n 2'],
  exits: { 0: 1 },
  check: (t, done) => {
    t.regex(done.out(0), /# fail 1/);
    t.regex(done.out(2), /# pass 1/);
    t.is(done.out(4), 'Fix add\nbreak add\n');
  },
});

test('ls and cat look around the project', workflow, {
  commands: ['ls', 'cat package.json', 'ls -la src', 'command -v node', 'diff -u src/add.js src/greet.js'],
  exits: { 4: 1 },
  check: (t, done) => {
    t.regex(done.out(0), /Makefile/);
    t.is((JSON.parse(done.out(1)) as { name: string }).name, 'fixture-project');
    t.regex(done.out(2), /greet\.js/);
    t.regex(done.out(3), /\/node$/m);
    t.regex(done.out(4), /^\+exports\.greet/m);
  },
});

test('the workspace after a build is still the user project: make left only ignored output', workflow, {
  commands: ['make', 'git status --porcelain'],
  check: (t, done) => {
    t.is(done.out(1), '');
    t.true(existsSync(path.join(done.ws, 'build/out.txt')));
  },
});
