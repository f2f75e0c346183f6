// What an interpreter runs besides the words written (s33d review): `python3 -m
// tools.fsmon` runs tools/fsmon.py (and the package files on the way), `python3
// tools` runs tools/__main__.py, `node tools` tools/index.js or what
// tools/package.json names, `perl -Itools -MFsmon` puts tools/ on @INC. Read by each
// interpreter's grammar, so that a protected command's module or directory counts as
// the file it runs. Pure, no I/O: names are relative as written.

import { computedRuns, literalPathNames, type ProgramLanguage } from './inline-program-runs.js';
import { typescriptCandidates } from './typescript-resolution.js';
import { MODULE, moduleFiles, pathEntryNames, pathImportNames, pythonImportNames, scriptEntryNames, scriptRootNames, unreadPythonImports } from './python-imports.js';
import { perlLibraryPaths } from './perl-search-paths.js';
import { pythonSearchPaths } from './python-search-paths.js';
import { rubyLoadPaths } from './ruby-search-paths.js';
import { searchDirectoryName } from './module-search-directories.js';
import { nodePreloadName } from './node-preload-packages.js';
import { tsNodeOptionKind } from './ts-node-options.js';

export { moduleFiles } from './python-imports.js';

/** A file (or, `tree`, a directory whole) that a command runs, named by the grammar rather than written out. */
export interface InterpreterName {
  readonly text: string;
  readonly tree: boolean;
  /**
   * `file`: relative to the program file's own directory only (a relative import, require_relative); none: to every
   * directory the name may be looked up from (where the program runs, the file's directory).
   */
  readonly anchor?: 'file';
}

/** What a command runs: the names its grammar implies, and the index of its script operand (run as a program), if any. */
export interface InterpreterReading {
  readonly names: readonly InterpreterName[];
  readonly operand: number | undefined;
  /** An inline program's calls that run a file or command it only computes (inline-program-runs.ts): unresolved. */
  readonly computed?: readonly string[];
}

const PYTHON = /^(python|pypy)([0-9]+(\.[0-9]+)*)?$/u;
const NODE = /^(node|nodejs|bun|deno|tsx|ts-node(-esm|-script|-cwd|-transpile-only)?)$/u;
const PERL_RUBY = /^(perl|ruby)([0-9]+(\.[0-9]+)*)?$/u;
/** Shells whose first operand is a script they read and run. */
const SCRIPT_SHELLS = /^(sh|bash|dash|zsh|ksh|mksh|ash)$/u;
const NODE_VALUED = new Set(['-r', '--require', '--import', '--loader', '--experimental-loader', '--env-file', '-C', '--conditions', '--title', '--input-type']);
/** The TypeScript runners' options that take the next word (a map file: typescript-runners.ts); deno's `-c` is `--config`. */
const RUNNER_VALUED = new Set(['--tsconfig', '--project', '-P', '--config', '--import-map']);
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

/** The env file node's `process.loadEnvFile()`, dotenv's `config()` and python-dotenv read when given no path. */
const DEFAULT_ENV_FILE = '.env';
/** How far up from the program's directory python-dotenv's find_dotenv is spelled out (past the root, every `..` stays there). */
export const DOTENV_WALK_LEVELS = 40;

/**
 * The env files a program loads without naming one (NODE_OPTIONS, PYTHONPATH in it reach every interpreter the program
 * starts): node's `process.loadEnvFile()` and dotenv (`require("dotenv").config()`, `import "dotenv/config"`) read
 * `.env` where the program runs; python-dotenv's `load_dotenv()`/`dotenv_values()` take the first `.env` up from the
 * calling file's directory (find_dotenv), or where it runs.
 */
