// What the protected startup files of editors, debuggers and REPLs load (`.exrc` `source x.vim`, `.gdbinit` `source
// x.py`, renv's `.Rprofile` `source("renv/activate.R")`, `.pryrc` `require_relative`, ...): each file's own loading
// directives, by its language, with the file a literal names and the language that file is read in turn as. Closed
// world: a directive whose target is computed (a variable, an expression, a glob) is unresolved, never "nothing".
// tool-file-references.ts protects what is named, reads every startup file as words too, and follows each name here
// in its language (startupNamed reads the file; the rest is pure reading of text).
import os from 'node:os';
import path from 'node:path';
import { OVERSIZED, readSmallFile } from './git-inventory.js';
import type { ProgramLanguage } from './inline-program-runs.js';
import { CLIMB_REASON, climbsOutOfName } from './lexical-climb.js';
import { shellSourcedNames } from './shell-startup-sources.js';
import { plainWord } from './tool-file-words.js';

/** The language a startup file is read in: what its tool treats as loading another file. */
export type StartupLanguage = 'shell' | 'vim' | 'lua' | 'gdb' | 'lldb' | 'r' | 'renviron' | 'ruby' | 'ghci' | 'ocaml' | 'elixir' | 'elisp' | 'pdb' | 'perl' | 'octave';

/** The startup files on the protected list (protected-files.ts) that are read here, by lower-case name. */
const STARTUP_FILES: Readonly<Record<string, StartupLanguage>> = {
  // The shells' own (and the X session's, run by sh): what they source is read by shell-startup-sources.ts.
  ...Object.fromEntries(
    [
      ...['.bashrc', '.bash_profile', '.bash_login', '.bash_logout', '.profile', '.zshrc', '.zshenv', '.zprofile', '.zlogin', '.zlogout', '.kshrc', '.mkshrc'],
      ...['.cshrc', '.tcshrc', '.login', '.logout', 'config.fish', '.xprofile', '.xinitrc', '.xsession', '.xsessionrc'],
    ].map((name) => [name, 'shell' as const]),
  ),
  '.exrc': 'vim',
  _exrc: 'vim',
  '.vimrc': 'vim',
  _vimrc: 'vim',
  '.gvimrc': 'vim',
  _gvimrc: 'vim',
  '.nvimrc': 'vim',
  '.nvim.lua': 'lua',
  '.lazy.lua': 'lua',
  '.gdbinit': 'gdb',
  '.gdbearlyinit': 'gdb',
  '.lldbinit': 'lldb',
  '.pdbrc': 'pdb',
  '.perldb': 'perl',
  '.pryrc': 'ruby',
  '.irbrc': 'ruby',
  '.rprofile': 'r',
  '.renviron': 'renviron',
  '.octaverc': 'octave',
  '.ghci': 'ghci',
  '.ocamlinit': 'ocaml',
  '.iex.exs': 'elixir',
  '.dir-locals.el': 'elisp',
  '.dir-locals-2.el': 'elisp',
};

/** The language a protected startup file is read in, by its name; undefined for any other file. */
export function startupLanguage(name: string): StartupLanguage | undefined {
  return Object.hasOwn(STARTUP_FILES, name.toLowerCase()) ? STARTUP_FILES[name.toLowerCase()] : undefined;
}

/**
 * What a name a directive gives is read as: a startup file of a language (followed to the end of the chain), program
 * code of an interpreter zotbox reads (python, ruby, perl: their own readers), a directory put on a search path
 * (protected whole), or a file loaded as compiled code (protected, nothing to read).
 */
export type StartupLoad = { readonly startup: StartupLanguage } | { readonly program: ProgramLanguage } | { readonly tree: true } | { readonly file: true };

/** One name a startup file loads: absolute, or relative to where the tool starts (the startup file's directory). */
export interface StartupName {
  readonly name: string;
  readonly load: StartupLoad;
  /** The line (0-based) that names it. */
  readonly index: number;
}

/** Where a directive's argument is: call style (`source("x")`, a quoted literal) or command style (`source x`, the rest of the line). */
type Style = 'quoted' | 'bare';

