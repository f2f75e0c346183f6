// What an interpreter runs besides the words written (s33d review): `python3 -m
// tools.fsmon` runs tools/fsmon.py (and the package files on the way), `python3
// tools` runs tools/__main__.py, `node tools` tools/index.js or what
// tools/package.json names, `perl -Itools -MFsmon` puts tools/ on @INC. Read by each
// interpreter's grammar, so that a protected command's module or directory counts as
// the file it runs. Pure, no I/O: names are relative as written.

import { computedRuns, literalPathNames, type ProgramLanguage } from './inline-program-runs.js';
import { typescriptCandidates } from './typescript-resolution.js';

/** A file (or, `tree`, a directory whole) that a command runs, named by the grammar rather than written out. */
export interface InterpreterName {
  readonly text: string;
  readonly tree: boolean;
}

/** What a command runs: the names its grammar implies, and the index of its script operand (run as a program), if any. */
export interface InterpreterReading {
  readonly names: readonly InterpreterName[];
  readonly operand: number | undefined;
  /** An inline program's calls that run a file or command it only computes (inline-program-runs.ts): unresolved. */
  readonly computed?: readonly string[];
}

const PYTHON = /^(python|pypy)([0-9]+(\.[0-9]+)*)?$/u;
const NODE = /^(node|nodejs|bun|deno|tsx|ts-node)$/u;
const PERL_RUBY = /^(perl|ruby)([0-9]+(\.[0-9]+)*)?$/u;
/** Shells whose first operand is a script they read and run. */
const SCRIPT_SHELLS = /^(sh|bash|dash|zsh|ksh|mksh|ash)$/u;
/** Python's options that take the next word as their value (-W default, -X dev). */
const PYTHON_VALUED = new Set(['-W', '-X', '--check-hash-based-pycs']);
const NODE_VALUED = new Set(['-r', '--require', '--import', '--loader', '--experimental-loader', '--env-file', '-C', '--conditions', '--title', '--input-type']);
/** Files node runs for a directory it is given: its package.json's main (read by the caller where it exists) or index.*. */
const NODE_DIRECTORY_ENTRIES = ['package.json', 'index.js', 'index.mjs', 'index.cjs', 'index.json', 'index.node'];
/**
 * What an interpreter's operand runs: the file, or a directory's entry file and whatever that loads beside it (node's
 * package.json main, a package's siblings): the operand whole. The directory the command runs in (`node .`) is not
 * protected whole (every write would be refused): its entry files are.
 */
function operandNames(word: string, entries: readonly string[], extensions: readonly string[] = []): InterpreterName[] {
  if (/^\.{1,2}\/?$/u.test(word)) return entries.map((entry) => file(`${word.replace(/\/$/u, '')}/${entry}`));
  return [{ text: word, tree: true }, ...extensions.map((extension) => file(`${word}${extension}`))];
}

/** The extensions node tries for a name written without one (`node tools/check` loads tools/check.js). */
const NODE_EXTENSIONS = ['.js', '.mjs', '.cjs', '.json', '.node'];

/**
 * What node loads for a module a -r/--import names: a relative one as a file (or a package's folder), and what the
 * TypeScript runners load for it (helpers.ts for ./helpers and ./helpers.js); a bare one is a package.
 */
function nodeModuleNames(specifier: string): InterpreterName[] {
  return /^\.{0,2}\//u.test(specifier) ? [...operandNames(specifier, NODE_DIRECTORY_ENTRIES, NODE_EXTENSIONS), ...typescriptCandidates(specifier).map(file)] : [];
}

/**
 * What a program's text runs from the directory it starts in: the modules Python code imports, the relative modules
 * JavaScript requires or imports, the directories Perl's `use lib` adds. For -c/-e programs and here-documents.
 */
