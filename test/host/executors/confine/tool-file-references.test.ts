// What protected tool files name, read in a closed world (tool-file-references.ts): direnv's grammar for .envrc and
// what it sources, dotenv files, nix path literals, and the path words of editor and agent settings. Real files;
// the expected paths are written out by hand.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DIRENV_FUNCTIONS, toolFileReferences } from '../../../../src/host/executors/confine/tool-file-references.js';
import { tempDir } from '../../../fixtures/temp.js';

/** The host's PATH, where a hook's python3 is found (read, never changed). */
const HOST = { PATH: process.env['PATH'] ?? '' };

function workspace(t: Parameters<typeof tempDir>[0], files: Readonly<Record<string, string>>): string {
  const ws = path.join(realpathSync(tempDir(t, 'zb-tool-refs-')), 'ws');
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    writeFileSync(path.join(ws, name), content);
  }
  return ws;
}

function protectedPaths(ws: string, entries: readonly string[], writeRoots: readonly string[] = [ws]) {
  const found = toolFileReferences(
    entries.map((entry) => path.join(ws, entry)),
    writeRoots,
  );
  return {
    paths: found.locations.map((location) => `${path.relative(ws, location.path)}${location.tree ? '/' : ''}`).sort(),
    unresolved: found.unresolved.length,
  };
}

test('the direnv directives name what direnv runs or loads, relative to the file that says them', (t) => {
  const ws = workspace(t, {
    '.envrc': [
      '# comment',
      'source_env_if_exists .envrc.local',
      "source_env 'conf/env.sh'",
      'dotenv',
      'dotenv_if_exists "config/dev.env"',
      'PATH_add bin scripts',
      'path_add PYTHONPATH lib',
      'use nix',
      'use flake ./dev',
      'watch_file flake.lock',
      'export NODE_ENV=development',
      'export PATH=$PWD/tools:$PATH',
      'BASH_ENV=./hooks/env.sh',
      'layout python3',
      '',
    ].join('\n'),
    'conf/env.sh': 'source_env ../more.sh\n',
  });
  t.deepEqual(protectedPaths(ws, ['.envrc']), {
    paths: [
      '.direnv/',
      '.env',
      '.envrc.local',
      'bin/',
      'conf/env.sh',
      'config/dev.env',
      'default.nix',
      'dev/flake.lock',
      'dev/flake.nix',
      // Every word of a value is a file a tool may run (GIT_EDITOR, BASH_ENV...): harmless here.
      'development',
      // Not there yet: a variable's path is protected whole (a directory made there is as good as the file).
      'hooks/env.sh/',
      'lib/',
      'more.sh',
      'scripts/',
      'shell.nix',
      'tools/',
    ],
    unresolved: 0,
  });
});

for (const line of [
  'eval "$(lorri direnv)"',
  'source .envrc.local',
  '. ./local.sh',
  'export X=$(cat .version)',
  'export X=`cat .version`',
  'if true; then source_env a; fi',
  'PATH_add $SOMEWHERE',
  'my_function a b',
]) {
  test(`an .envrc line zotbox does not read is unresolved: ${line}`, (t) => {
    const ws = workspace(t, { '.envrc': `${line}\n` });
    t.is(protectedPaths(ws, ['.envrc']).unresolved, 1);
  });
}

test('a line of a file the .envrc sources that zotbox does not read is unresolved too', (t) => {
  const ws = workspace(t, { '.envrc': 'source_env_if_exists .envrc.local\n', '.envrc.local': 'curl -s https://example.com/x | sh\n' });
  t.is(protectedPaths(ws, ['.envrc']).unresolved, 1);
});

test('what a nix file names is followed into the nix files it names; the directory itself is not protected', (t) => {
  const ws = workspace(t, {
    '.envrc': 'use nix\n',
    'shell.nix': '{ pkgs ? import <nixpkgs> {} }: (import ./nix/dev.nix { src = ./.; }) # ./not-this.nix\n',
    'nix/dev.nix': '{ src }: { shellHook = builtins.readFile ./hook.sh; }\n',
  });
  t.deepEqual(protectedPaths(ws, ['.envrc']).paths, ['default.nix', 'nix/dev.nix', 'nix/hook.sh', 'shell.nix']);
});

test("a folderOpen task's script is named, every word of the task (with or without a slash), and the scripts it calls to the end of the chain", (t) => {
  const tasks = { version: '2.0.0', tasks: [{ label: 'setup', command: '${workspaceFolder}/scripts/on-open.sh', args: ['--config=./conf/a.json'], options: { cwd: '${workspaceFolder}' } }] };
  const ws = workspace(t, {
    '.vscode/tasks.json': JSON.stringify(tasks, undefined, 2),
    // helper.sh is an argument here, not run: it is read on because it is a script (named like one, or executable).
    'scripts/on-open.sh': '#!/bin/sh\nrunner ./scripts/helper.sh https://example.com/x\n',
    'scripts/helper.sh': './scripts/deeper.sh\n',
  });
  t.deepEqual(protectedPaths(ws, ['.vscode']), { paths: ['2.0.0', 'conf/a.json', 'runner', 'scripts/deeper.sh', 'scripts/helper.sh', 'scripts/on-open.sh', 'setup'], unresolved: 0 });
});