interface Directive {
  /** Matches up to the argument (global; `m` for directives at a line's start). */
  readonly at: RegExp;
  readonly style: Style;
  /** What the target is read as, from its name. */
  readonly load: (target: string) => StartupLoad;
  /** `file`: relative to the file that says it (ruby's require_relative); else to where the tool starts. */
  readonly from?: 'file';
  /** Names it may stand for (a module name's files); the target itself when absent. */
  readonly names?: (target: string) => string[];
  /** Pieces that name no file of the project (gdb's `$cdir` and `$cwd` in its source path). */
  readonly skip?: RegExp;
}

const as = (startup: StartupLanguage) => (): StartupLoad => ({ startup });
const program = (language: ProgramLanguage) => (): StartupLoad => ({ program: language });
const tree = (): StartupLoad => ({ tree: true });
/** vim's `:source` runs a `.lua` file as Lua (Vim 9 and Neovim) and anything else as Vim script. */
const vimOrLua = (target: string): StartupLoad => ({ startup: /\.lua$/iu.test(target) ? 'lua' : 'vim' });
const withSuffix = (suffix: string) => (target: string) => [path.extname(target) === '' ? `${target}${suffix}` : target];
/** Lua's `require("a.b")`: ./a/b.lua and ./a/b/init.lua (package.path's ./?.lua), and lua/a/b[.lua|/init.lua] on Neovim's runtimepath ("."). */
const luaModule = (target: string) => {
  const file = target.replace(/\./gu, '/');
  return [`${file}.lua`, `${file}/init.lua`, `lua/${file}.lua`, `lua/${file}/init.lua`];
};

