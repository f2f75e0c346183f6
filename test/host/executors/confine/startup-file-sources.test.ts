// What the protected startup files of editors, debuggers and REPLs load (startup-file-sources.ts), and that
// tool-file-references.ts protects it and follows it: `.gdbinit` `source`, `.exrc` `source`, renv's `.Rprofile`,
// `.pryrc` `require_relative`, ... Expected names written out by hand; computed targets are unresolved.
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type StartupLanguage, startupLanguage, startupSources } from '../../../../src/host/executors/confine/startup-file-sources.js';
import { toolFileReferences } from '../../../../src/host/executors/confine/tool-file-references.js';
import { protectedToolName } from '../../../../src/policy/protected-files.js';
import { tempDir } from '../../../fixtures/temp.js';

/** The names `text` loads as `language` (`name load`), and how many lines are unresolved. */
function sources(text: string, language: StartupLanguage) {
  const unresolved: string[] = [];
  const names = startupSources(text, language, { file: '/ws/.startup', home: '/home/u' }, (index, what) => `line ${index + 1}${what}`, unresolved);
  return { names: names.map(({ name, load }) => `${name} ${'startup' in load ? load.startup : 'program' in load ? load.program : 'tree' in load ? 'tree' : 'file'}`), unresolved: unresolved.length };
}

const reads = test.macro((t, language: StartupLanguage, text: string, expected: { names: string[]; unresolved: number }) => {
  t.deepEqual(sources(text, language), expected);
});

