// Shell command parsing for the bash gate (gate-rules §1). Two parsers must
// agree: zotbox's own fail-closed, quote-aware lexer, which rejects everything
// outside a small, exactly understood subset of shell syntax, and shell-quote,
// run with an env function that throws. Only then is a command turned into an
// AST: an and-or list of pipelines of simple commands. The executor runs that
// AST itself, so what was approved is what runs; nothing is ever re-parsed.
import { parse as shellQuoteParse } from 'shell-quote';

export type Connector = ';' | '&&' | '||';

export interface Assignment {
  readonly name: string;
  readonly value: string;
}

export interface SimpleCommand {
  readonly assignments: readonly Assignment[];
  /** argv[0] is the program as written. Never empty. */
  readonly argv: readonly string[];
}

export interface Pipeline {
  readonly commands: readonly SimpleCommand[];
}

export interface ShellAst {
  /** The first pipeline runs unconditionally; each later one runs per its connector (bash and-or semantics, left to right). */
  readonly items: readonly { readonly connector: Connector | null; readonly pipeline: Pipeline }[];
}

export type ShellParse = { readonly ok: true; readonly ast: ShellAst } | { readonly ok: false; readonly construct: string; readonly reason: string };

export const MAX_COMMAND_LENGTH = 8192;
export const MAX_SIMPLE_COMMANDS = 32;

/** `assignable`: the word begins with NAME= in unquoted text, the only form bash treats as an assignment. */
type Token = { readonly word: string; readonly assignable: boolean } | { readonly op: '|' | '&&' | '||' | ';' };

const KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'while', 'until', 'do', 'done', 'select', 'function', 'time', 'coproc', 'in', '[[', ']]', '!', '{', '}']);
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s;

function reject(construct: string, reason: string): ShellParse {
  return { ok: false, construct, reason };
}

/** Characters that are never accepted anywhere, quoted or not (gate-rules §1). */
function forbiddenCharacter(text: string): { construct: string; reason: string } | undefined {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0) return { construct: 'NUL', reason: 'contains a NUL byte' };
    if (code === 0x0a || code === 0x0d) return { construct: 'newline', reason: 'contains a line break; run one command line at a time' };
    if ((code < 0x20 && code !== 0x09) || (code >= 0x7f && code <= 0x9f)) {
      return { construct: 'control character', reason: `contains the control character U+${code.toString(16).padStart(4, '0').toUpperCase()}` };
    }
    if (code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200f) || (code >= 0x2028 && code <= 0x202f) || (code >= 0x205f && code <= 0x206f) || code === 0x3000 || code === 0xfeff) {
      return {
        construct: 'invisible character',
        reason: `contains U+${code.toString(16).padStart(4, '0').toUpperCase()}, a space, zero-width or bidirectional character that shells and readers see differently`,
      };
    }
    if (code >= 0xd800 && code <= 0xdfff) {
      const next = text.charCodeAt(i + 1);
      if (code > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) return { construct: 'invalid text', reason: 'contains a lone surrogate' };
      i++;
    }
  }
  return undefined;
}

const UNQUOTED_REJECTS: Readonly<Record<string, string>> = {
  $: 'variable expansion or command substitution ($)',
  '`': 'command substitution (backtick)',
  '<': 'redirection (<)',
  '>': 'redirection (>)',
  '(': 'a subshell or grouping "("',
  ')': 'a subshell or grouping ")"',
  '{': 'a brace group or brace expansion "{"',
  '}': 'a brace group or brace expansion "}"',
  '#': 'a comment (#)',
  '*': 'a glob (*); commands run without a shell, so quote it or name the files',
  '?': 'a glob (?); quote it',
  '[': 'a glob or test bracket ([); quote it',
  ']': 'a glob or test bracket (]); quote it',
  '!': 'history expansion or negation (!); quote it',
};

/**
 * What may follow a backslash outside quotes: quotes, the backslash, blanks and
 * the characters the lexer otherwise refuses or splits on. Not "*" and "?", which
 * shell-quote still reads as globs; not letters or digits, whose "\n" readers
 * take for an escape sequence that bash does not make.
 */
const ESCAPABLE = new Set(["'", '"', '\\', ' ', '\t', ';', '|', '&', '$', '`', '<', '>', '(', ')', '{', '}', '#', '[', ']', '!', '~', '=']);

