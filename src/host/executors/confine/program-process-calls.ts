// The process calls of a file of program code, each as the expressions it hands over: the command text, or the
// program and its arguments (an argv list or one by one). Node's child_process and execa (under the names it is
// imported as), Python's subprocess/os/pty/asyncio calls, Perl's and Ruby's system/exec/spawn (with or without
// parentheses), backquotes and qx/%x, Perl's piped open, Ruby's IO.popen and Open3. Matched on the code's skeleton
// (program-code-literals.ts): a call inside a string or a comment is no call. Pure.
import type { ProgramLanguage } from './inline-program-runs.js';
import { listPieces, type ValueSource } from './program-command-values.js';

/** One process call: where it is, and what it hands over. */
export interface FoundCall {
  readonly at: number;
  /** The command text, or the program (an argv list where `args` is undefined and the call is no shell's). */
  readonly program: string | undefined;
  /** The program's arguments: one argv list (`list`, [expr]) or each one (`pieces`). */
  readonly args?: readonly string[];
  readonly argv?: 'list' | 'pieces';
  /** The argv list's first element is argv[0], not an argument (os.execvp(file, ["npx", ...])). */
  readonly skipFirst?: boolean;
  /** The call's text is always shell text (execSync, os.system, backquotes). */
  readonly shellText: boolean;
  /** The rest of the call (options: `{ cwd }`, `shell=True`). */
  readonly options: readonly string[];
  /** Perl's two-argument open: the text is a command only with a `|` before or after it (stripped by the caller). */
  readonly pipe?: true;
}

/** Call names, with or without a receiver. */
const NAMES =
  'execSync|exec[lv]p?e?|exec|execFileSync|execFile|spawnSync|spawn[lv]p?e?|spawn|posix_spawnp?|execaSync|execa|execaCommandSync|execaCommand|run|call|check_call|check_output|Popen|system|popen|getoutput|getstatusoutput|create_subprocess_shell|create_subprocess_exec|capture2e?|capture3|popen2e?|popen3|pipeline(?:_rw?|_w|_start)?';
/** Calls whose first argument is always shell text (a program name alone read as text: more is read, never less). */
const SHELL_TEXT = new Set(['execSync', 'exec', 'execaCommand', 'execaCommandSync', 'system', 'getoutput', 'getstatusoutput', 'create_subprocess_shell']);
/** `run` and `call` only as subprocess's (a bare run(…) or call(…) is any function). */
const SUBPROCESS_ONLY = new Set(['run', 'call']);
/** child_process's and execa's names an alias may stand for. */
const ALIASABLE =
  /^(?:execSync|exec|execFileSync|execFile|spawnSync|spawn|execaSync|execa|execaCommandSync|execaCommand|\$|run|call|check_call|check_output|Popen|system|popen|getoutput|getstatusoutput|exec[lv]p?e?|spawn[lv]p?e?|posix_spawnp?)$/u;