test(
  'vim: source, luafile, py3file, rtp, and a lua line',
  reads,
  'vim',
  'set sw=2\nsource tools/vim/project.vim\nso! local.lua\nluafile tools/init.lua\npy3file tools/x.py\nset rtp+=tools/vim,~/.vim\nlua dofile("tools/more.lua")\n',
  {
    names: ['tools/more.lua lua', 'tools/vim/project.vim vim', 'local.lua lua', 'tools/init.lua lua', 'tools/x.py python', 'tools/vim tree', '/home/u/.vim tree'],
    unresolved: 0,
  },
);
test('vim: a computed source or an execute that sources is unresolved', reads, 'vim', 'source %:h/x.vim\nexecute "source " . g:dir . "/x.vim"\nsource $PROJECT/x.vim\n', { names: [], unresolved: 3 });
test(
  'lua: dofile, require (its four files), vim.cmd strings, lazy.nvim dir',
  reads,
  'lua',
  'dofile("tools/a.lua")\nrequire("proj.init")\nvim.cmd("source tools/b.vim")\nreturn { { dir = "tools/plugin" } }\n',
  {
    names: ['tools/b.vim vim', 'tools/a.lua lua', 'proj/init.lua lua', 'proj/init/init.lua lua', 'lua/proj/init.lua lua', 'lua/proj/init/init.lua lua', 'tools/plugin tree'],
    unresolved: 0,
  },
);
test('lua: load of a string, a computed dofile and vim.cmd of an expression are unresolved', reads, 'lua', 'load(code)()\ndofile(root .. "/x.lua")\nvim.cmd(string.format("so %s", f))\n', {
  names: [],
  unresolved: 3,
});
test(
  'gdb: source of a gdb file and a Python file, exec(open()) and sys.path in Python',
  reads,
  'gdb',
  'source tools/gdb/helpers.py\nsource -v tools/gdb/cmds.gdb\npython exec(open("tools/pp.py").read())\npython sys.path.insert(0, "tools/printers")\npython import gdb\n',
  {
    names: ['tools/gdb/helpers.py python', 'tools/gdb/cmds.gdb gdb', 'tools/pp.py python', 'tools/printers tree'],
    unresolved: 0,
  },
);
// gdb's `source NAME` searches the source path for a name not found where gdb starts (checked with gdb 13).
test('gdb: each directory of the source path is a tree, $cdir and $cwd name none', reads, 'gdb', 'directory tools/x $cdir:$cwd\nset directories lib/gdb:$cdir\nsource lint.gdb\n', {
  names: ['lint.gdb gdb', 'tools/x tree', 'lib/gdb tree'],
  unresolved: 0,
});
test('gdb: source -s searches the source path, $cdir included: unresolved', reads, 'gdb', 'source -s lint.gdb\nsource -v -s x.gdb\n', { names: ['lint.gdb gdb', 'x.gdb gdb'], unresolved: 2 });
test('ghci: :load, :add and :reload compile a module and what it imports from the search path: unresolved', reads, 'ghci', ':load Main\n:l tools/Lint.hs\n:add *Extra\n:reload\n:list\n', {
  names: [],
  unresolved: 4,
});
test(
  'gdb: a cd anywhere on a line, a command built or named another way (alias, eval, with, pipe, apply), and Python reaching chdir by a computed name: each unresolved',
  reads,
  'gdb',
  'alias mycd = cd\nmycd x\neval "c%c x", 100\nwith print pretty -- cd x\npipe cd x | cat\nthread apply all p 1\npython getattr(os, "ch" + "dir")("x")\npython os.__dict__["chdir"]("x")\npython vars(os)["chdir"]("x")\npython os.__getattribute__("ch" + "dir")("x")\ninterpreter-exec console "cd x"\ninterpreter-exec mi "-environment-cd x"\nev "c%c x", 100\nali mc = cd\nwit print pretty -- cd x\ninterp console "cd x"\nmaint with dwarf max-cache-age 5 -- cd x\nset pagination off\necho cdrom\nsource lint.gdb\n',
  // Sixteen: `mycd x` itself is no cd word (its alias line is refused); `set` and `echo cdrom` are ordinary. gdb takes
  // any unique prefix of a command (`ev`, `ali`, `wit`, `interp`; each seen with gdb 13); `maint with` runs one too.
  { names: ['lint.gdb gdb'], unresolved: 16 },
);
test(
  'vim: a cd anywhere on a line (after a modifier, a |), exe, call(), funcref() and autochdir: each unresolved',
  reads,
  'vim',
  'silent cd x\nnoautocmd lcd x\nset nocp | cd x\nexe "cd x"\ncall call("ch" . "dir", ["x"])\nlet F = funcref("chdir")\nset autochdir\ncall eval("ch" . "dir(\'x\')")\nlet _ = execute("c" . "d x")\ncall feedkeys(":c" . "d x\\r")\nset shiftwidth=2\nsource lint.vim\n',
  { names: ['lint.vim vim'], unresolved: 10 },
);
test(
  'gdb: a python line zotbox does not read whole refuses (an import alias), one it does is read',
  reads,
  'gdb',
  'python import os as o\npython import gdb, sys\npython\nprint(1)\nend\nsource lint.gdb\n',
  { names: ['lint.gdb gdb'], unresolved: 2 },
);
test(
  "pdb: Python's chdir in any spelling and its reflection (getattr, __getattribute__, inspect, dir) refuse",
  reads,
  'pdb',
  'from os import chdir; chdir("x")\nimport os; getattr(os, "ch" + "dir")("x")\nos.__getattribute__("ch" + "dir")("x")\nimport inspect\n[f for n, f in dir(os)]\nprint(1)\n',
  { names: [], unresolved: 5 },
);
test("gdb: a user command's $argN, shell, ! and make refuse; vim: normal, a register run by @, a user command refuse", (t) => {
  t.is(sources('define go\n  $arg0d my-tools\nend\ngo c\nshell printf x > gen.gdb\n!true\nmake\nsource lint.gdb\n', 'gdb').unresolved, 4);
  t.is(sources('let @q = ":c" . "d x\\r"\nnormal @q\n:@q\ncommand! -nargs=1 Go <args>d x\nGo c\nsource lint.vim\n', 'vim').unresolved, 3);
});
test("gdb's and vim's line continuations are joined before the rules read a line: c\\ then d x is cd x; vim's +cmd", (t) => {
  t.is(sources('c\\\nd my-tools\nsource lint.gdb\n', 'gdb').unresolved, 1);
  t.is(sources('c\n  \\d my-tools\nsource lint.vim\n', 'vim').unresolved, 1);
  t.is(sources('edit +cd\\ my-tools src.txt\nsource lint.vim\n', 'vim').unresolved, 1);
  // vim skips a comment continuation line between a line and its continuation (review s90m): c, "\ x, \d is cd.
  t.is(sources('c\n"\\ x\n  \\d my-tools\nsource lint.vim\n', 'vim').unresolved, 1);
  t.deepEqual(sources('echo 1\n"\\ x\n  \\ 2\nsource lint.vim\n', 'vim'), { names: ['lint.vim vim'], unresolved: 0 });
  // The joined line keeps its number: the source after it is still line 3.
  t.deepEqual(sources('echo a\\\nb\nsource lint.gdb\n', 'gdb'), { names: ['lint.gdb gdb'], unresolved: 0 });
});
test('lldb: command source with an upper-case option', reads, 'lldb', 'command source -C true tools/lldb.cmds\n', { names: ['tools/lldb.cmds lldb'], unresolved: 0 });
test('R: source(x, chdir = TRUE) runs x from its own directory: unresolved', reads, 'r', 'source("tools/a.R", chdir = TRUE)\n', { names: ['tools/a.R r'], unresolved: 1 });
test('gdb: Python that loads by a computed name is unresolved', reads, 'gdb', 'python sys.path.insert(0, os.path.dirname(__file__))\npython exec(code)\n', { names: [], unresolved: 2 });
test("R: renv's source(), sys.source, and a computed one unresolved", reads, 'r', 'source("renv/activate.R")\nsys.source(file = "R/setup.R", envir = e)\nsource(file.path("renv", "x.R"))\n', {
  names: ['renv/activate.R r', 'R/setup.R r'],
  unresolved: 1,
});
test('.Renviron: R_PROFILE_USER and R_LIBS_USER', reads, 'renviron', 'R_PROFILE_USER=notes/profile.R\nR_LIBS_USER=lib/r:vendor/r\nLANG=C\n', {
  names: ['notes/profile.R r', 'lib/r tree', 'vendor/r tree'],
  unresolved: 0,
});
test(
  'ruby: require_relative from the file, load and require "./x" from the start directory, $LOAD_PATH',
  reads,
  'ruby',
  "require 'irb/completion'\nrequire_relative 'tools/pry_helpers'\nload 'tools/x.rb'\nrequire './lib/console'\n$LOAD_PATH.unshift 'lib'\nrequire_relative helpers\n",
  {
    names: ['/ws/tools/pry_helpers.rb ruby', 'tools/x.rb ruby', 'lib/console.rb ruby', 'lib tree'],
    unresolved: 1,
  },
);
test('ghci: :script and :set -i; :def is unresolved', reads, 'ghci', ':set -itools:src\n:script tools/ghci.cmds\n:def hoogle \\s -> return s\n', {
  names: ['tools/ghci.cmds ghci', 'tools tree', 'src tree'],
  unresolved: 1,
});
test('ocaml: #use, #directory, #load', reads, 'ocaml', '#use "notes/init.ml";;\n#directory "_build";;\n#load "x.cmo";;\n', {
  names: ['notes/init.ml ocaml', 'x.cmo file', '_build tree'],
  unresolved: 0,
});
test('elixir: import_file and Code.require_file', reads, 'elixir', 'import_file("tools/iex_helpers.exs")\nCode.require_file("x.exs")\nimport_file(Path.join(a, b))\n', {
  names: ['tools/iex_helpers.exs elixir', 'x.exs elixir'],
  unresolved: 1,
});
test('lldb: command source and command script import', reads, 'lldb', 'command source tools/lldb.cmds\ncommand script import tools/fmt.py\n', {
  names: ['tools/lldb.cmds lldb', 'tools/fmt.py python'],
  unresolved: 0,
});
test('elisp: load-file in an eval form', reads, 'elisp', '((nil . ((eval . (load-file "tools/dev.el")))))\n', { names: ['tools/dev.el elisp'], unresolved: 0 });
test('perl: do and use lib', reads, 'perl', 'do "tools/db.pl";\nuse lib "lib";\ndo $file;\n', { names: ['tools/db.pl perl', 'lib tree'], unresolved: 1 });
// A bare name is a function file Octave finds on its path (the start directory first): each NAME.m, builtins too.
test('octave: source, run and addpath; a bare name is its NAME.m', reads, 'octave', 'source("tools/a.m")\nrun tools/b.m\naddpath("tools/lib")\nlint\n', {
  names: ['tools/a.m octave', 'tools/b.m octave', 'tools/lib tree', 'source.m octave', 'run.m octave', 'addpath.m octave', 'lint.m octave'],
  unresolved: 0,
});
test(
  "shell: source and . behind if, &&, command and in a function; ~/ and $HOME are the home directory; a process substitution's operands",
  reads,
  'shell',
  '# source nothing.sh\nsource tools/env.sh\n[ -f ~/.fzf.bash ] && . ~/.fzf.bash\nif [ -d x ]; then\n  command . "$HOME/tools/h.sh"\nfi\nw() { . -- ./tools/w.sh; }\nalias ll="ls -l"\nsource <(cat tools/gen.sh)\n',
  { names: ['tools/env.sh shell', '/home/u/.fzf.bash shell', '/home/u/tools/h.sh shell', 'tools/w.sh shell', 'tools/gen.sh shell'], unresolved: 0 },
);
test(
  "shell: a sourced name zotbox cannot spell out (a variable, a loop's file, a pattern, ~user) is unresolved",
  reads,
  'shell',
  'source "$NVM_DIR/nvm.sh"\nfor f in tools/*.sh; do . "$f"; done\n. tools/*.sh\n. ~bob/x.sh\n',
  {
    names: [],
    unresolved: 4,
  },
);
test('shell: a file with no source names nothing and is resolved', reads, 'shell', 'export EDITOR=vim\nalias g=git\nPS1="\\u@\\h "\neval "$(pyenv init -)"\n', { names: [], unresolved: 0 });
test('a startup file with no loading directive names nothing and is resolved', reads, 'vim', 'set shiftwidth=2\nset expandtab\nautocmd BufWritePre *.py :%s/\\s\\+$//e\n', {
  names: [],
  unresolved: 0,
});