function defaultEnvFiles(code: string): InterpreterName[] {
  const names: InterpreterName[] = [];
  const node = /\bloadEnvFile\s*\(\s*\)|(?:require\s*\(\s*|import\s*\(\s*|from\s+|import\s+)["'`]dotenv(?:\/config(?:\.js)?)?["'`]/u;
  const python = /\b(?:load_dotenv|dotenv_values|find_dotenv)\s*\(\s*(?:\)|(?!dotenv_path\b)[A-Za-z_]\w*\s*=)/u;
  if (node.test(code) || python.test(code)) names.push(file(DEFAULT_ENV_FILE));
  if (python.test(code)) for (let up = 0; up <= DOTENV_WALK_LEVELS; up++) names.push({ text: `${'../'.repeat(up)}${DEFAULT_ENV_FILE}`, tree: false, anchor: 'file' });
  return names;
}

/** The extensions node tries for a name written without one (`node tools/check` loads tools/check.js). */
const NODE_EXTENSIONS = ['.js', '.mjs', '.cjs', '.json', '.node'];

/**
 * What node loads for a module a -r/--import names: a relative one as a file (or a package's folder), and what the
 * TypeScript runners load for it (helpers.ts for ./helpers and ./helpers.js).
 */
function nodeModuleNames(specifier: string): InterpreterName[] {
  return /^\.{0,2}\//u.test(specifier) ? [...operandNames(specifier, NODE_DIRECTORY_ENTRIES, NODE_EXTENSIONS), ...typescriptCandidates(specifier).map(file)] : [];
}

/**
 * What a preload option's module is: a path as nodeModuleNames reads it; a bare specifier, the package node finds for it
 * from where the command runs (node-preload-packages.ts: a workspace package linked into node_modules is the project's
 * code), and dotenv's preload its `.env` there; what zotbox cannot carry as a name, unresolved.
 */
function nodePreload(specifier: string, names: InterpreterName[], computed: string[]): void {
  if (specifier === '' || /^\.{0,2}\//u.test(specifier) || /^[a-z][\w+.-]*:/iu.test(specifier)) {
    names.push(...nodeModuleNames(specifier));
    return;
  }
  // `-r dotenv/config` loads ./.env (NODE_OPTIONS in it reaches every node the program starts).
  if (/^dotenv\/config(\.js)?$/u.test(specifier)) names.push(file(DEFAULT_ENV_FILE));
  const name = nodePreloadName(specifier);
  if (name === undefined) computed.push(`node preloads ${JSON.stringify(specifier)} (a specifier zotbox cannot look up)`);
  else names.push(file(name));
}

/**
 * What a program's text runs from the directory it starts in: the modules Python code imports, the relative modules
 * JavaScript requires or imports, the directories sys.path changes, Perl's `use lib` and Ruby's `$LOAD_PATH` add. For -c/-e programs and here-documents.
 */
export function codeNames(code: string): InterpreterName[] {
  const names = [...pythonImportNames(code), ...pythonSearchPaths(code).names, ...scriptRootNames(code)];
  // Ruby's require_relative (from the file's own directory) and load of a file written without its extension.
  for (const match of code.matchAll(/\b(require_relative|load)\s*\(?\s*["']([^"'#$\n]+)["']/gu))
    for (const text of [match[2]!, `${match[2]!}.rb`]) names.push({ ...file(text), ...(match[1] === 'require_relative' ? { anchor: 'file' as const } : {}) });
  for (const match of code.matchAll(/(?:require\s*\(\s*|import\s*\(\s*|from\s+|import\s+)["'`](\.{1,2}\/[^"'`]*)["'`]/gu))
    names.push(...nodeModuleNames(match[1]!).map((name) => ({ ...name, anchor: 'file' as const })));
  // Files a program runs by name: Perl's `do "FILE"` and `require "FILE"`, Python's runpy.run_path, execfile, and the
  // open() of a program file whose text it execs (`exec(open("x.py").read())`).
  // (JavaScript's require("./x") is read above, with node's resolution.)
  for (const match of code.matchAll(/\b(?:do|require)\s*\(?\s*["']([^"'$@\n]+)["']|\b(?:run_path|execfile)\s*\(\s*["']([^"'\n]+)["']|\bopen\s*\(\s*["']([^"'\n]+\.(?:py|pl|pm|rb|[cm]?js|sh))["']/gu))
    if (!names.some((name) => name.text === (match[1] ?? match[2] ?? match[3]))) names.push(file(match[1] ?? match[2] ?? match[3]!));
  names.push(...perlLibraryPaths(code).names, ...rubyLoadPaths(code).names, ...defaultEnvFiles(code));
  return names;
}

/** What a program's text computes that zotbox cannot spell out: a search path (sys.path, @INC, $LOAD_PATH) built from a variable, a relative import against a package it cannot read. */
export function codeComputed(code: string): string[] {
  return [...pythonSearchPaths(code).computed, ...unreadPythonImports(code), ...perlLibraryPaths(code).computed, ...rubyLoadPaths(code).computed];
}

const file = (text: string): InterpreterName => ({ text, tree: false });

/** A directory on Perl's or Ruby's library path: whole, and its mark (unresolved where it holds a write scope). */
const searchDirectory = (text: string, language: 'perl' | 'ruby'): InterpreterName[] => [
  { text, tree: true },
  { text: searchDirectoryName(text, language), tree: false },
];

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
  // A program given inline has no file: what it names is relative to where it runs, and that directory itself is the workspace.
  const named = codeNames(code)
    .filter((name) => name.text !== '.')
    .map(({ text, tree }) => ({ text, tree }));
  for (const literal of literalPathNames(code, language)) if (!named.some((name) => name.text === literal)) named.push(file(literal));
  return { names: [...names, ...named], operand: undefined, computed: [...computedRuns(code, language), ...codeComputed(code)] };
}

/** Python's switches that take no value (`python3 -Rm x` is -R then -m x): any of them may start a cluster. */
const PYTHON_FLAGS = 'bBdEhiIOPqRsSuvVx?';
/** Python's long options (`--check-hash-based-pycs` takes the next word). */
const PYTHON_LONG = /^--(help|version|help-env|help-xoptions|help-all|check-hash-based-pycs)$/u;

/** A word python does not take (an option it would refuse, or one newer than zotbox reads): unresolved. */
const unknownOption = (program: string, word: string): InterpreterReading => ({ names: [], operand: undefined, computed: [`${program} ${word} (an option zotbox does not read)`] });

function readPython(interpreter: string, args: readonly string[]): InterpreterReading {
  const entries = (directory: string) => pathEntryNames(directory, interpreter);
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word === '-' || word === '--') {
      // stdin (or the operand after --): the working directory is sys.path[0] for stdin, the script's for a script.
      const operand = word === '--' && i + 1 < args.length ? i + 1 : undefined;
      return { names: operand === undefined ? entries('.') : [...operandNames(args[operand]!, ['__main__.py']), ...scriptEntryNames(args[operand]!, interpreter)], operand };
    }
    if (PYTHON_LONG.test(word)) {
      if (word === '--check-hash-based-pycs') i++;
      continue;
    }
    if (word.startsWith('-')) {
      // A cluster of switches read as python reads it: flags, then at most one that takes a value (the rest, or the next word).
      let at = 1;
      while (at < word.length && PYTHON_FLAGS.includes(word[at]!)) at++;
      const option = word[at];
      const value = word.length > at + 1 ? word.slice(at + 1) : args[i + 1];
      if (option === undefined) continue;
      if (option === 'W' || option === 'X') {
        if (word.length === at + 1) i++;
        continue;
      }
      // -m MOD: the module runs from the working directory, sys.path[0]; the rest are its arguments.
      // (and from the interpreter's own path, where an editable install puts the project's src/).
      if (option === 'm') return { names: [...(value !== undefined && MODULE.test(value) ? [...moduleFiles(value), ...pathImportNames(value)] : []), ...entries('.')], operand: undefined };
      if (option === 'c') return inlineProgram(entries('.'), value ?? '', 'python');
      return unknownOption('python', word);
    }
    // The script, or a directory (or zip) whose __main__.py runs, importing its siblings: the whole operand; and what
    // lies beside where it resolves, its sys.path[0] (CPython follows a linked script to its file).
    return { names: [...operandNames(word, ['__main__.py']), ...scriptEntryNames(word, interpreter)], operand: i };
  }
  // A program read from stdin, from the working directory.
  return { names: entries('.'), operand: undefined };
}

/** A reading with what the options before an inline program could not spell out added to its own. */
const withComputed = (reading: InterpreterReading, computed: readonly string[]): InterpreterReading => ({ ...reading, computed: [...computed, ...(reading.computed ?? [])] });

function readNode(program: string, args: readonly string[]): InterpreterReading {
  const names: InterpreterName[] = [];
  const computed: string[] = [];
  let i = 0;
  // deno and bun take a subcommand first: `deno run X`, `bun run X`.
  if ((program === 'deno' || program === 'bun') && /^(run|x)$/u.test(args[0] ?? '')) i = 1;
  for (; i < args.length; i++) {
    const word = args[i]!;
    // -r ./setup, --import=./hooks.mjs: a module node loads before the program.
    const valued = /^(-r|--require|--import|--loader|--experimental-loader)(?:=(.*))?$/u.exec(word);
    if (valued !== null) nodePreload(valued[2] ?? args[i + 1] ?? '', names, computed);
    // ts-node's own options (`--compiler X`, `-O JSON`): their values are no operand; one it lacks is unresolved.
    if (program.startsWith('ts-node') && word.startsWith('-') && word !== '--' && !/^(-e|--eval)$/u.test(word)) {
      const kind = tsNodeOptionKind(word);
      if (kind === undefined) return withComputed(unknownOption(program, word), computed);
      if (kind === 'valued') i++;
      continue;
    }
    if (NODE_VALUED.has(word) || (program !== 'node' && program !== 'nodejs' && RUNNER_VALUED.has(word)) || (program === 'deno' && word === '-c')) {
      i++;
      continue;
    }
    if (/^(-e|--eval|-p|--print)$/u.test(word)) return withComputed(inlineProgram(names, args[i + 1] ?? '', 'node'), computed);
    if (word === '--') return { names, operand: i + 1 < args.length ? i + 1 : undefined, computed };
    if (word.startsWith('-')) continue;
    return { names: [...names, ...operandNames(word, NODE_DIRECTORY_ENTRIES, NODE_EXTENSIONS), ...typescriptCandidates(word).map(file)], operand: i, computed };
  }
  return { names, operand: undefined, computed };
}

/** Perl's switches that take no value: any of them may start a cluster (`perl -wIlib`). */
const PERL_FLAGS = 'acfnpsStTuUvwWXh';

/** The library directories of a -M/-m value: `lib=DIR,DIR`, `local::lib=DIR` (`-M-lib=` removes them: nothing added). */
function perlModuleOption(spec: string): InterpreterName[] {
  const library = /^(lib|local::lib)=(.*)$/su.exec(spec);
  return library === null ? [] : library[2]!.split(',').flatMap((directory) => searchDirectory(directory, 'perl'));
}

/**
 * Perl's command line read as perl reads it: each cluster is switches that take no value, then at most one that
 * takes the rest of the word (-I, -M, -m, -e, -E, -x, -i, -d, -D, -F, -V) or digits (-l, -0, -C); a letter perl
 * does not have is unresolved.
 */
function readPerl(args: readonly string[]): InterpreterReading {
  const names: InterpreterName[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word === '--' || word === '-') return { names, operand: word === '--' && i + 1 < args.length ? i + 1 : undefined };
    if (!word.startsWith('-')) return { names, operand: i };
    for (let at = 1; at < word.length; at++) {
      const option = word[at]!;
      if (PERL_FLAGS.includes(option)) continue;
      const rest = word.slice(at + 1);
      // -l and -0 take octal (-0x hex) digits, -C a number or its letters; then the cluster goes on.
      const digits = { l: /^[0-7]*/u, '0': /^(x[0-9A-Fa-f]*|[0-7]*)/u, C: /^([0-9]+|[IOEioSDAL]*)/u }[option];
      if (digits !== undefined) {
        at += digits.exec(rest)![0].length;
        continue;
      }
      // -I DIR, -IDIR: a directory on the library path, whose every file may be what a -M or a `use` loads.
      if (option === 'I' || option === 'M' || option === 'm' || option === 'e' || option === 'E') {
        const value = rest !== '' ? rest : args[++i];
        if (option === 'I' && value !== undefined) names.push(...searchDirectory(value, 'perl'));
        if ((option === 'M' || option === 'm') && value !== undefined) names.push(...perlModuleOption(value));
        if (option === 'e' || option === 'E') return inlineProgram(names, value ?? '', 'perl');
        break;
      }
      if ('xidDFV'.includes(option)) break;
      return unknownOption('perl', word);
    }
  }
  return { names, operand: undefined };
}

function readRuby(args: readonly string[]): InterpreterReading {
  const names: InterpreterName[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    // -I DIR, -IDIR: a directory on the library path, whose every file may be what a -r or a `require` loads.
    // (With its mark: where it holds a write scope, unresolved; module-search-directories.ts.)
    if (word === '-I' && args[i + 1] !== undefined) names.push(...searchDirectory(args[++i]!, 'ruby'));
    else if (word.startsWith('-I') && word.length > 2) names.push(...searchDirectory(word.slice(2), 'ruby'));
    // ruby -r ./x: a file it loads first (x.rb).
    else if (word === '-r' && /^\.{0,2}\//u.test(args[i + 1] ?? '')) names.push(file(args[++i]!), file(`${args[i]!}.rb`));
    else if (/^-[a-zA-Z]*e$/u.test(word) || word === '-E') return inlineProgram(names, args[i + 1] ?? '', 'ruby');
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
 * program's file name (a path's last part), `written` the word as written (the interpreter Python's path is read from).
 * Unknown programs imply nothing.
 */
export function interpreterReading(program: string, args: readonly string[], written = program): InterpreterReading {
  if (PYTHON.test(program)) return readPython(written, args);
  if (NODE.test(program)) return readNode(program, args);
  if (PERL_RUBY.test(program)) return programLanguage(program) === 'perl' ? readPerl(args) : readRuby(args);
  if (SCRIPT_SHELLS.test(program)) return readShell(args);
  if (program === '.' || program === 'source') return { names: [], operand: args.length > 0 ? 0 : undefined };
  // run-parts DIR runs every file in DIR.
  if (program === 'run-parts') {
    const directory = args.findIndex((arg) => !arg.startsWith('-'));
    return { names: directory === -1 ? [] : [{ text: args[directory]!, tree: true }], operand: undefined };
  }
  return { names: [], operand: undefined };
}