export function codeNames(code: string): InterpreterName[] {
  const names = importedModules(code).flatMap(moduleFiles);
  // Modules imported by a name written out (importlib.import_module("tools.x"), __import__("x")) and Ruby's
  // require_relative/load of a file written without its extension.
  for (const match of code.matchAll(/\b(?:import_module|__import__)\s*\(\s*["']([A-Za-z_][\w.]*)["']/gu)) names.push(...moduleFiles(match[1]!));
  for (const match of code.matchAll(/\b(?:require_relative|load)\s*\(?\s*["']([^"'#$\n]+)["']/gu)) names.push(file(match[1]!), file(`${match[1]!}.rb`));
  for (const match of code.matchAll(/(?:require\s*\(\s*|import\s*\(\s*|from\s+|import\s+)["'`](\.{1,2}\/[^"'`]*)["'`]/gu)) names.push(...nodeModuleNames(match[1]!));
  // Files a program runs by name: Perl's `do "FILE"` and `require "FILE"`, Python's runpy.run_path, execfile, and the
  // open() of a program file whose text it execs (`exec(open("x.py").read())`); runpy.run_module's module.
  // (JavaScript's require("./x") is read above, with node's resolution.)
  for (const match of code.matchAll(/\b(?:do|require)\s*\(?\s*["']([^"'$@\n]+)["']|\b(?:run_path|execfile)\s*\(\s*["']([^"'\n]+)["']|\bopen\s*\(\s*["']([^"'\n]+\.(?:py|pl|pm|rb|[cm]?js|sh))["']/gu))
    if (!names.some((name) => name.text === (match[1] ?? match[2] ?? match[3]))) names.push(file(match[1] ?? match[2] ?? match[3]!));
  for (const match of code.matchAll(/\brun_module\s*\(\s*["']([A-Za-z_][\w.]*)["']/gu)) names.push(...moduleFiles(match[1]!));
  for (const match of code.matchAll(/\buse\s+lib\s+(?:qw\s*[(/]\s*([^)/]*)[)/]|["']([^"']+)["'])/gu))
    for (const directory of (match[1] ?? match[2] ?? '').split(/\s+/u)) if (directory !== '') names.push({ text: directory, tree: true });
  return names;
}

/** A dotted module name as `-m` takes it. */
const MODULE = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/u;

const file = (text: string): InterpreterName => ({ text, tree: false });

/** The language an interpreter's program file name says (python3.12, nodejs, perl5.36), if it is one. */
export function programLanguage(program: string): ProgramLanguage | undefined {
  if (PYTHON.test(program)) return 'python';
  if (NODE.test(program)) return 'node';
  if (PERL_RUBY.test(program)) return program.startsWith('perl') ? 'perl' : 'ruby';
  return undefined;
}

/**
 * What an inline program (-c, -e, a here-document) runs from the directory it starts in: what its grammar names, every
 * path its string literals name (a command line it runs, `os.system("sh tools/x.sh")`), and its calls that run a file
 * or command it only computes.
 */
export function inlineProgram(names: readonly InterpreterName[], code: string, language: ProgramLanguage | undefined): InterpreterReading {
  const named = codeNames(code);
  for (const literal of literalPathNames(code, language)) if (!named.some((name) => name.text === literal)) named.push(file(literal));
  return { names: [...names, ...named], operand: undefined, computed: computedRuns(code, language) };
}

/**
 * The files Python runs to start module `name` from a directory on its path: every prefix's `P.py` and
 * `P/__init__.py` (a plain module beside a namespace package wins the import, a package's __init__ runs first), the
 * module's own `.py` and its `__main__.py`, and the module's directory whole (a package there wins over the `.py`).
 */
export function moduleFiles(name: string): InterpreterName[] {
  const parts = name.split('.');
  const names: InterpreterName[] = [];
  for (let length = 1; length <= parts.length; length++) {
    const prefix = parts.slice(0, length).join('/');
    names.push(file(`${prefix}.py`), file(`${prefix}/__init__.py`));
  }
  const own = parts.join('/');
  names.push(file(`${own}/__main__.py`), { text: own, tree: true });
  return names;
}

/** The modules a `-c` program imports (`import a.b`, `from a.b import c`): what it runs from the directory it starts in. */
function importedModules(code: string): string[] {
  const modules: string[] = [];
  for (const match of code.matchAll(/(?:^|[;\n])\s*(?:from\s+([A-Za-z_][\w.]*)\s+import|import\s+([A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*))/gu)) {
    for (const name of (match[1] ?? match[2] ?? '').split(',')) if (MODULE.test(name.trim())) modules.push(name.trim());
  }
  return modules;
}

function readPython(args: readonly string[]): InterpreterReading {
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (PYTHON_VALUED.has(word)) {
      i++;
      continue;
    }
    // -m MOD, -mMOD, and -m last in a group of flags (-Bm MOD): the module runs; the rest are its arguments.
    const module = /^-[bBdEhiIOPqsSuvx]*m(.*)$/u.exec(word);
    if (module !== null) {
      const name = module[1] === '' ? args[i + 1] : module[1];
      return { names: name !== undefined && MODULE.test(name) ? moduleFiles(name) : [], operand: undefined };
    }
    if (/^-[bBdEhiIOPqsSuvx]*c(.*)$/u.test(word)) {
      const code = /^-[a-zA-Z]*c(.+)$/u.exec(word)?.[1] ?? args[i + 1] ?? '';
      return inlineProgram([], code, 'python');
    }
    if (word === '-' || word === '--') return { names: [], operand: word === '--' && i + 1 < args.length ? i + 1 : undefined };
    if (word.startsWith('-')) continue;
    // The script, or a directory (or zip) whose __main__.py runs, importing its siblings: the whole operand.
    return { names: operandNames(word, ['__main__.py']), operand: i };
  }
  return { names: [], operand: undefined };
}

function readNode(program: string, args: readonly string[]): InterpreterReading {
  const names: InterpreterName[] = [];
  let i = 0;
  // deno and bun take a subcommand first: `deno run X`, `bun run X`.
  if ((program === 'deno' || program === 'bun') && /^(run|x)$/u.test(args[0] ?? '')) i = 1;
  for (; i < args.length; i++) {
    const word = args[i]!;
    // -r ./setup, --import=./hooks.mjs: a module node loads before the program.
    const valued = /^(-r|--require|--import|--loader|--experimental-loader)(?:=(.*))?$/u.exec(word);
    if (valued !== null) names.push(...nodeModuleNames(valued[2] ?? args[i + 1] ?? ''));
    if (NODE_VALUED.has(word)) {
      i++;
      continue;
    }
    if (/^(-e|--eval|-p|--print)$/u.test(word)) return inlineProgram(names, args[i + 1] ?? '', 'node');
    if (word === '--') return { names, operand: i + 1 < args.length ? i + 1 : undefined };
    if (word.startsWith('-')) continue;
    return { names: [...names, ...operandNames(word, NODE_DIRECTORY_ENTRIES, NODE_EXTENSIONS), ...typescriptCandidates(word).map(file)], operand: i };
  }
  return { names, operand: undefined };
}

function readPerlOrRuby(language: ProgramLanguage, args: readonly string[]): InterpreterReading {
  const names: InterpreterName[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    // -I DIR, -IDIR: a directory on the library path, whose every file may be what a -M/-r or a `use` loads.
    if (word === '-I' && args[i + 1] !== undefined) names.push({ text: args[++i]!, tree: true });
    else if (word.startsWith('-I') && word.length > 2) names.push({ text: word.slice(2), tree: true });
    // -Mlib=DIR,DIR and -Mlocal::lib=DIR: directories on the library path.
    else if (/^-M-?(lib|local::lib)=/u.test(word)) for (const directory of word.slice(word.indexOf('=') + 1).split(',')) names.push({ text: directory, tree: true });
    // ruby -r ./x: a file it loads first (x.rb).
    else if (word === '-r' && /^\.{0,2}\//u.test(args[i + 1] ?? '')) names.push(file(args[++i]!), file(`${args[i]!}.rb`));
    else if (/^-[a-zA-Z]*e$/u.test(word) || word === '-E') return inlineProgram(names, args[i + 1] ?? '', language);
    else if (word === '--') return { names, operand: i + 1 < args.length ? i + 1 : undefined };
    else if (!word.startsWith('-')) return { names, operand: i };
  }
  return { names, operand: undefined };
}

function readShell(args: readonly string[]): InterpreterReading {
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (/^-[a-z]*c[a-z]*$/u.test(word) || word === '-s') return { names: [], operand: undefined };
    if (word === '-o' || word === '+o') {
      i++;
      continue;
    }
    if (word === '--') return { names: [], operand: i + 1 < args.length ? i + 1 : undefined };
    if (!/^[-+]/u.test(word)) return { names: [], operand: i };
  }
  return { names: [], operand: undefined };
}

/**
 * What `words` (a command: program first, quotes removed) runs by the grammar of its interpreter. `program` is the
 * program's file name (a path's last part). Unknown programs imply nothing.
 */
export function interpreterReading(program: string, args: readonly string[]): InterpreterReading {
  if (PYTHON.test(program)) return readPython(args);
  if (NODE.test(program)) return readNode(program, args);
  if (PERL_RUBY.test(program)) return readPerlOrRuby(programLanguage(program)!, args);
  if (SCRIPT_SHELLS.test(program)) return readShell(args);
  if (program === '.' || program === 'source') return { names: [], operand: args.length > 0 ? 0 : undefined };
  // run-parts DIR runs every file in DIR.
  if (program === 'run-parts') {
    const directory = args.findIndex((arg) => !arg.startsWith('-'));
    return { names: directory === -1 ? [] : [{ text: args[directory]!, tree: true }], operand: undefined };
  }
  return { names: [], operand: undefined };
}