test('a write scope that names a path, or lies inside it, grants it', (t) => {
  const ws = workspace(t, { '.envrc': 'source_env_if_exists .envrc.local\nPATH_add bin\n' });
  t.deepEqual(protectedPaths(ws, ['.envrc'], [ws, path.join(ws, '.envrc.local'), path.join(ws, 'bin', 'tool')]).paths, []);
});

test("the startup files of shells and a Python environment's files are not read for words (a shell's for what it sources only)", (t) => {
  const ws = workspace(t, { '.bashrc': 'alias ll="ls -l"\nexport EDITOR=vim\nsource ./x.sh\n', 'x.sh': 'alias g=git\n', 'venv/lib/python3.11/site-packages/a.pth': 'import ./y\n' });
  t.deepEqual(protectedPaths(ws, ['.bashrc', 'venv/lib/python3.11/site-packages']), { paths: ['x.sh'], unresolved: 0 });
});

test('a path named through a linked directory is protected where it resolves too', (t) => {
  const ws = workspace(t, { '.envrc': 'source_env_if_exists conf/local.sh\n', 'real/keep': '' });
  symlinkSync('real', path.join(ws, 'conf'));
  t.deepEqual(protectedPaths(ws, ['.envrc']).paths, ['conf/local.sh', 'real/local.sh']);
});

test("a JetBrains project's state (the files open in its editor tabs) is not read for paths; its tool settings are", (t) => {
  const ws = workspace(t, {
    '.idea/workspace.xml': '<property name="last_opened_file_path" value="$PROJECT_DIR$/src/main.ts" />\n',
    '.idea/watcherTasks.xml': '<option name="program" value="$PROJECT_DIR$/tools/format.sh" />\n',
  });
  t.deepEqual(protectedPaths(ws, ['.idea']).paths, ['program', 'tools/format.sh']);
});

test('a word without a slash is a file too: `sh check.sh` in a husky hook, a task\'s "args": ["on-open.sh"]', (t) => {
  const tasks = { tasks: [{ command: 'sh', args: ['on-open.sh'] }] };
  const ws = workspace(t, { '.husky/pre-commit': 'sh check.sh\n', '.vscode/tasks.json': JSON.stringify(tasks, undefined, 2) });
  t.deepEqual(protectedPaths(ws, ['.husky', '.vscode']), { paths: ['check.sh', 'on-open.sh', 'sh'], unresolved: 0 });
});

test("a task's options.cwd and a script's cd move where its words are taken from; a directory zotbox cannot work out is unresolved", (t) => {
  const tasks = { tasks: [{ command: './run.sh', options: { cwd: '${workspaceFolder}/scripts' } }] };
  const ws = workspace(t, { '.vscode/tasks.json': JSON.stringify(tasks, undefined, 2), '.husky/pre-commit': 'cd tools && sh lint.sh\n' });
  t.deepEqual(protectedPaths(ws, ['.vscode']), { paths: ['run.sh', 'scripts', 'scripts/run.sh', 'scripts/scripts'], unresolved: 0 });
  // A husky hook is read as the shell reads it: the words after the cd are relative to where it moved (every word from
  // every place its cds reach, the cd's own target too: tools/tools).
  t.deepEqual(protectedPaths(ws, ['.husky']), { paths: ['lint.sh', 'sh', 'tools', 'tools/lint.sh', 'tools/sh', 'tools/tools'], unresolved: 0 });
  // A variable the environment does not hold moves the hook anywhere; `cd` alone and `cd ~/x` move it into the user's home.
  // (Twice: the cd, and the name `sh` husky's PATH looks up in node_modules/.bin there first.)
  t.is(protectedPaths(workspace(t, { '.husky/pre-commit': 'cd "$SOMEWHERE" && sh lint.sh\n' }), ['.husky']).unresolved, 2);
  for (const hook of ['cd\nsh lint.sh\n', 'cd ~/x; ./lint.sh\n']) t.is(protectedPaths(workspace(t, { '.husky/pre-commit': hook }), ['.husky']).unresolved, 0, hook);
  const unknown = workspace(t, { '.vscode/tasks.json': JSON.stringify({ tasks: [{ command: './run.sh', options: { cwd: '${fileDirname}' } }] }) });
  t.is(protectedPaths(unknown, ['.vscode']).unresolved, 1);
});

