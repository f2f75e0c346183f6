// What an inline program (`python3 -c`, `node -e`, `perl -e`, an interpreter's here-document) runs besides the modules
// it imports: the files and commands it names in its string literals (`os.system("./tools/x.sh")`,
// `subprocess.run(["sh", "tools/x.sh"])`), and whether it runs a file or a command whose name it only computes
// (`perl -e 'do $f'`, `exec(open(name).read())`), which zotbox cannot tell in advance (closed world: unresolved).
// Pure, no I/O. Read by pattern, not by each language's full grammar: more is protected or unresolved, never less.

import { pythonComputedLoads } from './python-computed-loads.js';

/** The language of an inline program, where its interpreter is known: each has its own ways to run code. */
export type ProgramLanguage = 'python' | 'node' | 'perl' | 'ruby';

/** A quoted literal: its quote, its text, and whether the language expands values inside it. */
export interface Literal {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  readonly expands: boolean;
}

/** A program file or a path written out: the extensions of what interpreters and shells run. */
const PROGRAM_EXTENSION = /\.(sh|bash|zsh|ksh|py|pyw|pl|pm|rb|[cm]?[jt]s|php|lua|tcl)$/u;
const PATH_SHAPE = /^(?:~\/|\/|\.{1,2}\/)?[\w.@+-]+(?:\/[\w.@+-]*)*$/u;

