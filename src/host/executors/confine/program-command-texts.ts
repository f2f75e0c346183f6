// The command texts a file of program code runs through its process calls, as shell text: node's exec/execSync,
// execFile/execFileSync, spawn/spawnSync, execa and zx's $`…`; Python's subprocess.run/call/check_call/check_output/
// Popen, os.system, os.popen, subprocess.getoutput and asyncio's create_subprocess_*; Perl's and Ruby's system(…). A
// string literal is the text; an argv array is joined with shell quoting. A value the program computes stands as
// "$(computed)", so the shell reading (node-bin-runs.ts) refuses a name or directory it cannot spell out; a cwd option
// moves where the text runs. Pure.

/** One command a program runs: shell text, the line (0-based) the call is on, and the directory a literal cwd names. */
export interface ProgramCommandText {
  readonly text: string;
  readonly line: number;
  readonly directory?: string;
  /** The cwd is the program file's own directory (`__dirname`, `os.path.dirname(__file__)`), not where it runs. */
  readonly ownDirectory?: true;
}

/** A cwd that is the program's own directory, and one that is where it runs (as no cwd at all). */
const OWN_DIRECTORY =
  /^\s*(?:__dirname|import\.meta\.dirname|os\.path\.dirname\(\s*(?:os\.path\.(?:abspath|realpath)\(\s*)?__file__\s*\)?\s*\)|(?:pathlib\.)?Path\(\s*__file__\s*\)(?:\.(?:resolve|absolute)\(\s*\))*\.parent)\s*$/u;
const RUNNING_DIRECTORY = /^\s*(?:process\.cwd\(\s*\)|os\.getcwd\(\s*\)|None|undefined|null)\s*$/u;

/** What stands for a value the program computes: an expansion the shell reading cannot spell out. */
const COMPUTED = '"$(computed)"';

/** Calls whose first argument is the command (text or program), and zx's/execa's tagged templates. */
const CALLS =
  /(?<![\w$])(?:(?:child_process|cp|subprocess|os|asyncio|[A-Za-z_$][\w$]*)\s*\.\s*)?(execSync|exec|execFileSync|execFile|spawnSync|spawn|execaSync|execa|execaCommandSync|execaCommand|run|call|check_call|check_output|Popen|system|popen|getoutput|getstatusoutput|create_subprocess_shell|create_subprocess_exec)\s*\(|(?<![\w$])(?:\$|execa)\s*`/gu;

/** Calls whose first argument is always shell text (or a program name, read as text: more is read, never less). */
const SHELL_TEXT = new Set(['execSync', 'exec', 'execaCommand', 'execaCommandSync', 'system', 'popen', 'getoutput', 'getstatusoutput', 'create_subprocess_shell']);
/** Calls that take the program's arguments one by one (asyncio's create_subprocess_exec). */
const VARARGS = new Set(['create_subprocess_exec']);
/** `run` and `call` only as subprocess's (a bare run(…) or call(…) is any function). */
const SUBPROCESS_ONLY = new Set(['run', 'call']);

/** A quoted literal at `at` ("…", '…', `…`, with a Python prefix before it): its end, text, and whether it expands values. */
function literalAt(code: string, at: number): { end: number; text: string; expands: boolean } | undefined {
  const prefix = /^[rRbBuUfF]{1,2}(?=["'])/u.exec(code.slice(at))?.[0] ?? '';
  if (prefix !== '' && /[\w$]/u.test(code[at - 1] ?? '')) return undefined;
  const quote = code[at + prefix.length];
  if (quote !== '"' && quote !== "'" && quote !== '`') return undefined;
  const raw = /[rR]/u.test(prefix);
  const formatted = /[fF]/u.test(prefix);
  let text = '';
  let expands = false;
  for (let index = at + prefix.length + 1; index < code.length; index++) {
    const c = code[index]!;
    if (c === quote) return { end: index + 1, text, expands };
    if (c === '\n' && quote !== '`') return undefined;
    if (c === '\\' && !raw) {
      const next = code[++index] ?? '';
      text += { n: '\n', t: '\t', r: '\r', '0': '\0' }[next] ?? next;
    } else if ((quote === '`' && c === '$' && code[index + 1] === '{') || (formatted && c === '{' && code[index + 1] !== '{')) {
      // A value spliced in: computed; skip to its closing brace.
      let depth = 0;
      for (; index < code.length; index++) {
        if (code[index] === '{') depth++;
        else if (code[index] === '}' && --depth === 0) break;
      }
      text += COMPUTED;
      expands = true;
    } else if (formatted && (c === '{' || c === '}') && code[index + 1] === c) {
      text += c;
      index++;
    } else text += c;
  }
  return undefined;
}

/** The top-level pieces of an argument list from `from` (after its "(" or "["), to its closing bracket: each piece's text. */
function splitArguments(code: string, from: number): string[] {
  const pieces: string[] = [];
  let depth = 0;
  let start = from;
  for (let index = from; index < code.length; index++) {
    const literal = literalAt(code, index);
    if (literal !== undefined) {
      index = literal.end - 1;
      continue;
    }
    const c = code[index]!;
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      if (depth === 0) {
        pieces.push(code.slice(start, index));
        return pieces.filter((piece) => piece.trim() !== '');
      }
      depth--;
    } else if (c === ',' && depth === 0) {
      pieces.push(code.slice(start, index));
      start = index + 1;
    }
  }
  return [];
}

