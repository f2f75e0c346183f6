// Files that the user's own tools run on their own (issue 21 §3, §5): pure path
// rules, no I/O. Two kinds. Tool files are known by name at any depth (shell
// startup files, direnv's .envrc, editor and dev-container settings, git hook
// managers): a write scope does not grant them unless a write scope names them
// (or lies inside them). Control locations are what a repository's effective git
// configuration names (hooksPath, includes, program paths): the host computes
// them (confine/control-locations.ts) and passes them in as data.

/** One protected name: matched case-insensitively against a whole path component. */
export interface ProtectedToolName {
  readonly name: string;
  /** The tool that runs it, and when: shown in the denial. */
  readonly runBy: string;
}

/**
 * The default list (docs/permissions.md, "Files other tools run"). A directory's
 * name protects everything in it. At least what Anthropic's sandbox-runtime
 * protects (.gitconfig, .gitmodules, .bashrc, .bash_profile, .zshrc, .zprofile,
 * .profile, .ripgreprc, .mcp.json, .vscode/, .idea/, .claude/commands|agents), and more.
 */
export const PROTECTED_TOOL_NAMES: readonly ProtectedToolName[] = [
  ...[
    '.bashrc',
    '.bash_profile',
    '.bash_login',
    '.bash_logout',
    '.profile',
    '.zshrc',
    '.zshenv',
    '.zprofile',
    '.zlogin',
    '.zlogout',
    '.kshrc',
    '.mkshrc',
    '.cshrc',
    '.tcshrc',
    '.login',
    '.logout',
    'config.fish',
    'fish_variables',
  ].map((name) => ({ name, runBy: 'a shell runs it when it starts or a login ends' })),
  // The files a shell reads beside its startup files (review s27o): bash-completion sources ~/.bash_completion at every
  // interactive start; zsh's completion cache (`_retrieve_cache`) sources the files in .zcompcache; readline and
  // libedit bind keys to the text they define (a macro on Return types a command into every bash, python and gdb).
  { name: '.bash_completion', runBy: 'bash-completion runs it at every interactive bash start' },
  { name: '.zcompcache', runBy: "zsh's completion system sources the cache files in it" },
  ...['.inputrc', '.editrc'].map((name) => ({ name, runBy: 'readline or libedit binds keys to the text it defines in every interactive bash, python and gdb' })),
  // What the distributions' default startup files source (Debian's and Ubuntu's skel .bashrc: .bash_aliases; Fedora's:
  // .bashrc.d/), and what zsh frameworks and prompts run at every start (review s33r row 1).
  ...['.bash_aliases', '.bashrc.d', '.p10k.zsh', '.oh-my-zsh'].map((name) => ({ name, runBy: "the user's shell startup files run it at every interactive start" })),
  // Debian's sensible-editor (crontab -e, visudo) sources it as shell (review s33r row 2).
  { name: '.selected_editor', runBy: "Debian's sensible-editor runs it as shell when crontab -e, visudo or another tool opens an editor" },
  // less reads LESSOPEN and its other variables from lesskey (and its compiled .less), and lesspipe runs the user's
  // filter for every file less opens (review s33r rows 3-4); less is git's and man's pager.
  ...['.lesskey', '.less', '.lessfilter'].map((name) => ({ name, runBy: 'less (the pager of git and man) runs the command it names, or it, for every file it opens' })),
  // Mercurial's user configuration runs the hooks and extensions it names in every repository.
  { name: '.hgrc', runBy: 'Mercurial runs the hooks and extensions it names in every repository' },
  // Interactive tools whose startup files run shell commands (review s35s: tmux's run-shell when its server starts;
  // screen's exec, psql's \!, sqlite3's .shell, mutt's backticks and `source "cmd|"`, mailcap's viewers, the mysql
  // client's pager), and gpg's folder (gpg-agent.conf's pinentry-program runs at every signed commit).
  ...['.tmux.conf', '.screenrc', '.psqlrc', '.sqliterc', '.muttrc', '.mailcap', '.my.cnf', '.gnupg'].map((name) => ({
    name,
    runBy: 'the tool (tmux, screen, psql, sqlite3, mutt, a mail or MIME viewer, mysql, gpg) runs the commands or programs it names when it starts',
  })),
  ...['.xprofile', '.xinitrc', '.xsession', '.xsessionrc'].map((name) => ({ name, runBy: 'the X session runs it at login' })),
  { name: '.envrc', runBy: 'direnv runs it when a shell enters the directory' },
  // direnv's own rc, sourced before every .envrc in every directory (review s23m row 2; its `direnv/` folder below).
  { name: '.direnvrc', runBy: 'direnv runs it before every .envrc it loads, in any directory' },
  // _vimrc and _exrc: vim's names for them on Windows (a workspace it shares).
  ...['.exrc', '.vimrc', '.nvimrc', '.nvim.lua', '_exrc', '_vimrc'].map((name) => ({ name, runBy: 'vim or neovim runs it when it opens the directory (exrc)' })),
  // vim's user runtime directory (review s27o row 3): `.vim/vimrc` in place of a missing `.vimrc`, every `plugin/*.vim`
  // at every start; `vimfiles` is its name on Windows (a workspace it shares).
  ...['.vim', 'vimfiles'].map((name) => ({ name, runBy: 'vim runs the vimrc and plugins in it at every start' })),
  // Emacs's init files and directory, and IPython's and Jupyter's profiles, whose startup scripts and config run at every start.
  ...['.emacs', '.emacs.el', '.emacs.d'].map((name) => ({ name, runBy: 'Emacs runs it at every start' })),
  ...['.ipython', '.jupyter'].map((name) => ({ name, runBy: 'IPython and Jupyter run the startup scripts and configuration (Python) in it at every start' })),
  // ssh runs the ProxyCommand, LocalCommand and Match exec its config names on every connection (git's fetch and push too), sshd runs rc.
  { name: '.ssh', runBy: "ssh runs the programs its config names on every connection (git's too), and sshd the rc and keys in it" },
  { name: '.lazy.lua', runBy: "lazy.nvim (Neovim's plugin manager) loads it from the directory Neovim starts in (local_spec)" },
  // .gdbearlyinit: gdb reads it from the home directory before anything else (a workspace may be the home directory).
  ...['.gdbinit', '.gdbearlyinit', '.lldbinit', '.pdbrc', '.perldb', 'perldb.ini'].map((name) => ({ name, runBy: 'the debugger runs it when started in the directory' })),
  ...['.pryrc', '.irbrc', 'irb.rc', '_irbrc', '.rprofile', '.octaverc', '.ghci', '.iex.exs', '.ocamlinit'].map((name) => ({
    name,
    runBy: 'the REPL (pry, irb, R, Octave, GHCi, IEx, the OCaml toplevel and utop) runs it when started in the directory',
  })),
  // R loads the saved workspace in the directory it starts in, and runs the .First function saved in it (review s23m).
  { name: '.rdata', runBy: 'R loads it when started in the directory and runs the .First function it holds' },
  // R reads .Renviron before the profile: its R_PROFILE_USER names the file R runs in place of the protected .Rprofile.
  { name: '.renviron', runBy: 'R reads its variables when started in the directory (R_PROFILE_USER names the profile it runs, R_LIBS where it loads packages from)' },
  ...['.gvimrc', '_gvimrc'].map((name) => ({ name, runBy: 'gvim runs it when it opens the directory (exrc)' })),
  ...['.dir-locals.el', '.dir-locals-2.el'].map((name) => ({ name, runBy: 'Emacs evaluates it when it visits a file in the directory or below' })),
  { name: '.gitpod.yml', runBy: 'Gitpod runs the tasks it lists when a workspace opens on the repository' },
  { name: '.vscode', runBy: 'VS Code runs the tasks, launch configurations and programs its settings name' },
  { name: '.idea', runBy: 'JetBrains IDEs run the run configurations and tools it defines' },
  { name: '.devcontainer', runBy: 'dev container tools build and run what it defines when the folder is opened' },
  { name: '.devcontainer.json', runBy: 'dev container tools build and run what it defines when the folder is opened' },
  { name: '.zed', runBy: 'Zed runs the tasks and language servers it defines' },
  { name: '.helix', runBy: 'Helix runs the language servers it defines' },
  { name: '.claude', runBy: 'Claude Code runs the hooks and commands in its settings' },
  { name: '.cursor', runBy: 'Cursor runs the MCP servers and rules it defines' },
  { name: '.mcp.json', runBy: 'coding agents start the MCP servers it lists' },
  ...['.gemini', '.qwen', '.amazonq', '.kiro', '.roo', '.continue', '.codex', '.opencode', 'opencode.json', 'opencode.jsonc', 'crush.json', '.crush.json', '.aider.conf.yml'].map((name) => ({
    name,
    runBy: 'a coding agent starts the MCP servers or runs the commands its project settings list',
  })),
  { name: '.claude.json', runBy: 'Claude Code starts the MCP servers it lists' },
  { name: '.ripgreprc', runBy: 'ripgrep reads options from it, --pre runs a program' },
  { name: '.gitconfig', runBy: 'git reads it as configuration (a global config, or an include)' },
  { name: '.gitmodules', runBy: 'git reads submodule settings from it' },
  { name: '.husky', runBy: 'husky runs the hooks in it on git commit and push' },
  ...[
    '.pre-commit-config.yaml',
    // prek (a pre-commit runner) reads the .yml spelling too.
    '.pre-commit-config.yml',
    'lefthook.yml',
    '.lefthook.yml',
    'lefthook-local.yml',
    '.lefthook-local.yml',
    // rusty-hook, CaptainHook (PHP), overcommit (Ruby): the installed hook runs the manager, which runs what these list.
    '.rusty-hook.toml',
    'rusty-hook.toml',
    'captainhook.json',
    '.overcommit.yml',
    // hk's user configuration, read for every project (its home directory may be a workspace).
    '.hkrc.pkl',
  ].map((name) => ({
    name,
    runBy: 'a git hook manager runs the commands it lists on git commit',
  })),
  // cargo-husky copies the hooks in it into .git/hooks when cargo builds the tests.
  { name: '.cargo-husky', runBy: 'cargo-husky installs the git hooks in it when cargo builds the tests' },
];