test('the startup files read are the protected ones, by name, case-insensitively', (t) => {
  for (const [name, language] of [
    ['.gdbinit', 'gdb'],
    ['.exrc', 'vim'],
    ['.Rprofile', 'r'],
    ['.Renviron', 'renviron'],
    ['.nvim.lua', 'lua'],
    ['.lazy.lua', 'lua'],
    ['.iex.exs', 'elixir'],
    ['.ocamlinit', 'ocaml'],
    ...['.bashrc', '.bash_profile', '.profile', '.zshrc', '.zshenv', '.zprofile', '.zlogin', '.kshrc', '.xprofile'].map((name) => [name, 'shell'] as const),
  ] as const) {
    t.is(startupLanguage(name), language, name);
    t.not(protectedToolName(name), undefined, `${name} is on the protected list`);
  }
  t.is(startupLanguage('notes.vim'), undefined);
});

function workspace(t: ExecutionContext, files: Readonly<Record<string, string>>): string {
  const ws = path.join(realpathSync(tempDir(t, 'zb-startup-')), 'ws');
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    writeFileSync(path.join(ws, name), content);
  }
  return ws;
}

function protectedPaths(ws: string, entries: readonly string[]) {
  const found = toolFileReferences(
    entries.map((entry) => path.join(ws, entry)),
    [ws],
    { environment: { HOME: '/nonexistent-home' } },
  );
  return { paths: found.locations.map((location) => `${path.relative(ws, location.path)}${location.tree ? '/' : ''}`).sort(), unresolved: found.unresolved };
}