test("a nix shellHook's words are files run in the directory of the .envrc, and a ${./dir} literal is that directory", (t) => {
  const ws = workspace(t, { '.envrc': 'use nix\n', 'shell.nix': '{ pkgs }: pkgs.mkShell {\n  shellHook = "source env.sh; sh ${./scripts}/init.sh ${pkgs.hello}/bin/hello";\n}\n' });
  t.deepEqual(protectedPaths(ws, ['.envrc']).paths, ['default.nix', 'env.sh', 'scripts', 'scripts/init.sh', 'sh', 'shell.nix', 'source']);
});

for (const [envrc, expected] of [
  ['layout php\n', ['vendor/bin/']],
  ['layout node\n', ['node_modules/.bin/']],
  ['layout go\n', ['.direnv/']],
  ['layout ruby\n', ['.direnv/']],
  // .venv, not made yet, is a word of a value too.
  ['export VIRTUAL_ENV=.venv\nlayout python3\n', ['.direnv/', '.venv', '.venv/bin/']],
  ['layout python ./py\n', ['.direnv/', 'py']],
  ['direnv_layout_dir=.layouts\nlayout perl\n', ['.layouts/']],
  ['export PATH=bin:$PATH\n', ['bin/']],
  ['PATH=tools:sbin:$PATH\n', ['sbin/', 'tools/']],
  ['use vim\n', ['.vimrc.local']],
] as const) {
  test(`what direnv puts on PATH or runs, by its stdlib: ${envrc.replace(/\n/gu, '; ')}`, (t) => {
    const ws = workspace(t, { '.envrc': envrc });
    t.deepEqual(protectedPaths(ws, ['.envrc']), { paths: [...expected], unresolved: 0 });
  });
}

test('a layout direnv has no model for is unresolved', (t) => {
  const ws = workspace(t, { '.envrc': 'layout haskell\n' });
  t.is(protectedPaths(ws, ['.envrc']).unresolved, 1);
});

test("VS Code's terminal PATH puts a workspace directory on PATH; the user's own PATH is theirs; an unknown variable is unresolved", (t) => {
  const settings = { 'terminal.integrated.env.linux': { PATH: '${workspaceFolder}/tools:${env:PATH}' }, 'terminal.integrated.env.osx': { PATH: 'bin:${env:PATH}' } };
  const ws = workspace(t, { '.vscode/settings.json': JSON.stringify(settings, undefined, 2) });
  t.deepEqual(protectedPaths(ws, ['.vscode']), { paths: ['PATH', 'bin/', 'env', 'tools/'], unresolved: 0 });
  const other = workspace(t, { '.vscode/settings.json': JSON.stringify({ 'terminal.integrated.env.linux': { PATH: '${config:x}/bin:${env:PATH}' } }) });
  t.is(protectedPaths(other, ['.vscode']).unresolved, 1);
});

test('a path-named constant in program code is no environment setting (settings files only): nothing unresolved', (t) => {
  const program = 'import os\nROOT = os.path.dirname(os.path.abspath(__file__))\nBASE_DIR = ROOT + "/x"\nprint(ROOT)\n';
  const ws = workspace(t, { '.git/hooks/pre-commit': '#!/bin/sh\nexec python3 tools/check.py\n', 'tools/check.py': program });
  t.deepEqual(toolFileReferences([], [ws], { hookDirectories: [{ directory: path.join(ws, '.git/hooks'), top: ws }], environment: HOST }).unresolved, []);
  // The same line in a settings file is a variable set: unresolved (the value is no directory zotbox can spell out).
  const settings = workspace(t, { '.vscode/settings.json': JSON.stringify({ 'terminal.integrated.env.linux': { PATH: 'ROOT + "/x"' } }) });
  t.is(protectedPaths(settings, ['.vscode']).unresolved, 1);
});

test("a virtual environment's whole bin/ is protected (pyvenv.cfg; an activation script for older ones); a scope naming it grants it", (t) => {
  const ws = workspace(t, { '.venv/pyvenv.cfg': 'home = /usr/bin\n', 'old/bin/activate': '# old virtualenv\n' });
  t.deepEqual(protectedPaths(ws, ['.venv/pyvenv.cfg', 'old/bin/activate']).paths, ['.venv/Scripts/', '.venv/bin/', 'old/bin/']);
  t.deepEqual(protectedPaths(ws, ['.venv/pyvenv.cfg'], [ws, path.join(ws, '.venv', 'bin')]).paths, ['.venv/Scripts/']);
});