/** Names ending so are protected too: VS Code opens a *.code-workspace with its settings and tasks. */
const PROTECTED_SUFFIXES: readonly ProtectedToolName[] = [{ name: '.code-workspace', runBy: 'VS Code runs the tasks and programs a workspace file names' }];

/**
 * Families of names one tool reads in several spellings (extensions, local variants), matched whole and
 * case-insensitively. Found by the adversarial review of issue 21: every spelling the tool reads, not one of them.
 */
const PROTECTED_PATTERNS: readonly { readonly pattern: RegExp; readonly runBy: string }[] = [
  { pattern: /^\.?lefthook(-local)?\.(ya?ml|toml|jsonc?)$/u, runBy: 'lefthook runs the commands it lists on git commit' },
  // lefthook's `scripts:` run from .lefthook/<hook>/ and .lefthook-local/<hook>/ (its source_dir defaults).
  { pattern: /^\.lefthook(-local)?$/u, runBy: 'lefthook runs the scripts in it on git commit' },
  { pattern: /^(\.lintstagedrc(\.[a-z]+)?|lint-staged\.config\.[cm]?[jt]s)$/u, runBy: 'lint-staged runs the commands it lists from a git hook' },
  { pattern: /^(\.commitlintrc(\.[a-z]+)?|commitlint\.config\.[cm]?[jt]s)$/u, runBy: 'commitlint loads it (JavaScript runs) from a git hook' },
  { pattern: /^(\.huskyrc(\.[a-z]+)?|husky\.config\.[cm]?js)$/u, runBy: 'husky 4 runs the hooks it lists on git commit and push' },
  { pattern: /^\.?simple-git-hooks(\.[cm]?js|\.json)?$/u, runBy: 'simple-git-hooks installs the hooks it lists' },
  // hk (jdx/hk): hk.pkl and hk.local.pkl (also in .config/), the older hk.{toml,yaml,yml,json}; Pkl runs what they import.
  { pattern: /^hk(\.local)?\.(pkl|toml|ya?ml|json)$/u, runBy: 'hk runs the commands its steps list on git commit' },
  { pattern: /^\.?mise(\.[a-z0-9_-]+)?\.toml$/u, runBy: 'mise runs the hooks and env sources it defines when a shell enters the directory' },
  // Perl opens NAME.pmc in place of every NAME.pm it loads, by module name or by path (perl's S_doopen_pm), when it exists.
  { pattern: /^.+\.pmc$/u, runBy: 'Perl loads X.pmc in place of the X.pm beside it, so no review of the .pm shows what runs' },
  // zsh runs X.zwc (compiled wordcode) in place of X for every startup file and every file `source` or `.` reads, when
  // it is newer than X or X is missing, and a directory's digest DIR.zwc in place of the functions in fpath's DIR
  // (review s23m row 1: `.zshrc.zwc` beside a read-only `.zshrc`).
  // zsh's compinit sources its dump (.zcompdump, oh-my-zsh's .zcompdump-HOST-VERSION) at every interactive start, in
  // place of scanning fpath, when the dump's first line matches (review s27o row 1).
  { pattern: /^\.zcompdump.*$/u, runBy: "zsh's compinit runs it at every interactive start in place of the completion functions it stands for" },
  // lldb reads ~/.lldbinit-PROGRAM (lldb, Xcode, a driver's name) before ~/.lldbinit.
  // psql reads ~/.psqlrc-VERSION (e.g. .psqlrc-16) before ~/.psqlrc.
  { pattern: /^\.psqlrc-.+$/u, runBy: 'psql runs the commands it names (\\! runs a shell) when it starts' },
  { pattern: /^\.lldbinit-.+$/u, runBy: 'lldb runs it when the program of its name starts the debugger' },
  { pattern: /^.+\.zwc$/u, runBy: 'zsh runs X.zwc in place of the startup file, sourced file or function directory X beside it, so no review of X shows what runs' },
  // gdb auto-loads OBJFILE-gdb.py, -gdb.gdb and -gdb.scm beside every program or library it opens, in a directory the
  // user trusts for its .gdbinit, before anything runs (s45t review, "gdb-objfile-scripts").
  { pattern: /^.+-gdb\.(py|gdb|scm)$/u, runBy: 'gdb runs it when it opens the program or library of the name before "-gdb" beside it' },
  { pattern: /^.+\.py[co]$/u, runBy: 'Python runs bytecode in place of a missing or matching source, so no review of the source shows a change to it' },
  // Python's finder tries every extension suffix before .py (third review, "python-extension-module"), for any
  // version, ABI and platform: MOD.cpython-311-x86_64-linux-gnu.so, MOD.abi3.so, MOD.pypy310-pp73-x86_64-linux-gnu.so
  // and MOD.so (POSIX; PyPy; a package's __init__.so), MOD.cp311-win_amd64.pyd and MOD.pyd (Windows, a workspace it
  // shares), MOD.fwork (iOS). Not .pyw (a source, shown by a review) nor Cygwin's MOD.dll (every .NET build writes
  // *.dll; zotbox runs on Linux): docs/security.md, "What is not protected".
  {
    pattern: /^.+\.(so|pyd|fwork)$/u,
    runBy:
      'Python imports an extension module (MOD.so, MOD.abi3.so, MOD.cpython-311-x86_64-linux-gnu.so, MOD.pyd) before MOD.py beside it, so `import MOD` runs its native code and no review of the source shows it',
  },
];

