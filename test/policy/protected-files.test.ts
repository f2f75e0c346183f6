// Files other tools run (issue 21 §3, §5): which names are protected, what a
// write scope grants, and how the gate decides a write into either kind. The
// expectations are written by hand from the rules in docs/permissions.md.
import test from 'ava';
import { mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { decidePathAccess } from '../../src/policy/path-decision.js';
import { findControlLocation, grantedToolFiles, protectedToolName, ungrantedToolFile, type ControlLocation } from '../../src/policy/protected-files.js';
import { compileScopes } from '../../src/policy/scopes.js';
import { tempDir } from '../fixtures/temp.js';

const protectedNames = test.macro((t, name: string) => {
  t.not(protectedToolName(name), undefined);
  t.is(ungrantedToolFile(`/ws/a/b/${name}/x`, ['/ws'])?.entry, `/ws/a/b/${name}`);
});
for (const name of [
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  '.profile',
  '.envrc',
  '.vscode',
  '.idea',
  '.devcontainer',
  '.devcontainer.json',
  '.gitconfig',
  '.gitmodules',
  '.husky',
  '.ripgreprc',
  '.mcp.json',
  '.claude',
  '.pre-commit-config.yaml',
  'lefthook.yml',
  'Common.pmc',
  'hk.pkl',
  'hk.local.pkl',
  'hk.toml',
  '.hkrc.pkl',
  '.rusty-hook.toml',
  'rusty-hook.toml',
  'captainhook.json',
  '.overcommit.yml',
  '.pre-commit-config.yml',
  '.cargo-husky',
  'team.code-workspace',
  // REPL, editor and debugger startup files read from the directory the tool starts in (R, IEx, OCaml, lazy.nvim, vim on Windows).
  '.Renviron',
  '.iex.exs',
  '.ocamlinit',
  '.lazy.lua',
  '_vimrc',
  '_exrc',
  '_gvimrc',
  '.gdbearlyinit',
  // gdb's auto-loaded scripts beside an objfile (the program's or a library's file name, then -gdb.py/.gdb/.scm).
  'app-gdb.py',
  'libfoo.so.1.2-gdb.gdb',
  'App.Exe-GDB.SCM',
  '.BashRC',
  '.VSCode',
  // Review s23m: zsh's compiled startup and sourced files, direnv's own rc, irb's and R's other startup files, fish's variables.
  '.zshrc.zwc',
  '.zshenv.zwc',
  'lib.sh.zwc',
  'functions.ZWC',
  '.direnvrc',
  'irb.rc',
  '_irbrc',
  '.RData',
  'fish_variables',
  // Review s27o: zsh's completion dump and cache, the files a shell reads beside its startup files, the editors' and
  // debuggers' own folders.
  '.zcompdump',
  '.zcompdump-myhost-5.9',
  '.zcompcache',
  '.bash_completion',
  '.inputrc',
  '.editrc',
  '.lldbinit-lldb',
  'perldb.ini',
  '.vim',
  'vimfiles',
  '.emacs',
  '.emacs.el',
  '.emacs.d',
  '.ipython',
  '.jupyter',
  '.ssh',
  // Review s33r: what default startup files source, sensible-editor's choice, less's keys and filters, Mercurial's config.
  '.bash_aliases',
  '.bashrc.d',
  '.p10k.zsh',
  '.oh-my-zsh',
  '.selected_editor',
  '.lesskey',
  '.less',
  '.lessfilter',
  '.hgrc',
  // Review s35s: interactive tools whose startup files run commands, gpg's folder.
  '.tmux.conf',
  '.screenrc',
  '.psqlrc',
  '.psqlrc-16',
  '.sqliterc',
  '.muttrc',
  '.mailcap',
  '.my.cnf',
  '.gnupg',
]) {
  test(`${name} is a protected tool file at any depth`, protectedNames, name);
}

for (const name of [
  'Common.pm',
  'notes.pmc.txt',
  'gdb.py',
  'app-gdb.py.txt',
  'app-gdb.c',
  'my_gdb.py',
  'hk.pkl.bak',
  'chk.pkl',
  'captainhook.json.dist',
  'rusty-hook.md',
  '.bashrc.bak',
  'bashrc',
  '.vscode-test',
  'envrc',
  '.code-workspace-notes',
  'README.md',
  '.gitignore',
  '.gitattributes',
  '.env',
  '.zwc',
  'notes.zwc.txt',
  'direnvrc',
  'lib',
  'conf.d',
  'irbrc',
  'data.RData.csv',
  'zcompdump',
  'notes.zcompdump',
  'inputrc.md',
  '.lldbinit.bak',
  'vim',
  'ssh',
  'gdbinit',
  'init.lua',
]) {
  test(`${name} is an ordinary file`, (t) => {
    t.is(protectedToolName(name), undefined);
    t.is(ungrantedToolFile(`/ws/${name}`, ['/ws']), undefined);
  });
}

test("hk's files are protected in .config/ and its user configuration in hk/", (t) => {
  t.is(ungrantedToolFile('/ws/.config/hk.pkl', ['/ws'])?.entry, '/ws/.config/hk.pkl');
  t.is(ungrantedToolFile('/home/u/.config/hk/config.pkl', ['/home/u'])?.entry, '/home/u/.config/hk/config.pkl');
  t.is(ungrantedToolFile('/ws/config.pkl', ['/ws']), undefined);
});

test("review s23m: direnv's, fish's and irb's own folders are protected in .config/ (or wherever the folder is)", (t) => {
  t.is(ungrantedToolFile('/home/u/.config/direnv/direnvrc', ['/home/u'])?.entry, '/home/u/.config/direnv/direnvrc');
  t.is(ungrantedToolFile('/home/u/.config/direnv/lib/agent.sh', ['/home/u'])?.entry, '/home/u/.config/direnv/lib');
  t.is(ungrantedToolFile('/home/u/.config/direnv/direnv.toml', ['/home/u'])?.entry, '/home/u/.config/direnv/direnv.toml');
  t.is(ungrantedToolFile('/home/u/.config/direnv/config.toml', ['/home/u'])?.entry, '/home/u/.config/direnv/config.toml');
  t.is(ungrantedToolFile('/home/u/.config/fish/conf.d/x.fish', ['/home/u'])?.entry, '/home/u/.config/fish/conf.d');
  t.is(ungrantedToolFile('/home/u/.config/fish/functions/ls.fish', ['/home/u'])?.entry, '/home/u/.config/fish/functions');
  t.is(ungrantedToolFile('/home/u/.config/irb/irbrc', ['/home/u'])?.entry, '/home/u/.config/irb/irbrc');
  // The same names elsewhere are ordinary.
  t.is(ungrantedToolFile('/ws/src/lib/agent.sh', ['/ws']), undefined);
  t.is(ungrantedToolFile('/ws/config.toml', ['/ws']), undefined);
  t.is(ungrantedToolFile('/ws/functions/handler.js', ['/ws']), undefined);
});

test("review s27o: the editors', debuggers' and REPLs' own folders are protected in .config/ (or wherever the folder is)", (t) => {
  const home = (path: string) => ungrantedToolFile(`/home/u/${path}`, ['/home/u'])?.entry.slice('/home/u/'.length);
  t.is(home('.config/gdb/gdbinit'), '.config/gdb/gdbinit');
  t.is(home('.config/gdb/gdbearlyinit'), '.config/gdb/gdbearlyinit');
  t.is(home('.config/lldb/lldbinit'), '.config/lldb/lldbinit');
  t.is(home('.config/pry/pryrc'), '.config/pry/pryrc');
  t.is(home('.config/ocaml/init.ml'), '.config/ocaml/init.ml');
  t.is(home('.config/utop/init.ml'), '.config/utop/init.ml');
  t.is(home('.ghc/ghci.conf'), '.ghc/ghci.conf');
  t.is(home('.config/emacs/lisp/mine.el'), '.config/emacs');
  t.is(home('dotfiles/emacs/init.el'), 'dotfiles/emacs/init.el');
  t.is(home('.vim/plugin/x.vim'), '.vim');
  t.is(home('.config/vim/vimrc'), '.config/vim/vimrc');
  t.is(home('.config/nvim/init.lua'), '.config/nvim/init.lua');
  t.is(home('.config/nvim/lua/plugins/x.lua'), '.config/nvim/lua');
  t.is(home('.config/nvim/plugin/x.lua'), '.config/nvim/plugin');
  t.is(home('dotfiles/nvim/after/ftplugin/py.lua'), 'dotfiles/nvim/after');
  t.is(home('.local/share/bash-completion/completions/git'), '.local/share/bash-completion/completions');
  t.is(home('.config/autostart/x.desktop'), '.config/autostart');
  t.is(home('.config/environment.d/env.conf'), '.config/environment.d');
  t.is(home('.config/systemd/user/x.service'), '.config/systemd');
  t.is(home('.ssh/config'), '.ssh');
  t.is(home('.config/lesskey'), '.config/lesskey');
  t.is(home('.config/lessfilter'), '.config/lessfilter');
  t.is(home('.config/hg/hgrc'), '.config/hg/hgrc');
  t.is(home('.config/tmux/tmux.conf'), '.config/tmux/tmux.conf');
  t.is(home('.config/mutt/muttrc'), '.config/mutt/muttrc');
  t.is(home('.local/share/nvim/site/plugin/x.vim'), '.local/share/nvim/site');
  // The same names elsewhere are ordinary.
  for (const path of ['src/gdb/init.c', 'src/lua/init.lua', 'docs/plugin/index.md', 'site/colors/theme.css', 'src/systemd/unit.c', 'src/completions/git.ts']) t.is(home(path), undefined, path);
});

test('a write scope grants a protected file only by naming it or a path inside it', (t) => {
  t.is(ungrantedToolFile('/ws/.vscode/settings.json', ['/ws', '/ws/.vscode/settings.json']), undefined);
  t.is(ungrantedToolFile('/ws/.vscode/tasks.json', ['/ws', '/ws/.vscode/settings.json'])?.entry, '/ws/.vscode');
  t.is(ungrantedToolFile('/ws/.vscode/tasks.json', ['/ws', '/ws/.vscode']), undefined);
  t.is(ungrantedToolFile('/ws/sub/.envrc', ['/ws', '/ws/.envrc'])?.entry, '/ws/sub/.envrc');
  // A scope inside a protected directory: the agent's own data kept in ~/.vscode/extensions/x is granted by that scope.
  t.is(ungrantedToolFile('/home/u/.vscode/extensions/x/a', ['/home/u/.vscode/extensions/x']), undefined);
  t.is(ungrantedToolFile('/home/u/.bashrc', ['/home/u'])?.entry, '/home/u/.bashrc');
});

test('consent lists the explicit grants', (t) => {
  t.deepEqual(
    grantedToolFiles(['/ws', '/ws/.vscode/settings.json', '/ws/.envrc']).map((g) => g.root),
    ['/ws/.vscode/settings.json', '/ws/.envrc'],
  );
});

test('a control location covers its path, and its tree only when it is one; case is folded', (t) => {
  const locations: ControlLocation[] = [
    { path: '/ws/.husky', tree: true, reason: 'in core.hooksPath' },
    { path: '/ws/project.gitconfig', tree: false, reason: 'included' },
  ];
  t.is(findControlLocation('/ws/.husky/pre-commit', locations)?.reason, 'in core.hooksPath');
  t.is(findControlLocation('/ws/.HUSKY/pre-commit', locations)?.reason, 'in core.hooksPath');
  t.is(findControlLocation('/ws/project.gitconfig', locations)?.reason, 'included');
  t.is(findControlLocation('/ws/project.gitconfig/x', locations), undefined);
  t.is(findControlLocation('/ws/.husky-notes', locations), undefined);
});

function scopesFor(t: Parameters<typeof tempDir>[0], write: string[]) {
  const ws = realpathSync(tempDir(t, 'zb-protected-'));
  mkdirSync(path.join(ws, '.vscode'));
  return { ws, scopes: compileScopes({ read: ['${workspace}'], write }, { workspace: ws, agentData: path.join(ws, 'data') }) };
}

test('the gate refuses a tool file under a plain workspace scope, saying which rule and how to grant it', (t) => {
  const { ws, scopes } = scopesFor(t, ['${workspace}']);
  for (const tool of ['write', 'edit'] as const) {
    const decision = decidePathAccess(tool, '.vscode/tasks.json', scopes);
    t.false(decision.allow);
    if (decision.allow) return;
    t.is(decision.code, 'ZB_POLICY_PATH_PROTECTED');
    t.true(decision.reason.includes(`${ws}/.vscode`));
    t.true(decision.reason.includes('permissions.fs.write'));
  }
  t.true(decidePathAccess('read', '.vscode/tasks.json', scopes).allow);
  t.true(decidePathAccess('write', 'src/app.ts', scopes).allow);
});

test('the gate allows a tool file the manifest names in a write scope', (t) => {
  const { scopes } = scopesFor(t, ['${workspace}', '${workspace}/.vscode/settings.json']);
  t.true(decidePathAccess('write', '.vscode/settings.json', scopes).allow);
  t.false(decidePathAccess('write', '.vscode/tasks.json', scopes).allow);
});

test('the gate refuses a control location with the reason the host gave, and everything when the host could not tell', (t) => {
  const { ws, scopes } = scopesFor(t, ['${workspace}']);
  const controls = { locations: [{ path: path.join(ws, 'hooks'), tree: true, reason: 'in core.hooksPath (set in /x/.git/config line 7)' }] };
  const decision = decidePathAccess('write', 'hooks/pre-commit', scopes, controls);
  t.false(decision.allow);
  if (!decision.allow) t.true(decision.reason.includes('line 7'));
  t.true(decidePathAccess('write', 'src/pre-commit', scopes, controls).allow);
  const unknown = decidePathAccess('write', 'src/a.ts', scopes, { unavailable: 'too many directories' });
  t.false(unknown.allow);
  if (!unknown.allow) t.is(unknown.code, 'ZB_POLICY_PATH_PROTECTED');
});

test('a link named like a tool file is refused as written, and a link to one as resolved', (t) => {
  const { ws, scopes } = scopesFor(t, ['${workspace}']);
  mkdirSync(path.join(ws, 'real'));
  symlinkSync('real', path.join(ws, '.idea'));
  symlinkSync('.vscode', path.join(ws, 'editor'));
  t.false(decidePathAccess('write', '.idea/workspace.xml', scopes).allow);
  t.false(decidePathAccess('write', 'editor/tasks.json', scopes).allow);
});

test("a directory's module entries: NAME.py and NAME/__init__.py of every importable name, NAME/ whole for a named package, case-insensitively; nothing else there", (t) => {
  const location: ControlLocation = { path: '/ws/backend', tree: false, reason: 'a sys.path[0]', modules: { names: new Set(['urllib3', 'json', 'nsp']), packages: new Set(['nsp']) } };
  const at = (relative: string) => findControlLocation(`/ws/backend/${relative}`, [location]) !== undefined;
  for (const relative of ['urllib3.py', 'URLLIB3.PY', 'urllib3/__init__.py', 'urllib3', 'json.py', 'nsp/sub/mod.py', 'nsp/__init__.py']) t.true(at(relative), relative);
  // Installed code imports names that are not installed too (requests tries chardet): any importable name's module.
  for (const relative of ['helpers.py', 'chardet.py', 'chardet/__init__.py', 'shop/__init__.py', 'Ünï_2.py']) t.true(at(relative), relative);
  // Not importable by any name (a hyphen, a dot, a leading digit), or not a module entry at the top.
  for (const relative of ['urllib3/util.py', 'shop/views.py', 'my-tool.py', 'notes.v2.py', '2fa.py', 'my-dir/__init__.py', 'urllib3.txt', 'sub/urllib3.py', 'urllib3.py/x'])
    t.false(at(relative), relative);
  t.is(findControlLocation('/ws/backend', [location]), undefined);
  t.is(findControlLocation('/ws/urllib3.py', [location]), undefined);
});
