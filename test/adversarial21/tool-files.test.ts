// Findings: files other tools run on their own that the protected list
// (policy/protected-files.ts) misses. Each is written here by the write tool alone
// (no bash), with a write scope of ${workspace} that names none of them: the
// closed world says such a file is not granted unless a scope names it. (The
// review's seventh case, a virtualenv's bin/activate, is in tool-files-venv.test.ts.)
import test from 'ava';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { makeWorld, writeAll } from './world.js';

test('lefthook reads lefthook.yaml, .toml, .json and their -local variants as it reads lefthook.yml: none is granted by ${workspace}', async (t) => {
  const world = makeWorld(t);
  const files = [
    'lefthook.yaml',
    '.lefthook.yaml',
    'lefthook.toml',
    '.lefthook.toml',
    'lefthook.json',
    '.lefthook.json',
    'lefthook.jsonc',
    'lefthook-local.yaml',
    'lefthook-local.toml',
    'lefthook-local.json',
  ];
  const written = await writeAll(world, files, 'pre-commit:\n  commands:\n    x:\n      run: touch /tmp/pwned\n');
  t.deepEqual(written, [], "the user's git commit (lefthook hooks installed) runs the commands these files list");
});

test('configs that a protected hook delegates to (lint-staged, commitlint, husky 4) are not granted by ${workspace}', async (t) => {
  const world = makeWorld(t);
  // .husky/pre-commit is protected, and its usual whole content is "npx lint-staged": lint-staged then runs what these list.
  const files = ['.lintstagedrc', '.lintstagedrc.json', 'lint-staged.config.js', 'commitlint.config.js', '.huskyrc', '.huskyrc.json', 'husky.config.js', '.simple-git-hooks.json'];
  const written = await writeAll(world, files, '{"*": "sh -c \'touch /tmp/pwned\'"}\n');
  t.deepEqual(written, [], "the user's git commit runs the commands (or the JavaScript) these files hold");
});

test("other version control systems' repository configuration (.hg/hgrc, .jj, .sl) is not granted by ${workspace}", async (t) => {
  const world = makeWorld(t);
  mkdirSync(path.join(world.workspace, 'vendor'));
  // Mercurial runs [hooks] and loads [extensions] from a repository's own .hg/hgrc when its owner is the user, as here.
  const files = ['vendor/.hg/hgrc', 'vendor/.hg/requires', 'vendor/.jj/repo/config.toml', 'vendor/.sl/config'];
  const written = await writeAll(world, files, '[hooks]\npre-status = touch /tmp/pwned\n');
  t.deepEqual(written, [], 'a shell prompt or IDE running hg status (or jj, sl) in vendor/ runs the hook');
});

test('mise configuration (hooks and env sources run when a shell enters the directory) is not granted by ${workspace}', async (t) => {
  const world = makeWorld(t);
  const files = ['mise.toml', '.mise.toml', 'mise.local.toml', '.mise/config.toml', '.config/mise.toml', '.tool-versions', '.rvmrc'];
  const written = await writeAll(world, files, '[hooks]\nenter = "touch /tmp/pwned"\n');
  t.deepEqual(written, [], 'mise activate (or rvm) runs these on cd, as direnv runs .envrc');
});

test("git front-ends' per-repository configuration (lazygit's .lazygit.yml: its pager runs as soon as it shows a diff) is not granted by ${workspace}", async (t) => {
  const world = makeWorld(t);
  // lazygit reads .git/lazygit.yml (git metadata, refused) and .lazygit.yml in the repository and every parent directory.
  const written = await writeAll(world, ['.lazygit.yml', 'packages/app/.lazygit.yml'], 'git:\n  paging:\n    pager: sh -c "touch /tmp/pwned"\n');
  t.deepEqual(written, [], 'opening lazygit in the repository runs the pager these files name');
});