/** Whole directories of other version control systems and tools, read as their repository's configuration. */
const PROTECTED_OTHER_NAMES: readonly ProtectedToolName[] = [
  ...['.hg', '.jj', '.sl'].map((name) => ({ name, runBy: 'Mercurial, jj or Sapling run the hooks and extensions of the repository configuration in it' })),
  { name: '.mise', runBy: 'mise runs the hooks and env sources it defines when a shell enters the directory' },
  { name: '.tool-versions', runBy: 'asdf and mise install and run the plugins it names when a shell enters the directory' },
  { name: '.rvmrc', runBy: 'rvm runs it when a shell enters the directory' },
  ...['rust-toolchain.toml', 'rust-toolchain'].map((name) => ({
    name,
    runBy: "every rustup proxy run in the directory or below (cargo, rustc, a prompt's rustc --version) runs the toolchain it names by path",
  })),
  { name: '.lazygit.yml', runBy: 'lazygit runs the pager and commands it names when it opens the repository' },
  // A cache that stands for a source (issue 21, second review: "bytecode-cache"): Python imports the bytecode whenever its
  // header's mtime and size match the source, without reading the source, and __pycache__ is in nearly every .gitignore.
  { name: '__pycache__', runBy: 'Python runs the bytecode cached in it in place of the source it stands for, so no review of the source shows a change to it' },
];