/** Python code a startup file runs (gdb's `python`, lldb's `script`, pdb's lines): what it executes by name, or puts on sys.path. */
const PYTHON_LOADS: readonly Directive[] = [
  { at: /\bexec\s*\(\s*open\s*\(/gu, style: 'quoted', load: program('python') },
  { at: /\bexecfile\s*\(/gu, style: 'quoted', load: program('python') },
  { at: /\bsys\.path\.(?:insert\s*\(\s*-?\d+\s*,|append\s*\()/gu, style: 'quoted', load: tree },
  { at: /\brunpy\.run_path\s*\(/gu, style: 'quoted', load: program('python') },
];

/** Python constructs that load code by a computed name: unresolved unless PYTHON_LOADS read them whole. */
const PYTHON_COMPUTED = /\b(exec|execfile|eval|compile|__import__|importlib|runpy|sys\.path)\b/u;

const VIM_SET_PATHS = /^\s*:*\s*(?:set?|setg(?:lobal)?|let\s+&)\s*(?:rtp|runtimepath|pp|packpath)\s*[-+^]?=\s*/gmu;

const DIRECTIVES: Readonly<Record<StartupLanguage, readonly Directive[]>> = {
  // Read by the shell's lexer instead (startupSources).
  shell: [],
  vim: [
    { at: /^\s*:*\s*so(?:u(?:r(?:c(?:e)?)?)?)?!?[ \t]+/gmu, style: 'bare', load: vimOrLua },
    { at: /^\s*:*\s*luaf(?:i(?:l(?:e)?)?)?[ \t]+/gmu, style: 'bare', load: as('lua') },
    { at: /^\s*:*\s*(?:py3?f(?:i(?:l(?:e)?)?)?|pyxf(?:i(?:l(?:e)?)?)?)[ \t]+/gmu, style: 'bare', load: program('python') },
    { at: /^\s*:*\s*rubyf(?:i(?:l(?:e)?)?)?[ \t]+/gmu, style: 'bare', load: program('ruby') },
    { at: VIM_SET_PATHS, style: 'bare', load: tree },
  ],
  lua: [
    { at: /\b(?:dofile|loadfile)\s*\(?/gu, style: 'quoted', load: as('lua') },
    { at: /\brequire\s*\(?/gu, style: 'quoted', load: as('lua'), names: luaModule },
    { at: /\bvim\.cmd\.so(?:urce)?\s*\(?/gu, style: 'quoted', load: vimOrLua },
    { at: /\bvim\.opt\.(?:rtp|runtimepath|pp|packpath)\s*:\s*(?:append|prepend)\s*\(?/gu, style: 'quoted', load: tree },
    // lazy.nvim's local plugin spec: `{ dir = "tools/nvim" }` loads the plugin in that directory.
    { at: /\bdir\s*=\s*/gu, style: 'quoted', load: tree },
  ],
  gdb: [
    { at: /^\s*so(?:u(?:r(?:c(?:e)?)?)?)?(?:[ \t]+-[sv])*[ \t]+/gmu, style: 'bare', load: (target) => (/\.py$/iu.test(target) ? { program: 'python' } : { startup: 'gdb' }) },
    // `source NAME` searches the source path for a name it does not find where gdb starts: each directory on it, whole.
    { at: /^\s*(?:dir(?:e(?:c(?:t(?:o(?:r(?:y)?)?)?)?)?)?|set[ \t]+directories)[ \t]+/gmu, style: 'bare', load: tree, skip: /^\$c(?:dir|wd)$/u },
    ...PYTHON_LOADS,
  ],
  lldb: [
    { at: /^\s*command\s+source(?:[ \t]+-[a-zA-Z](?:[ \t]+(?:true|false|1|0))?)*[ \t]+/gmu, style: 'bare', load: as('lldb') },
    { at: /^\s*command\s+script\s+import(?:[ \t]+-[a-z])*[ \t]+/gmu, style: 'bare', load: program('python') },
    ...PYTHON_LOADS,
  ],
  pdb: PYTHON_LOADS,
  r: [{ at: /\b(?:sys\.)?source\s*\(\s*(?:file\s*=\s*)?/gu, style: 'quoted', load: as('r') }],
  // R_PROFILE_USER names the profile R runs in place of the .Rprofile; R_LIBS* the libraries library() loads from.
  renviron: [
    { at: /^\s*R_PROFILE(?:_USER)?\s*=\s*/gmu, style: 'bare', load: as('r') },
    { at: /^\s*R_LIBS(?:_USER|_SITE)?\s*=\s*/gmu, style: 'bare', load: tree },
  ],
  ruby: [
    { at: /\brequire_relative\s*\(?/gu, style: 'quoted', load: program('ruby'), from: 'file', names: withSuffix('.rb') },
    { at: /\bload\s*\(?/gu, style: 'quoted', load: program('ruby') },
    // `require "./lib/x"` loads from where the REPL starts (a bare name is a gem, on $LOAD_PATH: read below).
    { at: /\brequire\s*\(?(?=\s*["']\.{1,2}\/)/gu, style: 'quoted', load: program('ruby'), names: withSuffix('.rb') },
    { at: /(?:\$LOAD_PATH|\$:)\s*(?:<<|\.(?:unshift|push|prepend|append|concat)\s*\(?)\s*/gu, style: 'quoted', load: tree },
  ],
  ghci: [
    { at: /^\s*:scr(?:i(?:p(?:t)?)?)?[ \t]+/gmu, style: 'bare', load: as('ghci') },
    { at: /^\s*:set[ \t]+-i/gmu, style: 'bare', load: tree },
  ],
  ocaml: [
    { at: /^\s*#(?:use|mod_use)[ \t]+/gmu, style: 'quoted', load: as('ocaml') },
    { at: /^\s*#load(?:_rec)?[ \t]+/gmu, style: 'quoted', load: () => ({ file: true }) },
    { at: /^\s*#directory[ \t]+/gmu, style: 'quoted', load: tree },
  ],
  elixir: [{ at: /\b(?:import_file(?:_if_available)?|Code\.(?:require_file|eval_file|compile_file|load_file))\s*\(?/gu, style: 'quoted', load: as('elixir') }],
  elisp: [{ at: /\((?:load|load-file)\s+/gu, style: 'quoted', load: as('elisp') }],
  perl: [
    { at: /\b(?:do|require)\s*\(?(?=\s*["'$])/gu, style: 'quoted', load: program('perl') },
    { at: /\buse\s+lib\s+/gu, style: 'quoted', load: tree },
  ],
  octave: [
    { at: /\b(?:source|run)\s*\(/gu, style: 'quoted', load: as('octave') },
    { at: /^\s*(?:source|run)[ \t]+(?!\()/gmu, style: 'bare', load: as('octave') },
    { at: /\baddpath\s*\(/gu, style: 'quoted', load: tree },
  ],
};

/**
 * Constructs that load code by a name zotbox does not read here: unresolved wherever they stand (vim's `execute` of
 * a loading command, Lua's `load`/`loadstring` and `vim.cmd` of a string, GHCi's `:def`/`:cmd` macros, R's `eval`
 * of parsed text). The language's own computed loads (a non-literal `source(x)`) are
 * unresolved where DIRECTIVES find them.
 */
const COMPUTED: Partial<Readonly<Record<StartupLanguage, RegExp>>> = {
  // A runtime path changed in any way but one `set rtp+=DIR` line (`let &rtp .= …`, after `|` or `silent`): not read.
  vim: /^\s*:*\s*(?:exe(?:c(?:u(?:t(?:e)?)?)?)?\b.*\b(?:so|sou|sour|sourc|source|ru|runtime|luafile|py3?file|pyxfile|rubyfile)\b|(?:py3?|python3?|pyx|ruby|perl)\b.*(?:<<|\b(?:dofile|loadfile|require|load|exec|import|open)\b))|^(?!\s*:*\s*(?:set?|setg(?:lobal)?|let\s+&)\s*(?:rtp|runtimepath|pp|packpath)\s*[-+^]?=[^|\n]*$).*(?:&(?:rtp|runtimepath|pp|packpath)\b|\b(?:rtp|runtimepath|pp|packpath)\s*[-+^.]?=)/mu,
  lua: /(?<![.:])\b(?:loadstring|load)\s*\(|\bvim\.cmd\s*\(?\s*[^\s"'[(.]|\bvim\.api\.nvim_(?:command|exec2?)\b|\bpackage\.c?path\b|\bvim\.o(?:pt)?\.(?:rtp|runtimepath|pp|packpath)\s*=/u,
  // `:load`/`:add`/`:reload` compile a module and every module it imports from the search path (the start directory
  // included), whose Template Haskell runs: not one file zotbox can name.
  ghci: /^\s*:(?:def|cmd|l(?:o(?:a(?:d)?)?)?|ad(?:d)?|r(?:e(?:l(?:o(?:a(?:d)?)?)?)?)?)!?(?![\w-])/mu,
  // `source -s` searches the source path, `$cdir` (each program's compilation directory) included.
  gdb: /^\s*so(?:u(?:r(?:c(?:e)?)?)?)?(?:[ \t]+-v)*[ \t]+-s\b/mu,
  // `source(x, chdir = TRUE)` (a partial name, `ch = 1`, a variable) runs x from its own directory: the names it gives
  // are not from where R starts. Only a plain FALSE keeps it.
  r: /\b(?:eval\s*\(\s*parse|sys\.source\s*\(\s*(?!["']|file\s*=\s*["']))|\b(?:sys\.)?source\s*\([^)]*\bch\w*\s*=\s*(?!(?:FALSE|F|0)\s*[,)])/u,
};

/** Python's (gdb's, lldb's, pdb's), and every language's own way to change the working directory. */
// Any `chdir` or `fchdir` name (`from os import chdir`, `o.chdir`, `posix.chdir`), and a debugger command run from its
// Python (`gdb.execute("cd …")`, lldb's `HandleCommand`, `vim.command`), which may be a `cd`.
// Python reaches a function by a name it computes (`getattr(os, "ch" + "dir")`, `os.__getattribute__(…)`,
// `os.__dict__[…]`, `vars(os)[…]`, `globals()`, `sys.modules[…]`, ctypes, operator's getters): each may be a chdir too.
const PYTHON_CHDIR =
  /\bf?chdir\b|\bgdb\s*\.\s*execute\b|\bHandleCommand\b|\bvim\s*\.\s*command\b|\b(?:getattr|vars|globals|locals)\s*\(|__dict__|__builtins__|__getattribute__|__getattr__|\bctypes\b|\boperator\s*\.\s*(?:methodcaller|attrgetter)\b|\bsys\s*\.\s*modules\b|\b(?:execute|inspect|pydoc|pkgutil)\b|\bdir\s*\(/u;
/**
 * The Python a gdb line may hold that zotbox reads whole (DIRECTIVES): plain imports, `exec(open("FILE").read())`,
 * `sys.path.insert(N, "DIR")` and `.append("DIR")`, `;`-separated. Any other Python (a block, an alias, reflection) may
 * reach chdir or gdb.execute in more ways than zotbox can list.
 */
const GDB_PYTHON_STATEMENT = String.raw`(?:import\s+[\w.]+(?:\s*,\s*[\w.]+)*|exec\s*\(\s*open\s*\(\s*["'][^"'\n]+["']\s*\)\s*\.\s*read\s*\(\s*\)\s*\)|sys\s*\.\s*path\s*\.\s*(?:insert\s*\(\s*-?\d+\s*,\s*["'][^"'\n]+["']\s*\)|append\s*\(\s*["'][^"'\n]+["']\s*\)))`;
const GDB_PYTHON_READ = String.raw`${GDB_PYTHON_STATEMENT}(?:\s*;\s*${GDB_PYTHON_STATEMENT})*\s*;?`;
const CHANGES_DIRECTORY: Partial<Readonly<Record<StartupLanguage, RegExp>>> = {
  // A cd in any place on a line (after a modifier as `silent`, a `|`, inside an autocmd or a string `exe` runs), a
  // command run from a string or a function by its computed name (`exe`, and the functions that run a string, keys or
  // a function by name: `call(`, `funcref(`, `eval(`, `execute(`, `feedkeys(`, `luaeval(`…), and
  // `autochdir`, which moves to each file vim opens.
  vim: /(?:^|[\s:|"'!+])(?:cd|lcd|tcd|chd(?:i(?:r)?)?|lch(?:d(?:i(?:r)?)?)?|tch(?:d(?:i(?:r)?)?)?)!?(?:\s|$|["'\\])|\bchdir\s*\(|^\s*:*\s*(?:\w+\s+)*exe(?:c(?:u(?:t(?:e)?)?)?)?\b|\b(?:call|funcref|function|eval|execute|win_execute|feedkeys|timer_start|luaeval|py3?eval|pyxeval|rubyeval|perleval|libcall(?:nr)?)\s*\(|\b(?:autochdir|acd)\b|(?:^|[\s:|])norm(?:a(?:l)?)?!?\s|^\s*:*\s*(?:com(?:m(?:a(?:n(?:d)?)?)?)?!?\s|@)/u,
  lua: /\bvim\s*\.\s*(?:fn\s*\.\s*chdir|cmd\s*\.\s*[lt]?cd|api\s*\.\s*nvim_set_current_dir)\b|\blfs\s*\.\s*chdir\b/u,
  // Any Python (it reaches chdir and gdb.execute in more ways than zotbox can list: inspect, pydoc, an import alias);
  // a user command's `$argN` (gdb pastes the argument into the text: `$arg0d x` run as `go c` is `cd x`); `shell`, `!`
  // and `make`, which may write the file a later `source` reads;
  // a cd anywhere on a line (behind `with … --`, `pipe`, a user's `alias` of it, in `interpreter-exec console "cd x"`,
  // MI's `-environment-cd`), and the commands that run a command
  // gdb builds or names another way: `alias`, `eval` (a printf-built command), `with`, `pipe`/`|`, `frame`/`thread apply`
  // and their short forms, in any prefix gdb takes for them (`ev`, `ali`, `wit`, `interp`); `define`'s body lines are
  // lines too.
  gdb: new RegExp(
    String.raw`^\s*(?:py(?:t(?:h(?:o(?:n)?)?)?)?|pi|python-interactive)(?:\s*$|\s+(?!${GDB_PYTHON_READ}\s*$))|\$arg(?:c|\d)|^\s*(?:(?:she(?:l(?:l)?)?|make)(?:\s|$)|!)|(?:^|[\s|;"'-])cd(?:\s|$|["'])|^\s*(?:al(?:i(?:a(?:s)?)?)?|ev(?:a(?:l)?)?|w(?:i(?:t(?:h)?)?)?|pip(?:e)?|\||inte(?:r(?:p(?:r(?:e(?:t(?:e(?:r(?:-(?:e(?:x(?:e(?:c)?)?)?)?)?)?)?)?)?)?)?)?|(?:fr\w*|thr?\w*|t)\s+ap\w*|faas|taas|tfaas)(?:\s|$)`,
    'u',
  ),
  lldb: /^\s*platform\s+settings\b.*\s-w\b|^\s*script(?:\s|$)/u,
  r: /\bsetwd\s*\(/u,
  octave: /(?:^|[\s;,])(?:cd|chdir)(?:\s*\(|\s+\S)/u,
  ghci: /^\s*:cd\b/u,
  ruby: /\bDir\s*\.\s*chdir\b/u,
  perl: /\bchdir\b/u,
  elixir: /\bFile\s*\.\s*cd!?\b/u,
  elisp: /\(\s*cd\b|\bdefault-directory\b/u,
  ocaml: /^\s*#cd\b|\bSys\s*\.\s*chdir\b/u,
};

/**
 * Code of another startup language a file holds, read as that language: vim's `lua CODE` and `lua << EOF` blocks,
 * Neovim's `vim.cmd("…")`/`vim.cmd([[…]])` strings (a computed one is unresolved: COMPUTED).
 */
const EMBEDDED: Partial<Readonly<Record<StartupLanguage, readonly { readonly at: RegExp; readonly language: StartupLanguage }[]>>> = {
  vim: [
    { at: /^\s*:*\s*lua\s*<<\s*(?:trim\s+)?(\S*)[ \t]*\n([\s\S]*?)\n\s*(?:\1|\.)\s*$/gmu, language: 'lua' },
    { at: /^\s*:*\s*lua[ \t]+(?!<<)()(.*)$/gmu, language: 'lua' },
  ],
  lua: [{ at: /\bvim\.cmd\s*\(?\s*()(?:"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|\[\[([\s\S]*?)\]\])/gu, language: 'vim' }],
};

const VARIABLE_OR_GLOB = /[$%#<>`*?[{\\]|\bexpand\b/u;

/** A target as written, with `~/` the home directory; undefined when it is computed (a variable, an expression, a glob). */
function literalTarget(raw: string, home: string): string | undefined {
  const target = raw.replace(/^~(?=\/|$)/u, home);
  return target !== '' && !VARIABLE_OR_GLOB.test(target) && plainWord(target.startsWith('/') ? target.slice(1) : target) ? target : undefined;
}

/** A call-style argument: the quoted literal it starts with (Lua's [[...]] too), or undefined when it is anything else. */
function quotedArgument(rest: string): string | undefined {
  const match = /^\s*(?:"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|\[\[([\s\S]*?)\]\])\s*(?=[),;}\s]|$)/u.exec(rest);
  return match === null ? undefined : (match[1] ?? match[2] ?? match[3]!);
}

/** A command-style argument: the rest of the line, up to vim's `|` command separator; the pieces of a path list. */
function bareArguments(rest: string, load: StartupLoad): string[] {
  const line = rest
    .split('\n')[0]!
    .replace(/\s+\|.*$/u, '')
    .trim();
  const unquoted = line.replace(/^(["'])(.*)\1$/u, '$2');
  return 'tree' in load ? unquoted.split(/[,:\s]+/u).filter((piece) => piece !== '') : [unquoted];
}

/** `text` with its line continuations joined as gdb and vim join them, each line keeping its number. */
function joinedContinuations(text: string, language: StartupLanguage): string {
  // vim skips a comment continuation line (`"\ `, vim9's `#\ `) between a line and its `\` continuation.
  const continuation = language === 'gdb' ? /\\\n([^\n]*)/u : language === 'vim' ? /\n(?:[ \t]*["#]\\ [^\n]*\n)*[ \t]*\\([^\n]*)/u : undefined;
  if (continuation === undefined) return text;
  let joined = text;
  // Each joined line keeps its number: as many line ends as were taken are put after it.
  for (let match = continuation.exec(joined); match !== null; match = continuation.exec(joined))
    joined = `${joined.slice(0, match.index)}${match[1]!}${'\n'.repeat(match[0].split('\n').length - 1)}${joined.slice(match.index + match[0].length)}`;
  return joined;
}

/** What `text` (a startup file, or a file one loads, read as `language`) loads: names, and what cannot be read, unresolved. */
export function startupSources(
  text: string,
  language: StartupLanguage,
  context: { readonly file: string; readonly home: string },
  where: (index: number, what: string) => string,
  unresolved: string[],
): StartupName[] {
  if (language === 'shell')
    // A relative name is the shell's working directory's (where it starts), as every name of a chain here is.
    return shellSourcedNames(text, context.home, where, unresolved).map(({ name, index }) => ({ name, load: { startup: 'shell' as const }, index }));
  const names: StartupName[] = [];
  const lineOf = (offset: number) => text.slice(0, offset).split('\n').length - 1;
  // One reason per line: the first construct there that zotbox cannot read.
  const unread = new Map<number, string>();
  const refuse = (index: number, why: string) => {
    if (!unread.has(index)) unread.set(index, why);
  };
  // A line continuation joins lines before any rule reads them (gdb's trailing `\`, vim's leading `\` on the next
  // line: `c\` then `d x` is `cd x`); the joined line keeps the first one's number, an empty line stands for the next.
  text = joinedContinuations(text, language);
  const computed = COMPUTED[language];
  for (const [index, line] of text.split('\n').entries()) if (computed?.test(line) === true) refuse(index, ': it loads code by a name zotbox cannot work out, so any file could be what it runs');
  // A change of directory: what it loads after by a relative name is not from where the tool starts.
  for (const [index, line] of text.split('\n').entries())
    if (CHANGES_DIRECTORY[language]?.test(line) === true || PYTHON_CHDIR.test(line)) refuse(index, ': it changes directory, so the relative names it loads after are not from where the tool starts');
  const python = language === 'gdb' || language === 'lldb' || language === 'pdb';
  for (const { at, language: inner } of EMBEDDED[language] ?? [])
    for (const match of text.matchAll(at)) {
      const code = match[2] ?? match[3] ?? match[4] ?? '';
      const first = lineOf(match.index) + (match[0].slice(0, match[0].indexOf(code)).split('\n').length - 1);
      for (const name of startupSources(code, inner, context, (index, what) => where(first + index, what), unresolved)) names.push({ ...name, index: first + name.index });
    }
  for (const directive of DIRECTIVES[language]) {
    for (const match of text.matchAll(directive.at)) {
      const index = lineOf(match.index);
      const rest = text.slice(match.index + match[0].length);
      const quoted = directive.style === 'quoted' ? quotedArgument(rest) : undefined;
      const raws = directive.style === 'quoted' ? [quoted] : bareArguments(rest, directive.load(''));
      for (const raw of raws) {
        if (raw !== undefined && directive.skip?.test(raw) === true) continue;
        const target = raw === undefined ? undefined : literalTarget(raw, context.home);
        if (target === undefined) {
          refuse(index, ': it loads a file whose name is computed, and zotbox cannot work out which file that is');
          continue;
        }
        // The tool walks a `..` through the folder before it, which may become a link (lexical-climb.ts).
        if (climbsOutOfName(target)) {
          refuse(index, `: it loads ${JSON.stringify(target)}, and ${CLIMB_REASON}`);
          continue;
        }
        const load = directive.load(target);
        const at = directive.from === 'file' ? path.dirname(context.file) : '';
        for (const name of directive.names?.(target) ?? [target]) names.push({ name: path.isAbsolute(name) ? name : path.join(at, name), load, index });
      }
    }
  }
  // Octave runs a bare name as the function file NAME.m it finds first on its path, the start directory first.
  if (language === 'octave')
    for (const [index, line] of text.split('\n').entries())
      for (const match of line.replace(/%.*$|#.*$|(["'])(?:(?!\1).)*\1/gu, ' ').matchAll(/(?<![\w./])[A-Za-z]\w*(?![\w./])/gu))
        names.push({ name: `${match[0]}.m`, load: { startup: 'octave' }, index });
  // Python code loading by a computed name (`exec(code)`, `sys.path.insert(0, here)`): PYTHON_LOADS read only literals.
  if (python)
    for (const [index, line] of text.split('\n').entries())
      if (PYTHON_COMPUTED.test(line) && !names.some((name) => name.index === index)) refuse(index, ': its Python code loads code by a name zotbox cannot work out');
  for (const [index, why] of unread) unresolved.push(where(index, why));
  return names;
}

/**
 * Files a protected tool file makes another tool read, beside it: aider reads its options from a `.env` in the
 * directory of its `.aider.conf.yml` (the repository top, where it starts) as from the configuration itself
 * (`AIDER_LINT_CMD=…`, auto-lint on by default). A `.env` with no aider configuration beside it is not protected here.
 */
export function startupCompanions(entry: string): string[] {
  return path.basename(entry).toLowerCase() === '.aider.conf.yml' ? [path.join(path.dirname(entry), '.env')] : [];
}

/** A name as tool-file-references.ts reads it on (its `Named`): a startup file, program code, a search directory. */
export interface StartupNamed {
  readonly name: string;
  readonly as: 'words' | 'tree';
  readonly by: string;
  readonly runBy: string;
  readonly runs?: true;
  readonly language?: ProgramLanguage;
  readonly startup?: StartupLanguage;
}

/** What the startup file `file` (read as `language`) loads, for tool-file-references.ts; what it cannot read, unresolved. */
/** The startup language whose rules a program file the tool runs in its own process is read by. */
const IN_PROCESS: Partial<Readonly<Record<string, StartupLanguage>>> = { python: 'pdb', ruby: 'ruby' };

export function startupNamed(file: string, language: StartupLanguage, runBy: string, unresolved: string[], environment: Readonly<Record<string, string | undefined>>): StartupNamed[] {
  const text = readSmallFile(file);
  // Not there, unreadable or too large: readFile, which read it first, reported it.
  if (text === undefined || text === OVERSIZED) return [];
  const lines = text.split('\n');
  const where = (index: number, what: string) => {
    const line = (lines[index] ?? '').trim();
    return `${file} line ${index + 1} (${line.length > 80 ? `${line.slice(0, 77)}...` : line})${what}`;
  };
  const loads = `${runBy}; it loads what its ${language === 'renviron' ? 'settings name' : 'directives source'}`;
  return startupSources(text, language, { file, home: environment.HOME ?? os.homedir() }, where, unresolved).flatMap(({ name, load, index }): StartupNamed[] => {
    const by = where(index, '');
    if ('startup' in load) return [{ name, as: 'words', by, runBy: loads, startup: load.startup }];
    // A Python or Ruby file the tool runs in its own process (gdb's `source x.py`, vim's `py3file`): read as a program
    // (what it imports), and as a startup file of its language too, since a directory change in it moves the tool.
    const inProcess = 'program' in load && IN_PROCESS[load.program] !== undefined ? [{ name, as: 'words' as const, by, runBy: loads, startup: IN_PROCESS[load.program]! }] : [];
    if ('program' in load) return [{ name, as: 'words', by, runBy: loads, runs: true, language: load.program }, ...inProcess];
    return [{ name, as: 'tree' in load ? 'tree' : 'words', by, runBy: loads }];
  });
}
