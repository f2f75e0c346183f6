// Whether sourcing a file may leave the sourcer's shell in another directory, and which of the file's functions may
// when called. A script's relative words (`bash lib.sh`) are read from where the shell is; a file it sources runs in
// its shell, so a `cd scripts` there makes `lib.sh` scripts/lib.sh (review s07d). The script readers follow the cds a
// script spells itself; what a sourced file does to the place is told here, from its text: a cd, pushd or popd
// outside a function body and a subshell, PWD set, or a call of one of its functions that may. Text read as commands
// (eval's, trap's, an alias's) is not read for a move here, as it is not in the script itself. Pure. Where the text cannot be taken apart (a quote, a
// parenthesis or a brace never closed), the whole file counts as moving.
import { ansiDecoded } from './shell-lexer.js';

export interface PlaceChanges {
  /** Sourcing the file may leave the shell elsewhere. */
  readonly movesWhenSourced: boolean;
  /** Its functions whose call may leave the shell elsewhere. */
  readonly movingFunctions: ReadonlySet<string>;
  /** Its top level or a function of its own calls one of the inherited moving functions. */
  readonly callsInherited: boolean;
}

/**
 * Where a command starts: a line's start, a separator, a group, or a keyword or wrapper before it, then assignments
 * (`X=1 cd y`). A word elsewhere (`echo cd`, a string's text) is an argument.
 */