/**
 * Names protected only in a directory of a given name: a Python virtual environment's files that editors
 * run on their own when the folder is opened (VS Code's Python extension sources `bin/activate` into every
 * terminal and starts `bin/python`, whose startup runs every `.pth` file and `sitecustomize.py` in
 * site-packages). `pyvenv.cfg` (any directory) chooses the interpreter a venv runs.
 */
const PROTECTED_IN_DIRECTORY: readonly { readonly parent: RegExp; readonly pattern: RegExp; readonly runBy: string }[] = [
  {
    parent: /^(bin|scripts)$/u,
    pattern: /^(activate(\.[a-z0-9]+)?|activate_this\.py|python(\d+(\.\d+)?)?(\.exe)?|pythonw(\.exe)?|pypy\d*(\.\d+)?)$/u,
    runBy: "editors source a virtual environment's activation script in every terminal they open and start its interpreter to inspect it",
  },
  {
    parent: /^(site|dist)-packages$/u,
    pattern: /^(.+\.pth|sitecustomize\.py|usercustomize\.py)$/u,
    runBy: "Python runs it whenever the environment's interpreter starts (editors start it when the folder is opened)",
  },
  {
    // What a .pth file imports runs at every start too, so the whole of site-packages is the environment's startup code.
    parent: /^(lib|python\d+(\.\d+)?|pypy\d+(\.\d+)?)$/u,
    pattern: /^(site|dist)-packages$/u,
    runBy: "Python runs its .pth files and the modules they import whenever the environment's interpreter starts (editors start it when the folder is opened)",
  },
  { parent: /^mise$/u, pattern: /^(config(\.[a-z0-9_-]+)?\.toml|conf\.d)$/u, runBy: 'mise runs the hooks and env sources it defines when a shell enters the directory' },
  // direnv's rc files (~/.config/direnv/): run before every .envrc (direnvrc, lib/*.sh), or widening what it loads on
  // its own (direnv.toml's whitelist and load_dotenv) (review s23m row 2).
  { parent: /^direnv$/u, pattern: /^(direnvrc|direnv\.toml|config\.toml|lib)$/u, runBy: 'direnv runs it (or loads .envrc files on its own as it says) before every .envrc, in any directory' },
  // fish runs every file in conf.d at start, and autoloads functions and completions by name; fish_variables sets
  // the universal variables (fish_user_paths, fish_function_path) of every fish (review s23m "not done").
  { parent: /^fish$/u, pattern: /^(conf\.d|functions|completions|fish_variables)$/u, runBy: 'fish runs it at every start or when a function or completion of its name is used' },
  { parent: /^irb$/u, pattern: /^irbrc$/u, runBy: 'irb runs it when it starts' },
  // The XDG homes of the debuggers and REPLs above (~/.config/gdb/gdbinit runs before ~/.gdbinit: review s27o row 2).
  { parent: /^gdb$/u, pattern: /^(gdbinit|gdbearlyinit)$/u, runBy: 'gdb runs it at every start, before .gdbinit' },
  { parent: /^lldb$/u, pattern: /^lldbinit(-.+)?$/u, runBy: 'lldb runs it at every start' },
  { parent: /^pry$/u, pattern: /^pryrc$/u, runBy: 'pry runs it when it starts' },
  { parent: /^(ocaml|utop)$/u, pattern: /^init\.ml$/u, runBy: 'the OCaml toplevel and utop run it when they start' },
  { parent: /^\.?ghc$/u, pattern: /^ghci\.conf$/u, runBy: 'GHCi runs it when it starts' },
  { parent: /^emacs$/u, pattern: /^(init|early-init)\.elc?$/u, runBy: 'Emacs runs it at every start' },
  // vim's and neovim's XDG runtime directories (~/.config/vim, ~/.config/nvim): their init files and every folder
  // vim loads scripts from at start or on a file type (review s27o row 3).
  {
    parent: /^n?vim$/u,
    pattern: /^(vimrc|gvimrc|init\.(lua|vim)|ginit\.vim|plugin|after|ftplugin|ftdetect|autoload|pack|indent|syntax|colors|compiler|keymap|import|lua|rplugin|queries|site)$/u,
    runBy: 'vim or neovim runs it at every start, or when a file of its type opens',
  },
  { parent: /^bash-completion$/u, pattern: /^completions$/u, runBy: 'bash-completion runs the file named for a command when that command is completed' },
  { parent: /^(tmux|mutt|neomutt)$/u, pattern: /^(tmux\.conf|muttrc|neomuttrc)$/u, runBy: 'tmux or mutt runs the commands it names when it starts' },
  { parent: /^hg$/u, pattern: /^hgrc(\.d)?$/u, runBy: 'Mercurial runs the hooks and extensions it names in every repository' },
  { parent: /^\.config$/u, pattern: /^(lesskey|lessfilter)$/u, runBy: 'less (the pager of git and man) runs the command it names, or it, for every file it opens' },
  // What a desktop session and systemd run at every login from the user's configuration, and Emacs's XDG home.
  { parent: /^\.config$/u, pattern: /^(autostart|environment\.d|systemd|emacs)$/u, runBy: 'the desktop session, systemd or Emacs runs what it holds at every login or start' },
  { parent: /^hk$/u, pattern: /^config\.pkl$/u, runBy: "hk reads the user's configuration in it (~/.config/hk/config.pkl) for every project" },
  { parent: /^conda$/u, pattern: /^(de)?activate\.d$/u, runBy: "conda and editors' terminals source a conda environment's activation scripts" },
];