/** The names the code gives child_process's, subprocess's and os's calls (`{ execSync as sh }`, `sh = cp.execSync`), and subprocess's module aliases. */
export function callAliases(clean: string, language: ProgramLanguage | undefined): { names: Map<string, string>; modules: Set<string> } {
  const names = new Map<string, string>();
  const modules = new Set(['subprocess']);
  const add = (canonical: string, alias: string | undefined) => {
    if (alias !== undefined && alias !== canonical && ALIASABLE.test(canonical) && /^[A-Za-z_$][\w$]*$/u.test(alias)) names.set(alias, canonical);
  };
  if (language !== 'perl' && language !== 'ruby') {
    // import { execSync as sh } from "child_process"; from subprocess import run as r
    for (const [, list] of clean.matchAll(/\bimport\s*\{([^}]*)\}\s*from\s*["'](?:node:)?(?:child_process|execa|zx)["']/gu))
      for (const entry of list!.split(',')) add(entry.split(/\s+as\s+/u)[0]!.trim(), entry.split(/\s+as\s+/u)[1]?.trim());
    for (const [, list] of clean.matchAll(/\bfrom\s+(?:subprocess|os|pty|asyncio)\s+import\s+\(?([^)\n]*)/gu))
      for (const entry of list!.split(',')) add(entry.split(/\s+as\s+/u)[0]!.trim(), entry.split(/\s+as\s+/u)[1]?.trim());
    // const { execSync: sh } = require("child_process")
    for (const [, list] of clean.matchAll(/\{([^}]*)\}\s*=\s*(?:await\s+)?(?:require|import)\s*\(\s*["'](?:node:)?(?:child_process|execa|zx)["']\s*\)/gu))
      for (const entry of list!.split(',')) add(entry.split(':')[0]!.trim(), entry.split(':')[1]?.trim());
    // const sh = cp.execSync; sh = subprocess.check_call; const run = promisify(exec)
    for (const [whole, alias, canonical] of clean.matchAll(
      /(?:^|[\s;])(?:const|let|var)?\s*([A-Za-z_$][\w$]*)\s*=\s*(?:(?:util\.)?promisify\s*\(\s*)?(?:[\w$]+(?:\s*\(\s*["'][^"']*["']\s*\))?\s*\.\s*)?([A-Za-z_$][\w$]*)\s*\)?\s*(?:\.bind\([^)]*\))?\s*(?=[;\n]|$)/gmu,
    ))
      if (!SUBPROCESS_ONLY.has(canonical!) || /\bsubprocess\s*\.\s*\w+\s*$/u.test(whole.replace(/\s*(?:[;\n]|$)/u, ''))) add(canonical!, alias);
    for (const [, alias] of clean.matchAll(/\bimport\s+subprocess\s+as\s+(\w+)/gu)) modules.add(alias!);
  }
  return { names, modules };
}

/** Ruby's env hash or Perl's/Ruby's options among the pieces: none of the command. */
const isOption = (piece: string) => /^\s*(?:\{|ENV\b|:?\w+\s*(?::(?!:)|=>)|\w+\s*=(?!=))/u.test(piece);
/** A list written out, a name, or a slice or concat of a name (an argv list): what node's execFile/spawn take after the program. */
const isArgvList = (piece: string | undefined) => piece !== undefined && /^\s*(?:\[|[A-Za-z_$][\w$]*\s*(?:$|\.\s*(?:slice|concat)\s*\())/u.test(piece) && !/^\s*(?:undefined|null)\s*$/u.test(piece);

/** What a call of `name` hands over, from its argument pieces. */
function shapeOf(name: string, pieces: readonly string[], language: ProgramLanguage | undefined, at: number): FoundCall[] {
  const none: FoundCall[] = [];
  if (pieces.length === 0) return none;
  const python = language === 'python';
  const perlish = language === 'perl' || language === 'ruby' || language === undefined;
  const command = pieces.filter((piece) => !isOption(piece));
  const options = pieces.filter(isOption);
  // os.exec*/os.spawn* (Python): l-forms take the arguments one by one, v-forms a list; both start with argv[0].
  const osForm = /^(exec|spawn)([lv])(p?)(e?)$/u.exec(name);
  if (osForm !== null || /^posix_spawnp?$/u.test(name)) {
    const shift = osForm?.[1] === 'spawn' ? 1 : 0;
    const end = osForm?.[4] === 'e' ? pieces.length - 1 : pieces.length;
    const program = pieces[shift];
    if (osForm?.[2] === 'l') return [{ at, program, args: pieces.slice(shift + 2, end), argv: 'pieces', shellText: false, options: [] }];
    return [{ at, program, args: [pieces[shift + 1] ?? '[]'], argv: 'list', skipFirst: true, shellText: false, options: [] }];
  }
  if (name === 'create_subprocess_exec') return [{ at, program: command[0], args: command.slice(1), argv: 'pieces', shellText: false, options }];
  // Open3.pipeline*: each argument is a command of its own.
  if (name.startsWith('pipeline')) return command.map((piece) => ({ at, program: piece, shellText: false, options }));
  // Perl's and Ruby's system/exec/spawn and Open3's calls with the program's arguments one by one.
  if (perlish && /^(?:system|exec|spawn|capture2e?|capture3|popen[23]e?)$/u.test(name) && command.length > 1 && !/^\s*\[|=>|^\s*(?:async\s+)?function\b/u.test(command[1]!))
    return [{ at, program: command[0], args: command.slice(1), argv: 'pieces', shellText: false, options }];
  if (name === 'popen' || /^(?:capture|popen[23])/u.test(name)) return [{ at, program: command[0], shellText: name === 'popen' && python, options }];
  if (SHELL_TEXT.has(name)) return [{ at, program: pieces[0], shellText: true, options: pieces.slice(1) }];
  // node's execFile/spawn/execa(file, [args], options); Python's subprocess calls and pty.spawn take one expression.
  if (!python && isArgvList(pieces[1])) return [{ at, program: pieces[0], args: [pieces[1]!], argv: 'list', shellText: false, options: pieces.slice(2) }];
  return [{ at, program: pieces[0], shellText: false, options: pieces.slice(1) }];
}

/** The pieces of a call without parentheses (Perl's `system "…", "…";`, Ruby's `exec "…"`): to the statement's end. */
function bareArguments(reader: ValueSource, from: number): string[] {
  const rest = reader.clean.slice(from);
  let end = 0;
  // To the statement's end: a `;` or a line's end outside literals, or Perl's `or die`.
  while (end < rest.length && rest[end] !== ';' && rest[end] !== '\n' && !/^\s(?:or|and|if|unless)\b/u.test(rest.slice(end))) end = reader.skip(rest, end) ?? end + 1;
  return listPieces(`(${rest.slice(0, end)})`, 0, reader.skip);
}

/** The closing delimiter of a Perl/Ruby quote-like opened with `open`. */
const CLOSING: Readonly<Record<string, string>> = { '(': ')', '[': ']', '{': '}', '<': '>' };

/** Perl's and Ruby's backquotes and qx/%x: each a command text (its splices the values they name). */
function quotedCommands(reader: ValueSource): FoundCall[] {
  const calls: FoundCall[] = [];
  for (let index = 0; index < reader.clean.length; index++) {
    const end = reader.skip(reader.clean, index);
    if (end === undefined) continue;
    if (reader.clean[index] === '`') calls.push({ at: index, program: reader.clean.slice(index, end), shellText: true, options: [] });
    index = end - 1;
  }
  for (const match of reader.skeleton.matchAll(/(?<![\w$@%&])(?:qx|%x)\s*([^\w\s])/gu)) {
    const open = match[1]!;
    const close = CLOSING[open] ?? open;
    const from = match.index + match[0].length;
    const to = reader.clean.indexOf(close, from);
    if (to === -1) continue;
    const body = reader.clean.slice(from, to);
    // qx'…' splices nothing; the rest as backquotes do.
    const program = open === "'" ? `'${body.replace(/'/gu, "\\'")}'` : `\`${body.replace(/`/gu, '\\`')}\``;
    calls.push({ at: match.index, program, shellText: true, options: [] });
  }
  return calls;
}

/** Perl's open(FH, "-|", …), open(FH, "CMD |") and open(FH, "| CMD"): the command it runs. */
function openCommand(pieces: readonly string[], at: number): FoundCall[] {
  const mode = /^\s*["'](\|-|-\|)["']\s*$/u.exec(pieces[1] ?? '');
  if (mode !== null) {
    const rest = pieces.slice(2);
    if (rest.length === 1) return [{ at, program: rest[0], shellText: true, options: [] }];
    return [{ at, program: rest[0], args: rest.slice(1), argv: 'pieces', shellText: false, options: [] }];
  }
  if (pieces.length === 2) return [{ at, program: pieces[1], shellText: true, options: [], pipe: true }];
  return [];
}

/** The process calls of the code. */
export function processCalls(reader: ValueSource, language: ProgramLanguage | undefined, aliases: ReturnType<typeof callAliases>): FoundCall[] {
  const calls: FoundCall[] = [];
  const { skeleton, clean } = reader;
  const aliasNames = [...aliases.names.keys()].map((name) => name.replace(/\$/gu, '\\$'));
  const pattern = new RegExp(
    String.raw`(?<![\w$])(?:([A-Za-z_$][\w$]*)\s*(?:\.|::)\s*)?(${NAMES}${language === 'perl' ? '|open' : ''}${aliasNames.length === 0 ? '' : `|${aliasNames.join('|')}`})\s*\(|(?<![\w$])(\$|execa)\s*\x60`,
    'gu',
  );
  for (const match of skeleton.matchAll(pattern)) {
    const [, receiver, written, tagged] = match;
    const from = match.index + match[0].length;
    if (tagged !== undefined) {
      // A tagged template (zx's $`npx acme-lint`, execa`…`): the template is the command line.
      const end = reader.skip(clean, from - 1);
      if (end !== undefined) calls.push({ at: match.index, program: clean.slice(from - 1, end), shellText: true, options: [] });
      continue;
    }
    // An alias is read bare only (`sh(…)`); a method of another object by that name is not it.
    const name = receiver === undefined ? (aliases.names.get(written!) ?? written!) : written!;
    if (receiver !== undefined && aliases.names.has(written!) && !new RegExp(`^(?:${NAMES})$`, 'u').test(written!)) continue;
    if (
      SUBPROCESS_ONLY.has(name) &&
      written === name &&
      !(receiver !== undefined && aliases.modules.has(receiver)) &&
      !new RegExp(String.raw`\bfrom\s+subprocess\s+import\b[^\n]*\b${name}\b`, 'u').test(clean)
    )
      continue;
    // JavaScript's `exec` is also RegExp's and many a library's method (`/x/.exec(line)`, `db.exec(sql)`): a method
    // `exec` is child_process's only on a receiver named so, or on what a call returns (`require("child_process").exec`).
    if (written === 'exec' && (language === 'node' || language === undefined) && !aliases.names.has(written)) {
      const method =
        receiver !== undefined
          ? !/child|^cp$|process/iu.test(receiver)
          : /\.\s*$/u.test(skeleton.slice(Math.max(0, match.index - 8), match.index)) && !/\)\s*\.\s*$/u.test(skeleton.slice(Math.max(0, match.index - 8), match.index));
      if (method) continue;
    }
    // A definition of a function by that name (`def run(`, `function exec(`) is no call.
    if (/\b(?:def|function|sub)\s+$/u.test(skeleton.slice(Math.max(0, match.index - 12), match.index))) continue;
    const pieces = listPieces(clean, from - 1, reader.skip);
    // Perl's own open (a package's `DirHandle::open` is another function).
    if (language === 'perl' && name === 'open') calls.push(...(receiver === undefined || receiver === 'CORE' ? openCommand(pieces, match.index) : []));
    else calls.push(...shapeOf(name, pieces, language, match.index));
  }
  if (language === 'perl' || language === 'ruby' || language === undefined) {
    calls.push(...quotedCommands(reader));
    // Without parentheses: Perl's `system "…";`, `exec "…"`, `open my $fh, "-|", "…"`; Ruby's `system "…"`, `spawn "…"`.
    for (const match of skeleton.matchAll(/(?<![\w$@%&>:.])(system|exec|spawn|open)[ \t]+(?=["'$@[{]|q[qwx]?\s*[({[</]|my\b)/gu)) {
      const pieces = bareArguments(reader, match.index + match[0].length);
      if (match[1] === 'open') {
        if (language === 'perl') calls.push(...openCommand(pieces, match.index));
      } else calls.push(...shapeOf(match[1]!, pieces, language, match.index));
    }
  }
  return calls;
}