/**
 * An expression as shell text: its literals (shell text as written, or each quoted where `quoted`), joined by `+` or
 * written side by side, and "$(computed)" for anything else it holds.
 */
function expressionText(expression: string, quoted: boolean): string {
  let text = '';
  let gap = '';
  const flush = () => {
    if (gap.replace(/[\s+]/gu, '') !== '') text += COMPUTED;
    gap = '';
  };
  for (let index = 0; index < expression.length; index++) {
    const literal = literalAt(expression, index);
    if (literal === undefined) {
      gap += expression[index]!;
      continue;
    }
    flush();
    text += quoted && !literal.expands ? `'${literal.text.replace(/'/gu, `'\\''`)}'` : literal.text;
    index = literal.end - 1;
  }
  flush();
  return text;
}

/** An argv expression (`["npx", "acme-lint"]`) as its elements, or undefined where it is no array written out. */
function arrayElements(expression: string): string[] | undefined {
  const trimmed = expression.trim();
  if (!trimmed.startsWith('[') && !trimmed.startsWith('(')) return undefined;
  return splitArguments(trimmed, 1);
}

/** The value of an option among `pieces` (`{ cwd: "x" }`, `cwd="x"`): its expression, if the call sets it. */
function optionExpression(pieces: readonly string[], name: string): string | undefined {
  for (const piece of pieces) {
    const keyword = new RegExp(String.raw`^\s*${name}\s*=(?!=)([\s\S]*)$`, 'u').exec(piece);
    if (keyword !== null) return keyword[1];
    if (!piece.trim().startsWith('{')) continue;
    for (const entry of splitArguments(piece.trim(), 1)) {
      const property = new RegExp(String.raw`^\s*["']?${name}["']?\s*:([\s\S]*)$`, 'u').exec(entry);
      if (property !== null) return property[1];
      if (entry.trim() === name) return name; // `{ cwd }`: a variable's value
    }
  }
  return undefined;
}

/** What one call runs, as shell text and where: undefined for a call that runs no command zotbox can see. */
function callText(name: string, pieces: readonly string[]): { text: string; cwd?: string; ownDirectory?: true } | undefined {
  const [first, ...rest] = pieces;
  if (first === undefined) return undefined;
  const shell = optionExpression(rest, 'shell');
  const throughShell = shell !== undefined && !/^\s*(?:false|False|None|undefined|null)\s*$/u.test(shell);
  // Perl's and Ruby's system(PROGRAM, ARGS…) take the program's arguments one by one too.
  const varargs = VARARGS.has(name) || (name === 'system' && pieces.length > 1);
  const elements = varargs ? pieces.filter((piece) => !/^\s*\w+\s*=/u.test(piece)) : arrayElements(first);
  let text: string;
  if (elements !== undefined && (varargs || !SHELL_TEXT.has(name))) {
    // Python's list with shell=True: its first element is the shell text (the rest are the shell's $0, $1…).
    if (throughShell && !/^(?:spawn|execFile|execa)/u.test(name)) text = expressionText(elements[0] ?? '', false);
    else text = elements.map((element) => expressionText(element, !throughShell)).join(' ');
  } else {
    // node's execFile/spawn/execa(file, [args]): the program, then its arguments (joined plain through a shell).
    const args = !SHELL_TEXT.has(name) && rest[0] !== undefined ? arrayElements(rest[0]) : undefined;
    const quoted = args !== undefined && !throughShell;
    text = [expressionText(first, quoted), ...(args ?? []).map((arg) => expressionText(arg, quoted))].join(' ');
  }
  const cwd = optionExpression(rest, 'cwd');
  if (cwd === undefined || RUNNING_DIRECTORY.test(cwd)) return { text };
  if (OWN_DIRECTORY.test(cwd)) return { text, cwd: '.', ownDirectory: true };
  const literal = /^\s*(["'])([^"'\\\n$`{}]*)\1\s*$/u.exec(cwd);
  // A directory the program computes: a cd the shell reading cannot spell out, so a name run there is refused.
  return literal === null ? { text: `cd ${COMPUTED} && ${text}` } : { text, cwd: literal[2]! };
}

/** A bare `run(`/`call(` that is subprocess's: imported by name (`from subprocess import run`). */
const importsFromSubprocess = (code: string, name: string, call: string) => !call.includes('.') && new RegExp(String.raw`\bfrom\s+subprocess\s+import\b[^\n]*\b${name}\b`, 'u').test(code);

/** The command texts `code`'s process calls run, each as shell text with the line it is on and its literal cwd. */
export function programCommandTexts(code: string): ProgramCommandText[] {
  const found: ProgramCommandText[] = [];
  for (const match of code.matchAll(CALLS)) {
    const name = match[1];
    if (name !== undefined && SUBPROCESS_ONLY.has(name) && !/subprocess\s*\.\s*\w+\s*\($/u.test(match[0]) && !importsFromSubprocess(code, name, match[0])) continue;
    const from = match.index + match[0].length;
    const line = code.slice(0, match.index).split('\n').length - 1;
    if (name === undefined) {
      // A tagged template (zx's $`npx acme-lint`, execa`…`): the template is the command line.
      const literal = literalAt(code, from - 1);
      if (literal !== undefined) found.push({ text: literal.text, line });
      continue;
    }
    const call = callText(name, splitArguments(code, from));
    if (call !== undefined) found.push({ text: call.text, line, ...(call.cwd === undefined ? {} : { directory: call.cwd }), ...(call.ownDirectory === true ? { ownDirectory: true as const } : {}) });
  }
  return found;
}