test('what a protected .gdbinit sources is protected, and what that Python file imports beside it', (t) => {
  const ws = workspace(t, { '.gdbinit': 'source tools/gdb/helpers.py\n', 'tools/gdb/helpers.py': 'import printers\n', 'tools/gdb/printers.py': 'x = 1\n', 'src/main.c': 'int main(){}\n' });
  const found = protectedPaths(ws, ['.gdbinit']);
  t.true(found.paths.includes('tools/gdb/helpers.py'), found.paths.join(' '));
  t.true(found.paths.includes('tools/gdb/printers.py'), found.paths.join(' '));
  t.false(found.paths.includes('src/main.c'), 'an unrelated source file stays writable');
  t.deepEqual(found.unresolved, []);
});

test('a Python file gdb runs in its own process is read by the startup rules too: its chdir moves gdb', (t) => {
  const ws = workspace(t, { '.gdbinit': 'source tools/gdb/helper.py\nsource lint.gdb\n', 'tools/gdb/helper.py': 'import os\nos.chdir("my-tools")\n', 'lint.gdb': 'echo\n' });
  const found = protectedPaths(ws, ['.gdbinit']);
  t.true(found.paths.includes('tools/gdb/helper.py'), found.paths.join(' '));
  t.is(found.unresolved.length, 1, found.unresolved.join('\n'));
  t.regex(found.unresolved[0] ?? '', /helper\.py line 2 .*changes directory/u);
});