const PYVENV_CONFIG: ProtectedToolName = { name: 'pyvenv.cfg', runBy: 'it chooses the interpreter a virtual environment runs (editors start it when the folder is opened)' };

/**
 * The rule a name falls under, compared case-insensitively (case-insensitive volumes); undefined when none.
 * `parent` is the name of the directory that holds it (some names are protected only in some directories).
 */
export function protectedToolName(name: string, parent?: string): ProtectedToolName | undefined {
  const lower = name.toLowerCase();
  if (lower === PYVENV_CONFIG.name) return PYVENV_CONFIG;
  if (parent !== undefined) {
    const parentLower = parent.toLowerCase();
    const inDirectory = PROTECTED_IN_DIRECTORY.find((rule) => rule.parent.test(parentLower) && rule.pattern.test(lower));
    if (inDirectory !== undefined) return { name: lower, runBy: inDirectory.runBy };
  }
  const named = PROTECTED_TOOL_NAMES.find((rule) => rule.name === lower) ?? PROTECTED_OTHER_NAMES.find((rule) => rule.name === lower);
  if (named !== undefined) return named;
  const family = PROTECTED_PATTERNS.find((rule) => rule.pattern.test(lower));
  if (family !== undefined) return { name: lower, runBy: family.runBy };
  return PROTECTED_SUFFIXES.find((rule) => lower.length > rule.name.length && lower.endsWith(rule.name));
}

