// The tool-file readers as a closed world (s33d review): tool files above the write scopes, the hooks git runs for
// the repositories in and around them, any variable's directory, interpreters' modules and directories, and the
// scripts a script runs or sources to the end of the chain. Real files; expected paths written out by hand.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { scanGitMetadata } from '../../../../src/host/executors/confine/git-inventory.js';
import { protectedSetOf } from '../../../../src/host/executors/confine/protected-locations.js';
import { toolFileReferences } from '../../../../src/host/executors/confine/tool-file-references.js';
import { tempDir } from '../../../fixtures/temp.js';

/** A project at root/, the agent's write scope its package root/pkg, the user's home at home/. */
function project(t: Parameters<typeof tempDir>[0], files: Readonly<Record<string, string>>): { root: string; pkg: string; home: string } {
  const top = realpathSync(tempDir(t, 'zb-tool-closed-'));
  const root = path.join(top, 'root');
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(top, name)), { recursive: true });
    writeFileSync(path.join(top, name), content);
  }
  mkdirSync(path.join(root, 'pkg'), { recursive: true });
  return { root, pkg: path.join(root, 'pkg'), home: path.join(top, 'home') };
}

function found(scope: string, entries: readonly string[], options: { home?: string; hooks?: { directory: string; top: string }[]; env?: Record<string, string> } = {}) {
  const result = toolFileReferences(entries, [scope], {
    environment: { HOME: options.home ?? '/nonexistent-home', ...options.env },
    ...(options.hooks === undefined ? {} : { hookDirectories: options.hooks }),
  });
  return {
    paths: result.locations.map((location) => `${path.relative(scope, location.path)}${location.tree ? '/' : ''}`).sort(),
    unresolved: result.unresolved,
  };
}

test('tool files in the directories above a write scope are read: the monorepo root .envrc and .husky name the package files', (t) => {
  const { pkg } = project(t, {
    'root/.envrc': 'PATH_add pkg/bin\n',
    'root/.husky/pre-commit': 'sh pkg/scripts/check.sh\n',
    'root/.vscode/settings.json': '{ "terminal.integrated.env.linux": { "PYTHONPATH": "${workspaceFolder}/pkg/lib" } }\n',
  });
  t.deepEqual(found(pkg, []).paths, ['bin/', 'lib/', 'scripts/check.sh']);
});

test("the user's home directory and what lies above it are not read: the tools' global state there is no project's", (t) => {
  const { pkg, root } = project(t, { 'root/.envrc': 'PATH_add pkg/bin\n' });
  // The home is the project root itself: its .envrc is the home's, and is not read as the project's.
  t.deepEqual(found(pkg, [], { home: root }).paths, []);
});

test("the hooks git runs (a repository's own hooks/, a hooksPath), read as scripts from the worktree top; git's samples are not", (t) => {
  const { root, pkg } = project(t, {
    'root/.git/hooks/pre-commit': '#!/bin/sh\nsh pkg/scripts/check.sh\n. pkg/scripts/common\n',
    'root/.git/hooks/pre-push.sample': '#!/bin/sh\nsh pkg/scripts/sample.sh\n',
    'root/pkg/scripts/common': '. ./pkg/scripts/deep.sh\n',
  });
  const hooks = [{ directory: path.join(root, '.git', 'hooks'), top: root }];
  t.deepEqual(found(pkg, [], { hooks }).paths, ['scripts/check.sh', 'scripts/common', 'scripts/deep.sh']);
});

test('a compiled hook is unresolved: zotbox cannot read which files it runs', (t) => {
  const { root, pkg } = project(t, { 'root/hooks/pre-commit': '\u007fELF\u0002\u0001\u0001\u0000\u0000\u0000' });
  const result = found(pkg, [], { hooks: [{ directory: path.join(root, 'hooks'), top: root }] });
  t.deepEqual(result.unresolved, [`the hook ${path.join(root, 'hooks', 'pre-commit')} is a compiled program, and zotbox cannot read which files it runs`]);
});

test('a script a hook runs outside the scope, in the project, is read in turn; a script it sources without an extension is too', (t) => {
  const { root, pkg } = project(t, {
    'root/.husky/pre-commit': 'sh tools/run.sh\n',
    'root/tools/run.sh': '. tools/common\n',
    'root/tools/common': 'sh pkg/scripts/deep.sh\n',
  });
  t.deepEqual(found(pkg, [path.join(root, '.husky')]).paths, ['scripts/deep.sh']);
});