test('a chain of vim files is followed to its end: .exrc sources a.vim, which sources b.vim, which luafiles c.lua', (t) => {
  const ws = workspace(t, {
    '.exrc': 'source tools/vim/a.vim\n',
    'tools/vim/a.vim': 'set sw=2\nsource tools/vim/b.vim\n',
    'tools/vim/b.vim': 'luafile tools/vim/c.lua\n',
    'tools/vim/c.lua': 'print(1)\n',
  });
  const found = protectedPaths(ws, ['.exrc']);
  for (const file of ['tools/vim/a.vim', 'tools/vim/b.vim', 'tools/vim/c.lua']) t.true(found.paths.includes(file), `${file}: ${found.paths.join(' ')}`);
  t.deepEqual(found.unresolved, []);
});

test("renv's .Rprofile: renv/activate.R is protected, and a file not there yet that it sources too", (t) => {
  const ws = workspace(t, { '.Rprofile': 'source("renv/activate.R")\n', 'renv/activate.R': 'local({ source("renv/local.R") })\n', 'analysis.R': 'x <- 1\n' });
  const found = protectedPaths(ws, ['.Rprofile']);
  t.true(found.paths.includes('renv/activate.R'));
  t.true(found.paths.includes('renv/local.R'), 'the file activate.R sources, missing now, is protected');
  t.false(found.paths.includes('analysis.R'));
});

test('what a protected .bashrc sources is protected, down the chain (each relative name from where the shell starts)', (t) => {
  const ws = workspace(t, { '.bashrc': 'alias g=git\nsource tools/env.sh\n', 'tools/env.sh': 'export X=1\n. tools/deeper.sh\n', 'tools/deeper.sh': 'echo hi\n', 'src/app.js': '' });
  const found = protectedPaths(ws, ['.bashrc']);
  for (const file of ['tools/env.sh', 'tools/deeper.sh']) t.true(found.paths.includes(file), `${file}: ${found.paths.join(' ')}`);
  t.false(found.paths.includes('src/app.js'), 'an unrelated file stays writable');
  t.deepEqual(found.unresolved, []);
  const computed = workspace(t, { '.zshenv': 'source "$PROJECT_ENV"\n' });
  t.true(protectedPaths(computed, ['.zshenv']).unresolved.some((line) => line.includes('.zshenv line 1')));
});

test('a startup file that loads a computed name refuses every writer (unresolved)', (t) => {
  const ws = workspace(t, { '.gdbinit': 'python exec(open(os.environ["X"]).read())\n' });
  t.true(protectedPaths(ws, ['.gdbinit']).unresolved.some((line) => line.includes('.gdbinit line 1')));
});

test(".Renviron's R_PROFILE_USER is protected and read as an R profile", (t) => {
  const ws = workspace(t, { '.Renviron': 'R_PROFILE_USER=notes/profile.R\n', 'notes/profile.R': 'source("notes/more.R")\n' });
  const found = protectedPaths(ws, ['.Renviron']);
  // The profile is a path in a variable's value too, so it is protected whole (as a directory would be).
  t.true(found.paths.includes('notes/profile.R/'), found.paths.join(' '));
  t.true(found.paths.includes('notes/more.R'), found.paths.join(' '));
});

test("aider's .env beside its .aider.conf.yml is protected, and what it names; a .env with no aider configuration is not", (t) => {
  const aider = workspace(t, { '.aider.conf.yml': 'auto-lint: true\n', '.env': 'AIDER_LINT_CMD=sh notes/x.sh\n', 'notes/x.sh': 'true\n' });
  const found = protectedPaths(aider, ['.aider.conf.yml']);
  t.true(found.paths.includes('.env'), found.paths.join(' '));
  t.true(
    found.paths.some((p) => p.startsWith('notes/x.sh')),
    found.paths.join(' '),
  );
  const plain = workspace(t, { '.env': 'DATABASE_URL=postgres://localhost/db\n', 'README.md': 'x\n' });
  t.deepEqual(protectedPaths(plain, []).paths, []);
});
