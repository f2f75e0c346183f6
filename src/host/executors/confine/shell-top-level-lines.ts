// Whether a line of a shell script starts at its top level, once, in order: not inside an `if`, `case`, loop,
// function body, brace group, subshell, here-document, quote or `$(…)`, and not the tail of a command continued from
// the line before. Counting openers and closers by spelling was wrong in ways a reader this size keeps missing (`echo
// done`, `exts=( js ts )`, `f(){`, a list continued after `&&`), so bash's own parser decides: a line starts at the
// top level exactly when the text before it is a whole script (`bash -n` reads it with no error and no warning, such as
// an unclosed here-document's) that does not end in a line continuation. Aliases change what bash parses where they
// run (`sh` expands them), so a script that may define one (MAY_ALIAS) has no line known to be top level. Where bash
// cannot be run, no line is (fewer lines are top level, never more).
import { spawnSync } from 'node:child_process';
import { programOf } from './shell-command-reading.js';
import { ansiDecoded, CASE_PATTERN, type LexNotes, lexShell, unmark } from './shell-lexer.js';

/** The bash that parses, by its absolute path (never the user's PATH): the first of these that runs. */
const BASH_PATHS = ['/bin/bash', '/usr/bin/bash'];
/**
 * What may make a word an alias where the script runs: the word `alias` in any spelling (quotes and backslashes taken
 * out, `$'…'` decoded: `'al''ias'`, `al\ias`), alias expansion or POSIX mode turned on; and (computesCommandWord) a
 * command word the script computes (`$cmd x=…`, `"$@"`), which may be `alias` itself.
 */
const MAY_ALIAS = /alias|posix|POSIXLY_CORRECT/u;
/** A script's answers by line, kept for the texts read last (a hook is read after every command of a run). */
const answers = new Map<string, Map<number, boolean>>();
const KEPT_TEXTS = 64;
/** How many lines of one script bash is asked about. */
const MAX_PARSES = 64;

/** Whether a word of `code` may be an alias where it runs (MAY_ALIAS, on the text as the shell joins its words). */
export function mayAlias(code: string): boolean {
  return MAY_ALIAS.test(ansiDecoded(code).replace(/["'\\]/gu, '')) || computesCommandWord(code);
}

/**
 * `code` with each arithmetic command's text (`(( $n > 0 ))`, `for (( … ))`) blanked: its words are no commands. Only a
 * `((` outside quotes where a command starts (a line's start, `;`, `&`, `|`, `(`, `!`, a keyword) opens one, so a quoted
 * `((` hides no command word.
 */
function withoutArithmetic(code: string): string {
  let out = '';
  let quote = '';
  for (let index = 0; index < code.length; index++) {
    const c = code[index]!;
    if (quote !== '') {
      if (c === '\\' && quote === '"') {
        out += code.slice(index, index + 2);
        index++;
      } else {
        if (c === quote) quote = '';
        out += c;
      }
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === '\\') {
      out += code.slice(index, index + 2);
      index++;
      continue;
    } else if (code.startsWith('((', index) && /(?:^|[\n;&|(!]|\b(?:for|if|then|do|else|elif|while|until))\s*$/u.test(out)) {
      let depth = 0;
      let end = index;
      for (; end < code.length; end++) {
        if (code[end] === '(') depth++;
        else if (code[end] === ')' && --depth === 0) break;
      }
      out += `((${code.slice(index + 2, Math.max(index + 2, end - 1)).replace(/[^\n]/gu, ' ')}))`;
      index = end;
      continue;
    }
    out += c;
  }
  return out;
}

/**
 * Whether a command's program word is one the script computes (an expansion, a command or process substitution in
 * it: `$cmd`, `"$@"`, `X=1 $cmd`, behind `exec`, `command`, `env`…), or `eval` runs a computed word, read by the shell's
 * grammar (shell-lexer.ts): a test's operand (`[[ -n $CI && $n -gt 1 ]]`) is no command word. A quote never closed
 * counts as one.
 */
function computesCommandWord(code: string): boolean {
  const notes: LexNotes = { hereDocuments: [], pipes: new Map(), processSubstitutions: [], unclosed: false, redirected: new Set() };
  const commands = lexShell(withoutArithmetic(code), [], undefined, notes);
  const computed = (word: string | undefined) => word !== undefined && /[\uE000-\uEFFF\uF100-\uF1FF]/u.test(word);
  return (
    notes.unclosed ||
    commands.some((command) => {
      if (command[0] === CASE_PATTERN || notes.redirected?.has(command) === true) return false;
      const { at } = programOf(command);
      return computed(command[at]) || (unmark(command[at] ?? '') === 'eval' && command.slice(at + 1).some(computed));
    })
  );
}

/** Whether line `line` (from 0) of `code` starts at the script's top level (see the head of this file). */
export function startsAtTopLevel(code: string, line: number): boolean {
  if (mayAlias(code)) return false;
  const lines = code.split('\n');
  if (line < 0 || line >= lines.length) return false;
  if (line === 0) return true;
  const before = lines.slice(0, line);
  // A line ending in an odd run of backslashes joins the next one to it (bash -n reads the prefix as whole). The text
  // read is bash's own print (shell-printed-text.ts): no comment is left to end in one.
  if (/(?<!\\)(?:\\\\)*\\$/u.test(before.at(-1)!)) return false;
  let known = answers.get(code);
  if (known === undefined) {
    if (answers.size >= KEPT_TEXTS) answers.delete(answers.keys().next().value!);
    known = new Map();
    answers.set(code, known);
  }
  const kept = known.get(line);
  if (kept !== undefined) return kept;
  // A bash per line asked: past a bound, a script's later lines are not known to be top level (fewer, never more).
  if (known.size >= MAX_PARSES) return false;
  const answer = parsesWhole(`${before.join('\n')}\n`);
  known.set(line, answer);
  return answer;
}

/** Whether bash parses `text` as a whole script: exit 0 and nothing said (a warning is a doubt). */
function parsesWhole(text: string): boolean {
  for (const bash of BASH_PATHS) {
    const parsed = spawnSync(bash, ['-n'], { input: text, env: {}, encoding: 'utf8', timeout: 10_000, stdio: ['pipe', 'pipe', 'pipe'] });
    if (parsed.error !== undefined && (parsed.error as NodeJS.ErrnoException).code === 'ENOENT') continue;
    return parsed.error === undefined && parsed.status === 0 && parsed.stderr === '' && parsed.stdout === '';
  }
  return false;
}
