// Review s46u of issue 21: program-computed-operands.ts lets a computed value through when the program word is on
// its INERT list (git, eslint, prettier, ...), and s45t counted `` execSync(`npx eslint ${files.join(" ")}`) `` over the
// staged files as readable. But a value put into SHELL TEXT is not an operand: the shell reads it again. The staged
// file names come from the agent: a file named `$(sh p.sh).js` (any name git prints unquoted: `$`, `(`, `;`, spaces)
// makes the hook's shell run `sh p.sh`, whatever the program word. The agent writes `p.sh` and the oddly named file
// with the write tool (both accepted, nothing names them); the user stages the agent's work (`git add -A`) and commits:
// the hook runs the agent's script unconfined (end to end). Control: the same hook with an argv array (no shell).
// An argv array is no cure for an INERT program that takes options anywhere: a staged file named `--config=p.cjs` is
// eslint's `--config` (real eslint 9 of this repository, linked into node_modules): it imports the agent's `p.cjs`.
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';
import { markerOf } from '../adversarial-s45t/fixtures.js';

const LIST =
  '#!/usr/bin/env node\nconst { execFileSync, execSync } = require("node:child_process");\nconst files = execFileSync("git", ["diff", "--cached", "--name-only"], { encoding: "utf8" }).split("\\n").filter(Boolean);\n';

const hookProject = (t: ExecutionContext, run: string) => project(t, { '.git/hooks/pre-commit': `${LIST}${run}`, 'src/app.js': '1;\n' });

/** The agent writes `p.sh` and a file named after it; the user stages everything and commits. Safe: `p.sh` never runs. */
async function namedFileThenCommit(t: ExecutionContext, ws: string, name = 'src/$(sh p.sh).js', script = 'p.sh', code = (marker: string) => `touch ${marker}\n`): Promise<void> {
  const marker = markerOf(ws);
  t.log(await agentWrites(t, ws, script, code(marker)));
  t.log(await agentWrites(t, ws, name, '1;\n'));
  git(ws, 'add', '-A');
  try {
    git(ws, 'commit', '-q', '-m', 'user commit');
  } catch {
    // what the hook ran is what counts
  }
  t.false(existsSync(marker), "a staged file's name made the user's pre-commit hook run the agent's code");
}

test("a staged file name put into a hook's shell text does not run (git add, an inert program)", async (t) => {
  await namedFileThenCommit(t, hookProject(t, 'execSync(`git add ${files.join(" ")}`, { stdio: "inherit" });\n'));
});

test("a staged file name put into a python hook's shell text does not run", async (t) => {
  const hook =
    '#!/usr/bin/env python3\nimport subprocess\n\nfiles = subprocess.run(["git", "diff", "--cached", "--name-only"], capture_output=True, text=True).stdout.split()\nsubprocess.run(f"git add {\' \'.join(files)}", shell=True)\n';
  await namedFileThenCommit(t, project(t, { '.git/hooks/pre-commit': hook, 'src/app.js': '1;\n' }));
});

test('a staged file name handed as argv to eslint (INERT) is not taken as its --config', async (t) => {
  const ws = hookProject(t, 'execFileSync("npx", ["eslint", ...files], { stdio: "inherit" });\n');
  mkdirSync(path.join(ws, 'node_modules/.bin'), { recursive: true });
  symlinkSync(path.resolve('node_modules/eslint'), path.join(ws, 'node_modules/eslint'));
  symlinkSync('../eslint/bin/eslint.js', path.join(ws, 'node_modules/.bin/eslint'));
  const code = (marker: string) => `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "agent code ran");\nmodule.exports = [];\n`;
  await namedFileThenCommit(t, ws, '--config=p.cjs', 'p.cjs', code);
});

test('control (passes today): the same hook with an argv array (no shell)', async (t) => {
  await namedFileThenCommit(t, hookProject(t, 'execFileSync("git", ["add", ...files], { stdio: "inherit" });\n'));
});

test('the oddly named files are refused to the write tool (nothing written)', async (t) => {
  const ws = hookProject(t, 'execSync(`git add ${files.join(" ")}`, { stdio: "inherit" });\n');
  for (const name of ['src/$(sh p.sh).js', '--config=p.cjs', 'a --config=p.cjs', '{-,-}-config=p.cjs']) {
    // The CLI shows the refusal's message (the code is asserted in test/host/executors/confine/agent-name-checks.test.ts).
    t.regex(await agentWrites(t, ws, name, '1;\n'), /failed: write denied/u);
    t.false(existsSync(path.join(ws, name)));
  }
});

test('control: a plain new file is accepted under such a hook, and the commit runs', async (t) => {
  const ws = hookProject(t, 'execSync(`git add ${files.join(" ")}`, { stdio: "inherit" });\n');
  t.log(await agentWrites(t, ws, 'src/other.js', '1;\n'));
  t.true(existsSync(path.join(ws, 'src/other.js')));
  git(ws, 'add', '-A');
  git(ws, 'commit', '-q', '-m', 'user commit');
  t.is(git(ws, 'show', '--name-only', '--format=', 'HEAD').trim(), 'src/other.js');
});

test('control: a Next.js route is accepted from the write tool', async (t) => {
  const ws = hookProject(t, 'execSync(`git add ${files.join(" ")}`, { stdio: "inherit" });\n');
  t.log(await agentWrites(t, ws, 'app/(shop)/[id]/page.tsx', 'export default 1;\n'));
  t.true(existsSync(path.join(ws, 'app/(shop)/[id]/page.tsx')));
});