/** What ends a word: a blank or a list operator. */
const WORD_END = new Set([' ', '\t', ';', '|', '&']);

/** The quote-aware lexer: words and the four list operators, or the first thing it does not accept. */
function lex(text: string): { ok: true; tokens: Token[] } | { ok: false; construct: string; reason: string } {
  const tokens: Token[] = [];
  let word = '';
  let inWord = false;
  /** Index in `word` where quoted text starts (-1: none yet). */
  let quotedFrom = -1;
  const endWord = () => {
    if (inWord) {
      const equals = word.indexOf('=');
      const assignable = equals > 0 && (quotedFrom === -1 || equals < quotedFrom) && /^[A-Za-z_][A-Za-z0-9_]*$/.test(word.slice(0, equals));
      tokens.push({ word, assignable });
    }
    word = '';
    inWord = false;
    quotedFrom = -1;
  };
  const startQuote = () => {
    if (quotedFrom === -1) quotedFrom = word.length;
  };
  for (let i = 0; i < text.length; ) {
    const ch = text[i]!;
    if (ch === ' ' || ch === '\t') {
      endWord();
      i++;
      continue;
    }
    if (ch === "'") {
      startQuote();
      const end = text.indexOf("'", i + 1);
      if (end === -1) return { ok: false, construct: 'unterminated quote', reason: 'a single quote is not closed' };
      word += text.slice(i + 1, end);
      inWord = true;
      i = end + 1;
      continue;
    }
    if (ch === '"') {
      startQuote();
      let j = i + 1;
      for (;;) {
        const c = text[j];
        if (c === undefined) return { ok: false, construct: 'unterminated quote', reason: 'a double quote is not closed' };
        if (c === '"') break;
        if (c === '$') return { ok: false, construct: '$ inside double quotes', reason: 'variable expansion or command substitution inside double quotes; use single quotes for a literal $' };
        if (c === '`') return { ok: false, construct: 'backtick inside double quotes', reason: 'command substitution inside double quotes' };
        if (c === '!') return { ok: false, construct: '! inside double quotes', reason: 'history expansion inside double quotes; use single quotes' };
        if (c === '\\') {
          const next = text[j + 1];
          // Only \" and \\ have one meaning everywhere; anything else differs between shells and parsers.
          if (next !== '"' && next !== '\\') return { ok: false, construct: 'backslash inside double quotes', reason: 'a backslash inside double quotes other than \\" or \\\\; use single quotes' };
          word += next;
          j += 2;
          continue;
        }
        word += c;
        j++;
      }
      inWord = true;
      i = j + 1;
      continue;
    }
    if (ch === '|' || ch === '&' || ch === ';') {
      endWord();
      const two = text.slice(i, i + 2);
      if (two === '&&' || two === '||') {
        tokens.push({ op: two });
        i += 2;
        continue;
      }
      if (two === '|&' || two === ';;' || two === ';&') return { ok: false, construct: two, reason: `the operator "${two}" is not supported` };
      if (ch === '&') return { ok: false, construct: '&', reason: 'a background job (&); commands run in the foreground only' };
      tokens.push({ op: ch });
      i++;
      continue;
    }
    if (ch === '\\') {
      // bash reads "\X" outside quotes as X, taken literally: only for the characters below, which both parsers read alike.
      const next = text[i + 1];
      if (next === undefined || !ESCAPABLE.has(next)) {
        return {
          ok: false,
          construct: '\\',
          reason: `a backslash before ${next === undefined ? 'the end of the command' : JSON.stringify(next)} outside quotes; a backslash may escape only a quote, a space or a shell character (\\' \\; \\  \\$ ...): quote the argument instead`,
        };
      }
      startQuote();
      word += next;
      inWord = true;
      i += 2;
      continue;
    }
    if (ch === '{' && !inWord && text[i + 1] === '}' && (i + 2 === text.length || WORD_END.has(text[i + 2]!))) {
      // A lone "{}" (find -exec's placeholder) is a plain word to bash: no brace expansion without a comma or "..", and not the keyword "{".
      word = '{}';
      inWord = true;
      i += 2;
      continue;
    }
    const rejected = UNQUOTED_REJECTS[ch];
    if (rejected !== undefined) return { ok: false, construct: ch, reason: rejected };
    if (ch === '~' && !inWord) return { ok: false, construct: '~', reason: 'tilde expansion (~ at the start of a word); write the path out' };
    if (ch === '=' && !inWord) return { ok: false, construct: '=', reason: 'a word starting with "=" is ambiguous in shells' };
    word += ch;
    inWord = true;
    i++;
  }
  endWord();
  return { ok: true, tokens };
}

