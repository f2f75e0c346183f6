// Review s47v of issue 21, over-denial: agent-file-names.ts refuses a name starting with `{` ("bash brace expansion can
// turn it into an option"), but bash expands a brace only around a top-level `,` or a `..` sequence: `{-,-}-x` is
// `--x -x`, while cookiecutter's `{{cookiecutter.project_slug}}` (the directory every cookiecutter template has) and
// Copier's `{{ project_name }}` stay one literal word. An agent working on a template repository cannot add a file
// to it. The hook is s46u's (staged names put into shell text); the template files must be accepted and committed.
import { existsSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

const HOOK =
  '#!/usr/bin/env node\nconst { execFileSync, execSync } = require("node:child_process");\nconst files = execFileSync("git", ["diff", "--cached", "--name-only"], { encoding: "utf8" }).split("\\n").filter(Boolean);\nexecSync(`git add ${files.map((f) => `\'${f}\'`).join(" ")}`, { stdio: "inherit" });\n';

for (const file of ['{{cookiecutter.project_slug}}/README.md', '{{cookiecutter.project_slug}}/src/{{cookiecutter.module_name}}.py']) {
  test(`a template file ${file} is accepted from the write tool`, async (t) => {
    const ws = project(t, { '.git/hooks/pre-commit': HOOK, 'cookiecutter.json': '{"project_slug":"app","module_name":"app"}\n' });
    t.log(await agentWrites(t, ws, file, 'text\n'));
    t.true(existsSync(path.join(ws, file)), `${file} (ordinary work in a cookiecutter template) was refused`);
    git(ws, 'add', '-A');
    git(ws, 'commit', '-q', '-m', 'user commit');
    t.is(git(ws, 'show', '--name-only', '--format=', 'HEAD').trim(), file);
  });
}

test('control (passes today): a brace that bash expands into an option is refused', async (t) => {
  const ws = project(t, { '.git/hooks/pre-commit': HOOK, 'cookiecutter.json': '{}\n' });
  t.regex(await agentWrites(t, ws, '{-,-}-config=p.cjs', '1;\n'), /failed: write denied/u);
  t.false(existsSync(path.join(ws, '{-,-}-config=p.cjs')));
});