test('any variable an .envrc sets names a directory protected whole, unless it is a data variable; a file it names is read', (t) => {
  const { pkg } = project(t, {
    'root/pkg/.envrc': [
      'export PERL5LIB=$PWD/lib',
      'export XDG_CONFIG_HOME=$PWD/.config',
      'export RUBYLIB=rlib',
      'export PERL5OPT=-Mlocal::lib=./perl5',
      'export PYTHONSTARTUP=$PWD/startup.py',
      'export DATA_DIR=$PWD/data',
      'export TMPDIR=$PWD/tmp',
      'export NODE_ENV=development',
      // Named like no search path: a directory its value names is protected whole all the same.
      'export APP_SETTINGS=$PWD/conf',
      '',
    ].join('\n'),
    'root/pkg/startup.py': 'import helpers\n',
    'root/pkg/conf/app.toml': '',
  });
  // Every word of a value counts as a file a tool may run (NODE_ENV=development: a file named development); startup.py is
  // Python code, whose `import helpers` loads helpers (a module, or a package) from beside it.
  t.deepEqual(found(pkg, [path.join(pkg, '.envrc')]).paths, [
    '.config/',
    'conf/',
    'development',
    'helpers.py',
    'helpers/',
    'helpers/__init__.py',
    'helpers/__main__.py',
    'import',
    'lib/',
    'perl5/',
    'rlib/',
    'startup.py',
  ]);
});

test("settings name modules and quoted names: pre-commit's entry: python -m, a task's quoted script with a blank, a name in any letters", (t) => {
  const { pkg } = project(t, {
    'root/pkg/.pre-commit-config.yaml': 'repos:\n  - repo: local\n    hooks:\n      - id: check\n        entry: python -m tools.check\n        language: system\n',
    // A task's command and its args are one command: python3's -m in the args runs tools/lint.py.
    'root/pkg/.vscode/tasks.json': '{ "tasks": [{ "command": "sh", "args": ["scripts/pre commit.sh", "prüfen.sh"] }, { "command": "python3", "args": ["-m", "tools.lint"] }] }\n',
  });
  const paths = found(pkg, [path.join(pkg, '.pre-commit-config.yaml'), path.join(pkg, '.vscode')]).paths;
  for (const name of ['tools/check.py', 'tools/__init__.py', 'tools/check/', 'scripts/pre commit.sh', 'prüfen.sh', 'tools/lint.py', 'tools/lint/']) t.true(paths.includes(name), name);
});

test("husky's hooks are read by the shell's grammar, also where git is not yet told to run them: a loop, an input redirection", (t) => {
  const { pkg } = project(t, { 'root/pkg/.husky/pre-commit': 'for f in scripts/*.sh; do sh "$f"; done\nsh <tools/x.sh\n' });
  const paths = found(pkg, [path.join(pkg, '.husky')]).paths;
  t.true(paths.includes('scripts/'), paths.join(' '));
  t.true(paths.includes('tools/x.sh'), paths.join(' '));
});

test("the hooks in the enclosing repository's core.hooksPath (a directory of any name) name the package's scripts", (t) => {
  const { root, pkg } = project(t, { 'root/githooks/pre-commit': '#!/bin/sh\nsh pkg/scripts/check.sh\n' });
  execFileSync('git', ['init', '-q', root], { env: { PATH: '/usr/bin:/bin', HOME: root, GIT_CONFIG_NOSYSTEM: '1' } });
  execFileSync('git', ['-C', root, 'config', 'core.hooksPath', 'githooks'], { env: { PATH: '/usr/bin:/bin', HOME: root, GIT_CONFIG_NOSYSTEM: '1' } });
  const set = protectedSetOf(scanGitMetadata([pkg]), [pkg], { home: path.join(root, '..', 'home'), noSystem: true, environment: {} });
  t.deepEqual(set.toolUnresolved, []);
  t.true(
    set.locations.some((location) => location.path === path.join(pkg, 'scripts', 'check.sh')),
    set.locations.map((location) => location.path).join(' '),
  );
});

test('a husky file run by `env -S bash -e` is read as a script; a linked directory in .husky is read where it leads', (t) => {
  const { pkg } = project(t, {
    'root/pkg/.husky/pre-commit': '#!/usr/bin/env -S bash -e\nsh <tools/x.sh\n',
    'root/pkg/shared/pre-push': 'for f in checks/*.sh; do sh "$f"; done\n',
  });
  symlinkSync('../shared', path.join(pkg, '.husky', '_'));
  const paths = found(pkg, [path.join(pkg, '.husky')]).paths;
  // Read as words, `<tools/x.sh` would not name tools/x.sh; nor would a loop's pattern cover checks/.
  t.true(paths.includes('tools/x.sh'), paths.join(' '));
  t.true(paths.includes('checks/'), paths.join(' '));
});