/** shell-quote's reading of the same text; any object other than the four operators is a disagreement. */
function shellQuoteTokens(text: string): Token[] | string {
  let entries: ReturnType<typeof shellQuoteParse>;
  try {
    entries = shellQuoteParse(text, () => {
      throw new Error('variable expansion');
    });
  } catch (error) {
    return `shell-quote could not read it (${(error as Error).message})`;
  }
  const tokens: Token[] = [];
  for (const entry of entries) {
    if (typeof entry === 'string') tokens.push({ word: entry, assignable: false });
    else if ('op' in entry && (entry.op === '|' || entry.op === '&&' || entry.op === '||' || entry.op === ';')) tokens.push({ op: entry.op });
    else return `shell-quote sees ${JSON.stringify(entry)}`;
  }
  return tokens;
}

/** Same words and operators; `assignable` is the lexer's own knowledge and is not compared. */
function sameTokens(a: readonly Token[], b: readonly Token[]): boolean {
  const key = (token: Token) => ('word' in token ? `w:${token.word}` : `o:${token.op}`);
  return a.length === b.length && a.every((token, i) => key(token) === key(b[i]!));
}

/** Parses one command line into an AST, or names the construct it refuses (fail closed). */
export function parseShellCommand(text: string): ShellParse {
  if (text.trim().length === 0) return reject('empty command', 'the command is empty');
  if (text.length > MAX_COMMAND_LENGTH) return reject('length', `the command is longer than ${MAX_COMMAND_LENGTH} characters`);
  const bad = forbiddenCharacter(text);
  if (bad !== undefined) return reject(bad.construct, `the command ${bad.reason}`);
  const lexed = lex(text);
  if (!lexed.ok) return reject(lexed.construct, `the command uses ${lexed.reason}`);
  const other = shellQuoteTokens(text);
  if (typeof other === 'string' || !sameTokens(lexed.tokens, other)) {
    return reject('ambiguous syntax', `the command's parse is ambiguous: ${typeof other === 'string' ? other : 'two shell parsers read it differently'}`);
  }

  const items: { connector: Connector | null; pipeline: Pipeline }[] = [];
  let connector: Connector | null = null;
  let commands: SimpleCommand[] = [];
  let words: { word: string; assignable: boolean }[] = [];
  let simpleCount = 0;
  const finishCommand = (): ShellParse | undefined => {
    if (words.length === 0) return reject('empty command', 'the command has an empty part (two operators in a row, or one at the start or end)');
    const assignments: Assignment[] = [];
    let index = 0;
    for (; index < words.length && words[index]!.assignable; index++) {
      const match = ASSIGNMENT.exec(words[index]!.word)!;
      assignments.push({ name: match[1]!, value: match[2]! });
    }
    const argv = words.slice(index).map((w) => w.word);
    const program = argv[0];
    if (program === undefined) return reject('assignment only', 'a part of the command only assigns variables; assignments are allowed only before a command');
    if (KEYWORDS.has(program)) return reject(`keyword ${program}`, `the command uses the shell keyword "${program}"; only simple commands are supported`);
    commands.push({ assignments, argv });
    simpleCount++;
    words = [];
    return undefined;
  };
  for (const token of lexed.tokens) {
    if ('word' in token) {
      words.push(token);
      continue;
    }
    const failed = finishCommand();
    if (failed !== undefined) return failed;
    if (token.op === '|') continue;
    items.push({ connector, pipeline: { commands } });
    commands = [];
    connector = token.op;
  }
  const failed = finishCommand();
  if (failed !== undefined) return failed;
  items.push({ connector, pipeline: { commands } });
  if (simpleCount > MAX_SIMPLE_COMMANDS) return reject('too many commands', `the command has more than ${MAX_SIMPLE_COMMANDS} simple commands`);
  return { ok: true, ast: { items } };
}