const COMMAND_START = String.raw`(?:^|[;&|(){}!]|\b(?:then|do|else|elif|if|while|until|time|builtin|command|exec|nohup)\s)\s*(?:[A-Za-z_]\w*=\S*\s+)*(?:(?:builtin|command)\s+(?:-\S+\s+)*)*`;
const AFTER = String.raw`(?=[\s;&|()<>]|$)`;
/** A command that moves the shell. Text read as commands (eval, trap) is not read here, as in the script itself. */
const MOVES = new RegExp(`${COMMAND_START}(?:cd|pushd|popd)${AFTER}`, 'mu');
/** PWD given a value in any spelling other than reading it (`$PWD`, `${PWD}`, `${PWD%/*}`...). */
const SETS_PWD = /(?<![$\w{#!])PWD(?!\w)|\$\{PWD:?=/u;

/** Whether `text` may give PWD a value, in any spelling (`PWD=`, `read PWD`, `export PWD`, `${PWD:=…}`). */
export function setsPwd(text: string): boolean {
  return SETS_PWD.test(joined(text));
}

/** The text as the shell joins its words: `$'…'` decoded, line continuations joined, quotes and backslashes gone. */
function joined(text: string): string {
  return ansiDecoded(text.replace(/\\\n/gu, '')).replace(/["'\\]/gu, '');
}

/** A function definition at a command's start: `name() BODY` or `function name [()] BODY`. */
const DEFINITION = /^(?:function\s+([^\s(){}<>;&|=$`'"]+)(?:\s*\(\s*\))?|([^\s(){}<>;&|=$`'"]+)\s*\(\s*\))\s*/u;

interface Split {
  /** The text outside function bodies, subshells and command substitutions, here-documents and comments. */
  top: string;
  /** Each function's body, split the same way in turn. */
  readonly bodies: Map<string, string>;
}

/** Where the quote, substitution or group opened at `start` (its opening character) closes; -1 where it never does. */
function closing(text: string, start: number): number {
  const open = text[start]!;
  if (open === "'") {
    const end = text.indexOf("'", start + 1);
    return end;
  }
  const close = open === '"' ? '"' : open === '`' ? '`' : open === '(' ? ')' : '}';
  for (let i = start + 1; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\\') {
      i++;
      continue;
    }
    if (ch === close) return i;
    // A comment in a body or a subshell: its quotes and brackets are text (`# don't`).
    if (ch === '#' && (open === '{' || open === '(') && /[\s;&|()]/u.test(text[i - 1]!)) {
      const end = text.indexOf('\n', i);
      if (end < 0) return -1;
      i = end;
      continue;
    }
    if (open !== '`' && (ch === '"' || ch === '`' || (ch === "'" && open !== '"') || (ch === '(' && open !== '"') || (ch === '{' && open === '{'))) {
      const end = closing(text, i);
      if (end < 0) return -1;
      i = end;
    } else if (ch === '$' && (text[i + 1] === '(' || text[i + 1] === '{')) {
      const end = closing(text, i + 1);
      if (end < 0) return -1;
      i = end;
    }
  }
  return -1;
}

/** A double-quoted string with the command substitutions in it blanked: they run in a subshell of their own. */
function withoutSubstitutions(quoted: string): string {
  let out = '';
  for (let i = 0; i < quoted.length; i++) {
    const ch = quoted[i]!;
    if (ch === '\\') {
      out += quoted.slice(i, i + 2);
      i++;
    } else if ((ch === '$' && quoted[i + 1] === '(') || ch === '`') {
      // Closed: the caller found where the whole string closes.
      const end = closing(quoted, ch === '$' ? i + 1 : i);
      if (end < 0) break;
      i = end;
      out += ' ';
    } else out += ch;
  }
  return out;
}

/** A here-document's body, from the line after `<<DELIM` to the line holding only DELIM: where it ends, -1 if never. */
function hereDocumentEnd(text: string, from: number, delimiter: string, stripTabs: boolean): number {
  let line = text.indexOf('\n', from);
  while (line >= 0) {
    const next = text.indexOf('\n', line + 1);
    const body = text.slice(line + 1, next < 0 ? text.length : next);
    if ((stripTabs ? body.replace(/^\t+/u, '') : body) === delimiter) return next < 0 ? text.length : next;
    line = next;
  }
  return -1;
}

/** Splits `text` into its top level and its functions' bodies; undefined where something opened never closes. */
function split(text: string): Split | undefined {
  const bodies = new Map<string, string>();
  let top = '';
  let atCommand = true;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (atCommand) {
      const definition = DEFINITION.exec(text.slice(i));
      const body = definition === null ? undefined : text[i + definition[0].length];
      if (definition !== null && (body === '{' || body === '(')) {
        const start = i + definition[0].length;
        const end = closing(text, start);
        if (end < 0) return undefined;
        // A body in parentheses runs in a subshell of its own: calling it never moves the caller.
        bodies.set(definition[1] ?? definition[2]!, body === '(' ? '' : text.slice(start + 1, end));
        top += ' ';
        i = end;
        continue;
      }
    }
    if (ch === '\\') {
      top += text.slice(i, i + 2);
      i++;
      atCommand = false;
      continue;
    }
    if (ch === '#' && (i === 0 || /[\s;&|()]/u.test(text[i - 1]!))) {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end - 1;
      continue;
    }
    const hereDocument = /^<<(-?)\s*(['"]?)([A-Za-z0-9_.-]+)\2/u.exec(text.slice(i, i + 80));
    if (hereDocument !== null) {
      const end = hereDocumentEnd(text, i, hereDocument[3]!, hereDocument[1] === '-');
      if (end < 0) return undefined;
      // The rest of the line the here-document starts on is still commands.
      const lineEnd = text.indexOf('\n', i);
      top += text.slice(i + hereDocument[0].length, lineEnd);
      top += '\n';
      i = end;
      atCommand = true;
      continue;
    }
    // A subshell or a command substitution never moves this shell; a quoted string is one word.
    if (ch === '(' || (ch === '$' && text[i + 1] === '(') || ch === '`' || ch === "'" || ch === '"') {
      const start = ch === '$' ? i + 1 : i;
      const end = closing(text, start);
      if (end < 0) return undefined;
      top += ch === '(' || ch === '$' || ch === '`' ? ' ' : ch === '"' ? withoutSubstitutions(text.slice(i, end + 1)) : text.slice(i, end + 1);
      i = end;
      atCommand = false;
      continue;
    }
    top += ch;
    if (/[\n;&|{}]/u.test(ch)) atCommand = true;
    else if (!/\s/u.test(ch)) atCommand = false;
  }
  return { top, bodies };
}

/** Whether `top` (a top level, split) may move the shell itself (`own`), or calls one of `moving`. */
function moves(top: string, moving: ReadonlySet<string>, own = true): boolean {
  const words = joined(top);
  if (own && (MOVES.test(words) || SETS_PWD.test(words))) return true;
  return [...moving].some((name) => new RegExp(`${COMMAND_START}${name.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')}${AFTER}`, 'mu').test(words));
}

/**
 * What sourcing `text` does to the sourcer's place (the module comment). `inherited`: the moving functions of the files
 * it sources, which its own top level or functions may call.
 */
export function placeChangesOf(text: string, inherited: ReadonlySet<string> = new Set()): PlaceChanges {
  const outer = split(text);
  if (outer === undefined) return { movesWhenSourced: true, movingFunctions: new Set(inherited), callsInherited: true };
  // Every body, nested definitions flattened: a function defined inside another is defined once that one runs.
  const bodies = new Map<string, string>();
  const pending = [...outer.bodies];
  while (pending.length > 0) {
    const [name, body] = pending.pop()!;
    const inner = split(body);
    if (inner === undefined) return { movesWhenSourced: true, movingFunctions: new Set(inherited), callsInherited: true };
    bodies.set(name, inner.top);
    pending.push(...inner.bodies);
  }
  // A function moves where its body does, or calls one that does: grown until nothing changes.
  const moving = new Set<string>(inherited);
  for (let grown = true; grown; ) {
    grown = false;
    for (const [name, top] of bodies)
      if (!moving.has(name) && moves(top, moving)) {
        moving.add(name);
        grown = true;
      }
  }
  const callsInherited = inherited.size > 0 && [outer.top, ...bodies.values()].some((top) => moves(top, inherited, false));
  return { movesWhenSourced: moves(outer.top, moving), movingFunctions: moving, callsInherited };
}