// direnv's stdlib as one closed class (third review, finding 4): each function that reads or runs a file names it,
// each that runs a command zotbox does not read is unresolved, and so is any function the stdlib does not define.
test('every function direnv stdlib defines is one zotbox decided on (layout_NAME and use_NAME through layout and use)', (t) => {
  const stdlib = execFileSync('direnv', ['stdlib'], { encoding: 'utf8' });
  const defined = [...stdlib.matchAll(/^([A-Za-z_][\w.]*)\(\)\s*\{/gmu)].map((match) => match[1]!);
  t.true(defined.includes('source_up'), 'direnv stdlib printed its functions');
  const undecided = defined.filter((name) => !name.startsWith('_') && !name.startsWith('realpath.') && !/^(layout|use)_/u.test(name) && !DIRENV_FUNCTIONS.includes(name));
  t.deepEqual(undecided, []);
});

for (const [envrc, expected] of [
  ['dotenv config\n', ['config/.env']],
  ['dotenv_if_exists config\n', ['config/.env']],
  ['source_env config\n', ['config/.envrc']],
  ['strict_env\nstrict_env source_env_if_exists .envrc.local\n', ['.envrc.local']],
  ['unstrict_env PATH_add bin\n', ['bin/']],
  ['load_prefix local\n', ['local/']],
  ['use node\n', ['.node-version', '.nvmrc']],
  ['NODE_VERSIONS=./nodes\nuse node 20\n', ['.node-version', '.nvmrc', 'nodes/']],
  ['JULIA_VERSIONS=./julias\nuse julia 1.10\n', ['julias/']],
  ['use nodenv 20.1.0\n', ['node_modules/.bin/']],
  ['use rbenv\n', ['.ruby-version']],
  ["watch_file a b\nwatch_dir d\nenv_vars_required TOKEN\nPATH_rm '/x/*'\nlog_status hi\nlog_error no\nMANPATH_add man\non_git_branch main\ndirenv_version 2.30\nfetchurl https://example.com/x\n", []],
] as const) {
  test(`what a direnv stdlib function reads or runs is named: ${envrc.replace(/\n/gu, '; ')}`, (t) => {
    const ws = workspace(t, { '.envrc': envrc, 'config/keep': '' });
    t.deepEqual(protectedPaths(ws, ['.envrc']), { paths: [...expected], unresolved: 0 });
  });
}

for (const line of [
  'strict_env ./setup.sh',
  'unstrict_env sh setup.sh',
  'direnv_load nix-shell --run "direnv dump"',
  'direnv_apply_dump .env.dump',
  'source_url https://example.com/env.sh sha256-AAAA',
  'rvm use 3.2',
  'use guix -l guix.scm',
  'use asdf',
  'use_nix',
  'layout_python',
  'PATH_add ~other/bin',
]) {
  test(`a direnv stdlib function that runs what zotbox does not read, or a function the stdlib does not define, is unresolved: ${line}`, (t) => {
    const ws = workspace(t, { '.envrc': `${line}\n` });
    t.is(protectedPaths(ws, ['.envrc']).unresolved, 1);
  });
}

test("a leading ~ is the user's home, as the shell expands it (and source_env does itself, quoted too)", (t) => {
  const ws = workspace(t, { '.envrc': 'source_env ~/shared.envrc\nsource_env_if_exists "~/quoted.envrc"\nPATH_add ~/bin\n', 'home/keep': '' });
  const home = process.env['HOME'];
  process.env['HOME'] = path.join(ws, 'home');
  try {
    t.deepEqual(protectedPaths(ws, ['.envrc']), { paths: ['home/bin/', 'home/quoted.envrc', 'home/shared.envrc'], unresolved: 0 });
  } finally {
    process.env['HOME'] = home;
  }
});

test("lefthook's source_dir and mise's _.path, _.source, _.file and _.python.venv name what the tool runs or puts on PATH", (t) => {
  const ws = workspace(t, {
    'lefthook.yml': 'source_dir: tools/hooks/\nsource_dir_local: "local-hooks"\n',
    'mise.toml': '[env]\n_.path = ["./tools/bin", "{{config_root}}/more"]\n_.source = "env.sh"\n_ = { file = ".env.dev" }\n_.python.venv = { path = "venv" }\n',
    'env.sh': 'true\n',
  });
  const found = protectedPaths(ws, ['lefthook.yml']).paths.filter((p) => p.endsWith('/'));
  t.deepEqual(found, ['local-hooks/', 'tools/hooks/']);
  const mise = protectedPaths(ws, ['mise.toml']);
  t.deepEqual(
    mise.paths.filter((p) => ['tools/bin/', 'more/', 'env.sh', '.env.dev', 'venv/bin/', 'venv/Scripts/'].includes(p)),
    ['.env.dev', 'env.sh', 'more/', 'tools/bin/', 'venv/Scripts/', 'venv/bin/'],
  );
  t.is(mise.unresolved, 0);
  // A template zotbox cannot spell out names no known directory: every writer is refused.
  const unknown = workspace(t, { 'mise.toml': '[env]\n_.path = ["{{env.TOOLS}}/bin"]\n' });
  t.is(protectedPaths(unknown, ['mise.toml']).unresolved, 1);
});

test('a linked tool entry is read wherever it leads, and what it names is protected where the link is', (t) => {
  const ws = workspace(t, { 'bin/fmt': '' });
  const shared = path.join(path.dirname(ws), 'shared');
  mkdirSync(shared);
  writeFileSync(path.join(shared, 'envrc'), 'PATH_add bin\n');
  writeFileSync(path.join(shared, 'lefthook.yml'), 'source_dir: hooks\n');
  symlinkSync(path.join(shared, 'envrc'), path.join(ws, '.envrc'));
  symlinkSync(path.join(shared, 'lefthook.yml'), path.join(ws, 'lefthook.yml'));
  t.deepEqual(protectedPaths(ws, ['.envrc']).paths, ['bin/']);
  t.true(protectedPaths(ws, ['lefthook.yml']).paths.includes('hooks/'));
});

test("program code is read by its grammar from its own directory: a JS hook's relative require, a Python hook's pattern", (t) => {
  const ws = workspace(t, {
    '.git/hooks/pre-commit': "#!/usr/bin/env node\nrequire('../../tools/precommit');\n",
    '.git/hooks/pre-push': '#!/usr/bin/env python3\nimport glob\nprint("[ERROR] ***")\nfor f in glob.glob("tools/checks/*.sh"):\n    pass\n',
  });
  const found = toolFileReferences([], [ws], { hookDirectories: [{ directory: path.join(ws, '.git/hooks'), top: ws }], environment: HOST });
  const paths = found.locations.map((l) => `${path.relative(ws, l.path)}${l.tree ? '/' : ''}`);
  t.true(paths.includes('tools/precommit.js') && paths.includes('tools/precommit/'), paths.join(' '));
  t.true(paths.includes('tools/checks/'), paths.join(' '));
  t.deepEqual(found.unresolved, []);
  // A pattern with no fixed directory covers anything the program may run: unresolved.
  const loose = workspace(t, { '.git/hooks/pre-commit': '#!/usr/bin/env python3\nimport glob\nfor f in glob.glob("*.sh"):\n    pass\n' });
  t.is(toolFileReferences([], [loose], { hookDirectories: [{ directory: path.join(loose, '.git/hooks'), top: loose }], environment: HOST }).unresolved.length, 1);
});

test("shell text in a setting is read by the shell's grammar: a loop over a pattern protects its directory", (t) => {
  const ws = workspace(t, {
    'lefthook.yml': 'pre-commit:\n  commands:\n    a:\n      run: for f in tools/checks/*.sh; do sh "$f"; done\n    b:\n      run: npx prettier --write {staged_files}\n',
    '.vscode/tasks.json': JSON.stringify({ tasks: [{ type: 'shell', command: 'for f in ${workspaceFolder}/scripts/*.sh; do bash "$f"; done' }, { command: 'node ${file}' }] }),
  });
  t.true(protectedPaths(ws, ['lefthook.yml']).paths.includes('tools/checks/'));
  t.true(protectedPaths(ws, ['.vscode']).paths.includes('scripts/'));
  t.is(protectedPaths(ws, ['lefthook.yml', '.vscode']).unresolved, 0);
});

test("a hook's inline programs and option variables name the files they load", (t) => {
  const ws = workspace(t, {
    '.git/hooks/pre-commit': [
      '#!/bin/sh',
      `perl -e 'do "./tools/a.pl" or die $@'`,
      `perl -e 'require "./tools/b.pl"'`,
      `python3 -c 'import runpy; runpy.run_path("tools/c.py")'`,
      `python3 -c 'exec(open("tools/d.py").read())'`,
      'NODE_OPTIONS="--require ./tools/e.js" node -e 0',
      '',
    ].join('\n'),
  });
  const found = toolFileReferences([], [ws], { hookDirectories: [{ directory: path.join(ws, '.git/hooks'), top: ws }] });
  const paths = found.locations.map((l) => `${path.relative(ws, l.path)}${l.tree ? '/' : ''}`);
  for (const expected of ['tools/a.pl', 'tools/b.pl', 'tools/c.py', 'tools/d.py', 'tools/e.js/']) t.true(paths.includes(expected), `${expected}: ${paths.join(' ')}`);
});

test('a .idea/ with hundreds of library descriptors is read without refusing: the descriptors are not read', (t) => {
  const files: Record<string, string> = { '.idea/runConfigurations/app.xml': '<option name="program" value="$PROJECT_DIR$/tools/run.sh" />\n' };
  for (let i = 0; i < 250; i++) files[`.idea/libraries/Maven__lib${i}.xml`] = `<root url="jar://$MAVEN_REPOSITORY$/lib${i}.jar!/" />\n`;
  const ws = workspace(t, files);
  const found = protectedPaths(ws, ['.idea']);
  t.is(found.unresolved, 0);
  t.true(found.paths.includes('tools/run.sh'));
});

test("a hook's inline program or program file names what it runs in its string literals; a name it computes is unresolved", (t) => {
  const ws = workspace(t, {
    '.git/hooks/pre-commit': ['#!/bin/sh', `python3 -c 'import os; os.system("sh tools/x.sh")'`, `perl -e 'print \`sh tools/y.sh\`'`, ''].join('\n'),
    '.git/hooks/pre-push': "#!/usr/bin/env node\nrequire('child_process').execSync('sh tools/z.sh', { stdio: 'inherit' });\n",
  });
  const found = toolFileReferences([], [ws], { hookDirectories: [{ directory: path.join(ws, '.git/hooks'), top: ws }], environment: HOST });
  const paths = found.locations.map((l) => `${path.relative(ws, l.path)}${l.tree ? '/' : ''}`);
  for (const expected of ['tools/x.sh', 'tools/y.sh', 'tools/z.sh']) t.true(paths.includes(expected), `${expected}: ${paths.join(' ')}`);
  t.deepEqual(found.unresolved, []);
  for (const line of [`perl -e 'do $ENV{HOOK_FILE}'`, `python3 -c 'import runpy, sys; runpy.run_path(sys.argv[1])' "$1"`, `node - <<'EOF'\nrequire(process.env.HOOK)\nEOF`]) {
    const computed = workspace(t, { '.git/hooks/pre-commit': `#!/bin/sh\n${line}\n` });
    const unresolved = toolFileReferences([], [computed], { hookDirectories: [{ directory: path.join(computed, '.git/hooks'), top: computed }], environment: HOST }).unresolved;
    t.is(unresolved.length, 1, line);
    t.regex(unresolved[0] ?? '', /computes/u, line);
  }
});

test("an inline program's do, require and run_path name their file even without a directory or an extension", (t) => {
  const ws = workspace(t, {
    '.git/hooks/pre-commit': ['#!/bin/sh', `perl -e 'do "hookrc" or die'`, `perl -e 'require "checks"'`, `python3 -c 'import runpy; runpy.run_path("precheck")'`, ''].join('\n'),
  });
  const found = toolFileReferences([], [ws], { hookDirectories: [{ directory: path.join(ws, '.git/hooks'), top: ws }] });
  const paths = found.locations.map((l) => `${path.relative(ws, l.path)}${l.tree ? '/' : ''}`);
  for (const expected of ['hookrc', 'checks', 'precheck']) t.true(paths.includes(expected), `${expected}: ${paths.join(' ')}`);
});

test('a hook naming a path below a file (README.md/x) names nothing there, and the reader does not fail', (t) => {
  const ws = workspace(t, { 'README.md': 'hi\n', '.git/hooks/pre-commit': '#!/bin/sh\nsh README.md/x\nsh tools/check.sh\n' });
  const found = toolFileReferences([], [ws], { hookDirectories: [{ directory: path.join(ws, '.git/hooks'), top: ws }] });
  t.true(found.locations.some((l) => path.relative(ws, l.path) === 'tools/check.sh'));
  t.deepEqual(found.unresolved, []);
});

test("a search path built from a linked hook program's location is read where the link leads; an absolute one as it is", (t) => {
  const ws = workspace(t, {
    'tools/hooks/check.py': 'import sys\nfrom pathlib import Path\nsys.path.insert(0, str(Path(__file__).resolve().parent.parent / "lib"))\nsys.path.append("WS/vendor")\nimport rules\n',
    'tools/lib/rules.py': 'RULES = []\n',
    'vendor/x.py': '',
    'README.md': '',
  });
  const program = path.join(ws, 'tools/hooks/check.py');
  writeFileSync(program, readFileSync(program, 'utf8').replace('WS', ws));
  mkdirSync(path.join(ws, '.git/hooks'), { recursive: true });
  symlinkSync('../../tools/hooks/check.py', path.join(ws, '.git/hooks/pre-commit'));
  const found = toolFileReferences([], [ws], { hookDirectories: [{ directory: path.join(ws, '.git/hooks'), top: ws }] });
  const paths = found.locations.map((l) => `${path.relative(ws, l.path)}${l.tree ? '/' : ''}`);
  // resolve() follows the link: tools/hooks/../lib is tools/lib; the absolute entry is the workspace's vendor/.
  for (const expected of ['tools/lib/', 'vendor/']) t.true(paths.includes(expected), `${expected}: ${paths.join(' ')}`);
  t.false(paths.includes('README.md'));
  t.deepEqual(found.unresolved, []);
});

test("a hook program's relative imports are read to the end of the chain: what the imported file imports runs too", (t) => {
  const ws = workspace(t, {
    '.git/hooks/pre-commit': '#!/bin/sh\nnode tools/check.js\n',
    'tools/check.js': "require('./helper.js');\n",
    'tools/helper.js': "require('./deeper.js');\nimport('./lazy.mjs');\n",
    'tools/deeper.js': "require('./deepest');\n",
    'tools/deepest.js': 'module.exports = 1;\n',
    'tools/lazy.mjs': 'export default 1;\n',
    'tools/unrelated.js': "require('./also-unrelated');\n",
  });
  const found = toolFileReferences([], [ws], { hookDirectories: [{ directory: path.join(ws, '.git/hooks'), top: ws }] });
  const paths = found.locations.map((l) => path.relative(ws, l.path));
  for (const expected of ['tools/helper.js', 'tools/deeper.js', 'tools/deepest.js', 'tools/lazy.mjs']) t.true(paths.includes(expected), `${expected}: ${paths.join(' ')}`);
  // A file no program imports stays the agent's to change, and so does what only it imports.
  for (const free of ['tools/unrelated.js', 'tools/also-unrelated.js']) t.false(paths.includes(free), free);
  t.deepEqual(found.unresolved, []);
});

test("rustup's toolchain file names a toolchain directory by path: protected whole (every rustup proxy runs its bin/)", (t) => {
  for (const file of ['rust-toolchain.toml', 'rust-toolchain']) {
    const ws = workspace(t, { [file]: '[toolchain]\npath = "tools/toolchain"\n', 'tools/toolchain/bin/rustc': '#!/bin/sh\n', 'src/main.rs': 'fn main() {}\n' });
    const found = toolFileReferences([path.join(ws, file)], [ws]);
    const paths = found.locations.map((l) => `${path.relative(ws, l.path)}${l.tree ? '/' : ''}`);
    t.true(paths.includes('tools/toolchain/'), `${file}: ${paths.join(' ')}`);
    t.false(
      paths.some((p) => p.startsWith('src')),
      paths.join(' '),
    );
    t.deepEqual(found.unresolved, []);
  }
});

test('a file an inline program requires is read on too: what it imports runs when the hook runs (node -e)', (t) => {
  const ws = workspace(t, {
    '.git/hooks/pre-commit': `#!/bin/sh\nnode -e 'require("./tools/helper.js")'\n`,
    'tools/helper.js': "require('./deeper.js');\n",
    'tools/deeper.js': 'module.exports = 1;\n',
    'tools/unrelated.js': 'module.exports = 2;\n',
  });
  const found = toolFileReferences([], [ws], { hookDirectories: [{ directory: path.join(ws, '.git/hooks'), top: ws }] });
  const paths = found.locations.map((l) => path.relative(ws, l.path));
  for (const expected of ['tools/helper.js', 'tools/deeper.js']) t.true(paths.includes(expected), `${expected}: ${paths.join(' ')}`);
  t.false(paths.includes('tools/unrelated.js'));
  t.deepEqual(found.unresolved, []);
});

test("a package a hook or an .envrc preloads by name is what node_modules holds for it where the command runs: a linked workspace package's files, an installed one nothing", (t) => {
  const ws = workspace(t, {
    '.git/hooks/pre-commit': '#!/bin/sh\nnode -r @acme/setup --import installed x.js\n',
    '.envrc': 'export NODE_OPTIONS="--require @acme/env"\n',
    'packages/setup/package.json': '{"name":"@acme/setup","main":"main.js"}\n',
    'packages/setup/main.js': 'require("./more.js");\n',
    'packages/setup/more.js': '\n',
    'packages/env/package.json': '{"name":"@acme/env"}\n',
    'packages/env/index.js': '\n',
    'node_modules/installed/package.json': '{"name":"installed"}\n',
    'node_modules/installed/index.js': '\n',
  });
  mkdirSync(path.join(ws, 'node_modules/@acme'), { recursive: true });
  symlinkSync('../../packages/setup', path.join(ws, 'node_modules/@acme/setup'));
  symlinkSync('../../packages/env', path.join(ws, 'node_modules/@acme/env'));
  const found = toolFileReferences([path.join(ws, '.envrc')], [ws], { hookDirectories: [{ directory: path.join(ws, '.git/hooks'), top: ws }], environment: HOST });
  const paths = found.locations.map((l) => `${path.relative(ws, l.path)}${l.tree ? '/' : ''}${l.asLink === true ? ' (link)' : ''}`);
  // The link itself, the package.json, main (whole, as node tries it: a file or a folder) and what it requires in turn, index of the other.
  for (const expected of [
    'node_modules/@acme/setup (link)',
    'packages/setup/package.json',
    'packages/setup/main.js/',
    'packages/setup/more.js/',
    'node_modules/@acme/env (link)',
    'packages/env/index.js',
  ])
    t.true(paths.includes(expected), `${expected}: ${paths.join(' ')}`);
  // An installed package is the project's dependencies (only the file forms CommonJS would try first, not made yet).
  t.false(
    paths.some((p) => p.startsWith('node_modules/installed/')),
    paths.join(' '),
  );
  t.false(
    paths.some((p) => p.includes('__zotbox_node_preload__')),
    paths.join(' '),
  );
  t.deepEqual(found.unresolved, []);
});

test('the .env a hook program loads without naming it is protected where the program runs (node, python-dotenv beside the file)', (t) => {
  const ws = workspace(t, {
    '.git/hooks/pre-commit': '#!/bin/sh\nnode tools/check.js\npython3 tools/lint.py\n',
    'tools/check.js': 'process.loadEnvFile();\n',
    'tools/lint.py': 'from dotenv import load_dotenv\nload_dotenv()\n',
  });
  const found = toolFileReferences([], [ws], { hookDirectories: [{ directory: path.join(ws, '.git/hooks'), top: ws }], environment: HOST });
  const paths = found.locations.map((l) => path.relative(ws, l.path));
  for (const expected of ['.env', 'tools/.env']) t.true(paths.includes(expected), `${expected}: ${paths.join(' ')}`);
});

test("a hook program's load named with JavaScript's escapes is read as node reads it: tools/lint.js protected, nothing unresolved", (t) => {
  // Legacy octal \154 is "l"; a line continuation after CR LF, U+2028 or U+2029 joins; \u{…} takes leading zeros.
  for (const main of ['require("./\\154int.js");\n', 'require("./li\\\r\nnt.js");\n', 'require("./li\\\u2028nt.js");\n', 'require("./li\\\u2029nt.js");\n', 'require("./\\u{0000006c}int.js");\n']) {
    const ws = workspace(t, { '.git/hooks/pre-commit': '#!/bin/sh\nexec node tools/check.js\n', 'tools/check.js': main, 'tools/lint.js': '\n' });
    const found = toolFileReferences([], [ws], { hookDirectories: [{ directory: path.join(ws, '.git/hooks'), top: ws }] });
    t.true(
      found.locations.some((l) => path.relative(ws, l.path) === 'tools/lint.js'),
      JSON.stringify(main),
    );
    t.deepEqual(found.unresolved, [], JSON.stringify(main));
  }
});

test("a hook program whose text cannot be read as node reads it is unresolved, saying where and why: a '/' after '}', a JSX file", (t) => {
  const ws = workspace(t, {
    '.git/hooks/pre-commit': '#!/bin/sh\nnode tools/check.js\nnpx tsx tools/view.jsx\n',
    'tools/check.js': 'const q = {} / run(x) / 1;\n',
    'tools/view.jsx': "const v = <p>it's</p>;\n",
  });
  const found = toolFileReferences([], [ws], { hookDirectories: [{ directory: path.join(ws, '.git/hooks'), top: ws }], environment: HOST });
  t.deepEqual(
    found.unresolved.filter((each) => each.includes('cannot tell what')),
    [
      `${path.join(ws, 'tools/check.js')} line 1 (const q = {} / run(x) / 1;): at "/ run(x) / 1;" the program has a "/" after "}", which divides after an object or a function expression and starts a regular expression after a block, so zotbox cannot tell what code follows or what it loads`,
      `${path.join(ws, 'tools/view.jsx')} line 1 (const v = <p>it's</p>;): it is JSX, whose text zotbox does not tell from code, so it cannot tell what the program loads`,
    ],
  );
});

test("a hooks directory's library (a file git runs by no hook name) and a script a hook only names may share the hook's shell: no name's value is their own (review s91n)", (t) => {
  const lib = 'MAX=3\nif (( MAX > 1 )); then :; fi\n';
  const read = (files: Readonly<Record<string, string>>) => {
    const ws = workspace(t, files);
    return toolFileReferences([], [ws], { hookDirectories: [{ directory: path.join(ws, '.git/hooks'), top: ws }] }).unresolved.length;
  };
  t.true(read({ '.git/hooks/pre-commit': '#!/bin/sh\nexit 0\n', '.git/hooks/lib.sh': lib }) > 0);
  t.true(read({ '.git/hooks/pre-commit': '#!/bin/bash\nload() { . "$1"; }\nload scripts/lib.sh\n', 'scripts/lib.sh': lib }) > 0);
  // A hook git runs by its name is a new process: its own assignment decides.
  t.is(read({ '.git/hooks/pre-commit': `#!/bin/bash\n${lib}` }), 0);
  // A script only named that lies outside the write scopes is read so too (the values it evaluates may be the agent's).
  const ws = workspace(t, { '.git/hooks/pre-commit': '#!/bin/bash\nload() { . "$1"; }\nload scripts/lib.sh\n', 'scripts/lib.sh': lib, 'src/a.txt': '1\n' });
  t.true(toolFileReferences([], [path.join(ws, 'src')], { hookDirectories: [{ directory: path.join(ws, '.git/hooks'), top: ws }] }).unresolved.length > 0);
});