function isInside(path: string, root: string): boolean {
  return root === '/' || path === root || (path.startsWith(root) && path.charCodeAt(root.length) === 0x2f);
}

export interface ProtectedToolMatch {
  /** The path up to and including the protected component ("/ws/sub/.vscode"). */
  readonly entry: string;
  readonly rule: ProtectedToolName;
}

/**
 * The first protected component of `absolute` that no write scope grants, or
 * undefined. A write scope grants a protected entry only by naming it or a path
 * inside it: "${workspace}/.vscode/settings.json" grants that file,
 * "${workspace}" grants none of them.
 */
export function ungrantedToolFile(absolute: string, writeRoots: readonly string[]): ProtectedToolMatch | undefined {
  // The most specific write scope that holds the path: the deeper, the more it names explicitly.
  const root = writeRoots.filter((r) => isInside(absolute, r)).sort((a, b) => b.length - a.length)[0];
  const components = absolute.split('/');
  for (let index = 1; index < components.length; index++) {
    const rule = protectedToolName(components[index]!, index > 1 ? components[index - 1] : undefined);
    if (rule === undefined) continue;
    const entry = components.slice(0, index + 1).join('/');
    if (root !== undefined && isInside(root, entry)) continue; // the scope names this entry or lies inside it
    return { entry, rule };
  }
  return undefined;
}