/** The quoted literals of `code`: "…", '…' and `…`, with Python's f"…", Perl's and Ruby's "…", and JS's `…${}` expanding. */
export function literalsOf(code: string, language: ProgramLanguage | undefined): Literal[] {
  const literals: Literal[] = [];
  for (const match of code.matchAll(/(["'`])((?:\\.|(?!\1)[^\\\n])*)\1/gu)) {
    const [whole, quote, text] = match as unknown as [string, string, string];
    // Python's string prefix (f, rf, Fr, ...): the letters before the quote, when they are the whole word there.
    const prefix = /(?<![\w.])[rRbBuUfF]{1,2}$/u.exec(code.slice(Math.max(0, match.index - 3), match.index))?.[0] ?? '';
    const fString = /[fF]/u.test(prefix) && language !== 'perl' && language !== 'ruby';
    // Perl and Ruby expand $x, @x and #{x} in "…" and `…`; JavaScript ${x} in `…`; Python an f-string's {x}.
    const expands = fString || (quote !== "'" && /\$[\w{(]|@\w|#\{/u.test(text));
    literals.push({ start: match.index, end: match.index + whole.length, text, expands });
  }
  return literals;
}

/**
 * The paths an inline program's string literals name: each word of a literal (a command line in `os.system("sh
 * tools/x.sh")` is several) that is path-shaped and names a program file or a directory path. Relative to where the
 * program runs.
 */
export function literalPathNames(code: string, language?: ProgramLanguage): string[] {
  const names = new Set<string>();
  for (const literal of literalsOf(code, language)) {
    for (const word of literal.text.split(/[\s=:,;]+/u)) {
      if (!PATH_SHAPE.test(word) || /^\.+\/?$/u.test(word)) continue;
      if (word.includes('/') || PROGRAM_EXTENSION.test(word)) names.add(word.replace(/(.)\/+$/u, '$1'));
    }
  }
  return [...names];
}

/** Calls that run code or a command, by language (unknown language: all of them). Method calls on any receiver only where the name is distinctive. */
const RUNNERS: Readonly<Record<ProgramLanguage, RegExp>> = {
  python:
    /(?<![.\w])(?:exec|eval|compile|execfile|__import__)\s*\(|\b(?:run_path|run_module|import_module|system|popen|Popen|check_call|check_output|getoutput|getstatusoutput|spawn[lv]p?e?|exec[lv]p?e?|startfile)\s*\(|\bsubprocess\s*\.\s*(?:run|call)\s*\(/gu,
  node: /(?<![.\w])(?:require|eval|Function|import|exec)\s*\(|\b(?:execSync|spawn|spawnSync|execFile|execFileSync|fork|runInThisContext|runInNewContext|runInContext|compileFunction)\s*\(|(?<=\))\s*\.\s*exec\s*\(/gu,
  perl: /(?<![\w$@%&>:])(?:do|require|eval|system|exec)\b\s*\(?/gu,
  ruby: /(?<![\w.])(?:load|require|require_relative|eval|instance_eval|class_eval|system|exec|spawn)\b\s*\(?|\bpopen\s*\(/gu,
};

/** The argument text of a call at `from`: to its closing parenthesis (literals skipped), or to the statement's end. */
export function argumentAt(code: string, from: number, parenthesized: boolean, literals: readonly Literal[]): string {
  if (!parenthesized) return code.slice(from).split(/[;\n}]|\b(?:or|and|if|unless)\b/u)[0] ?? '';
  let depth = 1;
  for (let index = from; index < code.length; index++) {
    const literal = literals.find((l) => l.start === index);
    if (literal !== undefined) {
      index = literal.end - 1;
      continue;
    }
    const c = code[index];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    if (depth === 0) return code.slice(from, index);
  }
  return code.slice(from);
}

/**
 * Whether an argument is made of what is written out: literals that expand nothing, lists of them, keyword
 * arguments with constants (`check=True`), Python's `open("x.py").read()`, a Perl or Ruby module name.
 */
function writtenOut(argument: string, literals: readonly Literal[], offset: number, language: ProgramLanguage | undefined): boolean {
  let rest = '';
  let at = offset;
  for (const literal of literals.filter((l) => l.start >= offset && l.end <= offset + argument.length)) {
    if (literal.expands) return false;
    rest += argument.slice(at - offset, literal.start - offset) + '""';
    at = literal.end;
  }
  rest += argument.slice(at - offset);
  // Perl's and Ruby's module names (`require Foo::Bar`) and a Perl version (`require 5.010`).
  if (language !== 'python' && language !== 'node' && /^\s*(?:[A-Z]\w*(?:::\w+)*|v?\d+(?:\.\d+)*)\s*$/u.test(rest)) return true;
  rest = rest
    .replace(/\bopen\s*\(\s*""\s*\)\s*\.\s*read\s*\(\s*\)/gu, '""')
    .replace(/[fFrRbBuU]{0,2}""/gu, '')
    .replace(/\b\w+\s*=\s*(?:True|False|None|true|false|null|-?\d+)\b/gu, '')
    // An object literal's keys (`{ stdio: "inherit" }`) and constants as values.
    .replace(/\b\w+\s*:(?!:)/gu, '')
    .replace(/\b(?:true|false|null|undefined|-?\d+)\b/gu, '')
    .trim();
  return /^[\s,[\](){}]*$/u.test(rest);
}

/**
 * The calls in an inline program that run a file or a command named by a value the program computes, as written
 * (trimmed): each one makes what the program runs unknowable in advance. Perl's `do { … }` is a block, not a file.
 */
export function computedRuns(code: string, language?: ProgramLanguage): string[] {
  const literals = literalsOf(code, language);
  const inLiteral = (index: number) => literals.some((literal) => index > literal.start && index < literal.end);
  const runs: string[] = [];
  const languages = language === undefined ? (Object.keys(RUNNERS) as ProgramLanguage[]) : [language];
  for (const each of languages) {
    for (const match of code.matchAll(RUNNERS[each])) {
      if (inLiteral(match.index)) continue;
      const from = match.index + match[0].length;
      const parenthesized = match[0].trimEnd().endsWith('(');
      const argument = argumentAt(code, from, parenthesized, literals);
      // Perl's `do { … }` and `eval { … }` are blocks of the program itself.
      if (!parenthesized && /^\s*\{/u.test(argument) && /^(?:do|eval)\b/u.test(match[0])) continue;
      if (!writtenOut(argument, literals, from, each))
        runs.push(
          code
            .slice(match.index, from + argument.length + 1)
            .trim()
            .slice(0, 60),
        );
    }
  }
  // Python's loaders by any qualifier, taken as values or by their names too (python-computed-loads.ts), as in a program file.
  // One a runner above found already (`run_path(sys.argv[1])`) is not named twice.
  if (language === 'python' || language === undefined) for (const load of pythonComputedLoads(code)) if (!runs.some((run) => run.startsWith(load.call))) runs.push(load.call);
  // Perl's and Ruby's `…`, qx{…} and %x(…) run a command line; one that expands a value runs what it computes.
  if (language !== 'python' && language !== 'node') {
    for (const literal of literals) if (code[literal.start] === '`' && literal.expands) runs.push(code.slice(literal.start, literal.end).slice(0, 60));
    for (const match of code.matchAll(/(?<![\w$@%&])(?:qx|%x)\s*(?:\{[^}]*\}|\([^)]*\)|\[[^\]]*\]|<[^>]*>|([^\w\s])(?:(?!\1).)*\1)/gsu))
      if (/\$[\w{(]|@\w|#\{/u.test(match[0]) && !match[0].startsWith("qx'")) runs.push(match[0].slice(0, 60));
  }
  return [...new Set(runs)];
}
