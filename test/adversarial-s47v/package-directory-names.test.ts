// Review s47v of issue 21: agent-file-names.ts checks no name at or below a component named node_modules,
// site-packages or dist-packages: "ignored by git in projects that have them, so no hook is handed their names". That
// holds only where .gitignore says so. In a project with no .gitignore, after the agent rewrites .gitignore (not
// protected: the write tool), or in a directory merely NAMED site-packages (docs/site-packages/), the user's `git add -A`
// stages the names, and s46u's hook puts them into shell text (`git add ${files.join(" ")}`): a staged
// `node_modules/$(sh p.sh).js` runs the agent's p.sh unconfined. Write tool only. Controls (pass today): a name ABOVE a
// package directory (`src/$(sh p.sh)/node_modules/x.js`) is removed after the write and refused on the next one, and
// made by a confined command it is removed; inside an ignored node_modules the same name never reaches the hook.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';
import { markerOf } from '../adversarial-s45t/fixtures.js';

const HOOK =
  '#!/usr/bin/env node\nconst { execFileSync, execSync } = require("node:child_process");\nconst files = execFileSync("git", ["diff", "--cached", "--name-only"], { encoding: "utf8" }).split("\\n").filter(Boolean);\nexecSync(`git add ${files.join(" ")}`, { stdio: "inherit" });\n';

const hookProject = (t: ExecutionContext, extra: Readonly<Record<string, string>> = {}) => project(t, { '.git/hooks/pre-commit': HOOK, 'src/app.js': '1;\n', ...extra });

/** The agent writes `p.sh`, then each of `names` (one write tool call per run); the user stages everything and commits. */
async function writesThenCommit(t: ExecutionContext, ws: string, names: readonly string[]): Promise<void> {
  const marker = markerOf(ws);
  t.log(await agentWrites(t, ws, 'p.sh', `touch ${marker}\n`));
  for (const name of names) t.log(await agentWrites(t, ws, name, '1;\n'));
  git(ws, 'add', '-A');
  t.log(git(ws, 'diff', '--cached', '--name-only'));
  try {
    git(ws, 'commit', '-q', '-m', 'user commit');
  } catch {
    // what the hook ran is what counts
  }
  t.false(existsSync(marker), "a staged name the agent made ran the agent's p.sh in the user's pre-commit hook");
}

test('control (passes today): a name above a node_modules directory is checked (.gitignore ignores node_modules)', async (t) => {
  const ws = hookProject(t, { '.gitignore': 'node_modules/\n' });
  await writesThenCommit(t, ws, ['src/$(sh p.sh)/node_modules/x.js', 'src/$(sh p.sh)/a.js']);
});

test('control (passes today): a name above a node_modules directory is checked when made by a confined command', async (t) => {
  const ws = hookProject(t, { '.gitignore': 'node_modules/\n' });
  const marker = markerOf(ws);
  t.log(await agentWrites(t, ws, 'p.sh', `touch ${marker}\n`));
  const make = "mkdir -p 'src/$(sh p.sh)/node_modules/x'\necho 1 > 'src/$(sh p.sh)/a.js'\n";
  t.log(await agentWrites(t, ws, 'mk.sh', make, 'sh mk.sh'));
  git(ws, 'add', '-A');
  try {
    git(ws, 'commit', '-q', '-m', 'user commit');
  } catch {
    // what the hook ran is what counts
  }
  t.false(existsSync(marker), "a staged name the agent made ran the agent's p.sh in the user's pre-commit hook");
});

test('a name inside node_modules is checked in a project that does not ignore node_modules', async (t) => {
  await writesThenCommit(t, hookProject(t), ['node_modules/$(sh p.sh).js']);
});

test('a name inside node_modules is checked once the agent has rewritten .gitignore (the write tool, two files)', async (t) => {
  const ws = hookProject(t, { '.gitignore': 'node_modules/\n' });
  await writesThenCommit(t, ws, ['.gitignore', 'node_modules/$(sh p.sh).js']);
});

test('a name inside a directory merely named site-packages is checked', async (t) => {
  await writesThenCommit(t, hookProject(t, { '.gitignore': 'node_modules/\n.venv/\n' }), ['docs/site-packages/$(sh p.sh).md']);
});

test('control (passes today): the same name outside a package directory is refused', async (t) => {
  const ws = hookProject(t, { '.gitignore': 'node_modules/\n' });
  t.regex(await agentWrites(t, ws, 'src/$(sh p.sh)/a.js', '1;\n'), /failed: write denied/u);
  t.false(existsSync(path.join(ws, 'src/$(sh p.sh)')));
});

test('a name with spaces inside node_modules, which splits into no option, stays ordinary work (node_modules is checked like any directory since the fix)', async (t) => {
  const ws = hookProject(t, { '.gitignore': 'node_modules/\n' });
  await writesThenCommit(t, ws, ['node_modules/x y/index.js']);
  t.deepEqual(readdirSync(path.join(ws, 'node_modules')), ['x y']);
});