/** Write scopes that name a protected tool file or lie inside one: explicit grants, which consent shows on a line of their own. */
export function grantedToolFiles(writeRoots: readonly string[]): { readonly root: string; readonly rule: ProtectedToolName }[] {
  return writeRoots.flatMap((root) => {
    const components = root.split('/');
    const rule = components.map((name, index) => protectedToolName(name, index > 1 ? components[index - 1] : undefined)).find((found) => found !== undefined);
    return rule === undefined ? [] : [{ root, rule }];
  });
}

/** A path a repository's git configuration makes git execute or read as configuration (computed by the host). */
export interface ControlLocation {
  /** Absolute; canonical where it resolves. */
  readonly path: string;
  /** True when everything below `path` is covered too (a hooks directory). */
  readonly tree: boolean;
  /** Why, naming the config file and line: "core.hooksPath (set in /ws/.git/config line 7); the user's git runs files there". */
  readonly reason: string;
  /** When set, not `path` itself but its top-level module entries Python imports by these names (a sys.path[0]). */
  readonly modules?: ModuleEntries;
  /** A link protected as the link it is, not what it leads to (whose files are protected on their own: node-linked-packages.ts). */
  readonly asLink?: true;
}

/**
 * The module names a directory on Python's path must not gain or change (lower case): NAME.py and NAME/__init__.py for
 * each of `names` (a directory without __init__.py is a namespace portion, which loses to a regular module on a later
 * path entry), and the directory NAME/ whole for each of `packages` (a regular package there now, whose submodules
 * are imported from it, or a name installed as a namespace package, which a portion here joins ahead of it).
 */
export interface ModuleEntries {
  readonly names: ReadonlySet<string>;
  readonly packages: ReadonlySet<string>;
}

/** The name a top-level entry of a directory on Python's path is imported by (lower case): NAME.py and NAME are NAME. */
export function moduleEntryName(entry: string): string {
  const lower = entry.toLowerCase();
  return lower.endsWith('.py') ? lower.slice(0, -3) : lower;
}

/** A name Python can import a module by (an identifier): `my-tool.py` or `notes.v2.py` is imported by none. */
export function isImportableName(name: string): boolean {
  return /^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*$/u.test(name);
}

/**
 * Whether `lower` (lower case, absolute) is one of the module entries `modules` protects in the directory `at`: a module
 * file or a package's __init__.py of ANY importable name (installed code also imports names that are not installed,
 * in a `try` — requests tries chardet — so no list of names is the closed world), the entries of `names`, and the
 * packages of `packages` whole. O(1) per path.
 */
function isModuleEntry(lower: string, at: string, modules: ModuleEntries): boolean {
  if (!lower.startsWith(`${at}/`)) return false;
  const rest = lower.slice(at.length + 1);
  const slash = rest.indexOf('/');
  if (slash === -1) return modules.names.has(moduleEntryName(rest)) || (rest.endsWith('.py') && isImportableName(rest.slice(0, -3)));
  const first = rest.slice(0, slash);
  if (rest.slice(slash + 1) === '__init__.py') return isImportableName(first);
  return modules.names.has(first) && modules.packages.has(first);
}

/** What the gate knows about control locations for one decision: the list, or why it could not be computed. */
export type ControlLocations = { readonly locations: readonly ControlLocation[] } | { readonly unavailable: string };

/** The control location `absolute` falls in, compared case-insensitively (more denials, never fewer); undefined when none. */
export function findControlLocation(absolute: string, locations: readonly ControlLocation[]): ControlLocation | undefined {
  const lower = absolute.toLowerCase();
  return locations.find((location) => {
    const at = location.path.toLowerCase();
    if (location.modules !== undefined) return isModuleEntry(lower, at, location.modules);
    return lower === at || (location.tree && isInside(lower, at));
  });
}
