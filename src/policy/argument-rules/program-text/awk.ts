// awk programs given on the command line (issue 10 item 1): a tokenizer that
// knows strings, regex literals (told from division the way every awk would, or
// refused where awks differ), numbers, names and operators, and refuses what
// can run programs, open files or reach the environment: system, getline,
// close, fflush, ENVIRON, PROCINFO, ARGV/ARGC, pipes, print/printf redirection,
// @-directives. User functions and variables are fine.
// Assumes awk reads the text as UTF-8 or bytes (the fixed C.UTF-8 locale).

/** Why a program is refused; thrown inside the scanner only, caught by findAwkDenial. */
class AwkRefusal extends Error {}

const REFUSED_NAMES: Readonly<Record<string, string>> = {
  system: 'system() runs a shell command',
  getline: 'getline reads files or the output of commands',
  close: 'close() acts on files and commands, which zotbox does not let awk open',
  fflush: 'fflush() acts on files and commands, which zotbox does not let awk open',
  ENVIRON: 'ENVIRON reads the environment',
  PROCINFO: 'PROCINFO (gawk) reaches I/O settings and the process',
  SYMTAB: 'SYMTAB (gawk) reaches every variable, ENVIRON and PROCINFO among them',
  FUNCTAB: 'FUNCTAB (gawk) reaches every function indirectly',
  ARGV: 'changing ARGV makes awk read files the command line does not name',
  ARGC: 'changing ARGC makes awk read files the command line does not name',
  bindtextdomain: 'bindtextdomain() (gawk) loads message catalogs from a directory',
  dcgettext: 'dcgettext() (gawk) loads message catalogs',
  dcngettext: 'dcngettext() (gawk) loads message catalogs',
};

const KEYWORDS = new Set([
  'BEGIN',
  'END',
  'BEGINFILE',
  'ENDFILE',
  'function',
  'func',
  'if',
  'else',
  'while',
  'for',
  'do',
  'break',
  'continue',
  'next',
  'nextfile',
  'exit',
  'return',
  'delete',
  'in',
  'print',
  'printf',
  'switch',
  'case',
  'default',
]);
const BUILTIN_FUNCTIONS = new Set([
  'length',
  'substr',
  'index',
  'split',
  'sub',
  'gsub',
  'match',
  'sprintf',
  'sin',
  'cos',
  'atan2',
  'exp',
  'log',
  'sqrt',
  'int',
  'rand',
  'srand',
  'tolower',
  'toupper',
  'gensub',
  'strftime',
  'systime',
  'mktime',
  'asort',
  'asorti',
  'patsplit',
  'and',
  'or',
  'xor',
  'lshift',
  'rshift',
  'compl',
  'strtonum',
  'isarray',
  'typeof',
  'mkbool',
]);
/** Keywords after which every awk reads "/" as the start of a regex. */
const REGEX_AFTER_KEYWORDS = new Set(['print', 'printf', 'return', 'else', 'do', 'case', 'exit']);
const CONTROL_KEYWORDS = new Set(['if', 'while', 'for', 'switch']);
const OPERATORS = [
  '**=',
  '&&',
  '||',
  '==',
  '!=',
  '<=',
  '>=',
  '>>',
  '!~',
  '++',
  '--',
  '+=',
  '-=',
  '*=',
  '%=',
  '^=',
  '**',
  '{',
  '}',
  '(',
  ')',
  '[',
  ']',
  ';',
  ',',
  '+',
  '-',
  '*',
  '%',
  '^',
  '!',
  '>',
  '<',
  '=',
  '~',
  '?',
  ':',
  '$',
];
const NUMBER = /(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/y;
const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
const CHARACTER_CLASS = /\[:[a-z]+:\]/y;

/** What the previous token was, which decides what a "/" means and whether a newline ends a print. */
type Previous =
  | 'start' // nothing yet, or a newline: a statement may start
  | 'operand' // a value ended: "/" divides
  | 'operator' // a value is expected: "/" starts a regex
  | 'regex-keyword' // print, return...: a value is expected
  | 'print' // print or printf itself
  | 'unclear'; // a builtin function name, a keyword, "$", the ")" of if/while/for: awks differ

function refuse(reason: string): never {
  throw new AwkRefusal(reason);
}

class AwkScanner {
  private at = 0;
  private previous: Previous = 'start';
  private previousText = '';
  private readonly parens: ('control' | 'group')[] = [];
  /** The paren depth of the print or printf statement being read, if any. */
  private printDepth: number | undefined;

  constructor(private readonly text: string) {}

  scan(): void {
    while (this.at < this.text.length) this.scanToken(this.text[this.at]!);
    if (this.parens.length > 0) refuse('a "(" has no matching ")"');
  }

  private scanToken(ch: string): void {
    if (ch === ' ' || ch === '\t') this.at += 1;
    else if (ch === '\\') this.continuation();
    else if (ch === '\n') this.newline();
    else if (ch === '#') this.comment();
    else if (ch === '"') this.readString();
    else if (ch === '/') this.slash();
    else if (/[0-9.]/.test(ch)) this.readNumber();
    else if (/[A-Za-z_]/.test(ch)) this.readName();
    else this.readOperator();
  }

  private set(previous: Previous, text: string): void {
    this.previous = previous;
    this.previousText = text;
  }

  private continuation(): void {
    if (this.text[this.at + 1] !== '\n') refuse('a backslash outside a string or regex');
    this.at += 2;
  }

  private newline(): void {
    // A newline ends a print only where a statement can end; after "," or "&&" print goes on, and so does the check.
    if (this.printDepth !== undefined && (this.previous === 'operand' || this.previous === 'print')) this.printDepth = undefined;
    this.at += 1;
    if (this.previous !== 'operator' && this.previous !== 'regex-keyword') this.set('start', '\n');
  }

  private comment(): void {
    while (this.at < this.text.length && this.text[this.at] !== '\n') this.at += 1;
  }

  private readString(): void {
    for (this.at += 1; ; this.at += 1) {
      const ch = this.text[this.at];
      if (ch === undefined || ch === '\n') refuse('a string is not terminated on its line');
      if (ch === '"') break;
      if (ch === '\\') {
        const escaped = this.text[this.at + 1];
        if (escaped === undefined || escaped === '\n') refuse('a backslash at the end of a line inside a string');
        this.at += 1;
      }
    }
    this.at += 1;
    this.set('operand', 'a string');
  }

  private slash(): void {
    if (this.previous === 'unclear') refuse(`"/" after ${this.previousText} is a division to some awks and a regex to others; add parentheses, or match with ~ /re/`);
    if (this.previous === 'operand') {
      this.at += this.text[this.at + 1] === '=' ? 2 : 1;
      this.set('operator', '/');
      return;
    }
    this.readRegex();
  }

  private readRegex(): void {
    for (this.at += 1; ; ) {
      const ch = this.text[this.at];
      if (ch === undefined || ch === '\n') refuse('a regex is not terminated on its line');
      if (ch === '/') break;
      if (ch === '\\') {
        const escaped = this.text[this.at + 1];
        if (escaped === undefined || escaped === '\n') refuse('a backslash at the end of a line inside a regex');
        this.at += 2;
      } else if (ch === '[') this.readBracket();
      else this.at += 1;
    }
    this.at += 1;
    this.set('operand', 'a regex');
  }

  /** A bracket expression in the subset every awk reads alike: plain characters and [:class:], no "/", "\\", "[" or leading "]". */
  private readBracket(): void {
    this.at += 1;
    if (this.text[this.at] === '^') this.at += 1;
    if (this.text[this.at] === ']') refuse('a bracket expression starting with "]" is read differently by different awks; write \\] outside brackets');
    for (;;) {
      const ch = this.text[this.at];
      if (ch === undefined || ch === '\n') refuse('a bracket expression is not closed');
      if (ch === ']') break;
      if (ch === '/' || ch === '\\') refuse(`${JSON.stringify(ch)} inside a bracket expression is read differently by different awks; write \\${ch} outside brackets (a|\\/)`);
      if (ch === '[') {
        CHARACTER_CLASS.lastIndex = this.at;
        if (!CHARACTER_CLASS.test(this.text)) refuse('"[" inside a bracket expression is allowed only as [:class:]');
        this.at = CHARACTER_CLASS.lastIndex;
      } else this.at += 1;
    }
    this.at += 1;
  }

  private readNumber(): void {
    NUMBER.lastIndex = this.at;
    const match = NUMBER.exec(this.text);
    if (match === null) refuse('"." is not an awk operator');
    this.at = NUMBER.lastIndex;
    if (/[A-Za-z0-9_.]/.test(this.text[this.at] ?? '')) refuse(`a number directly followed by ${JSON.stringify(this.text[this.at])}: awks split it differently; put a space between them`);
    this.set('operand', 'a number');
  }

  private readName(): void {
    NAME.lastIndex = this.at;
    const name = NAME.exec(this.text)![0];
    this.at = NAME.lastIndex;
    if (this.text.startsWith('::', this.at)) refuse(`${name}:: is a gawk namespace, which zotbox does not read`);
    const refused = Object.hasOwn(REFUSED_NAMES, name) ? REFUSED_NAMES[name] : undefined;
    if (refused !== undefined) refuse(refused);
    if (name === 'print' || name === 'printf') {
      this.printDepth = this.parens.length;
      this.set('print', name);
    } else if (REGEX_AFTER_KEYWORDS.has(name)) this.set('regex-keyword', name);
    else if (KEYWORDS.has(name) || BUILTIN_FUNCTIONS.has(name)) this.set('unclear', name);
    else this.set('operand', name);
  }

  private readOperator(): void {
    const rest = this.text.slice(this.at, this.at + 3);
    if (rest.startsWith('|') && !rest.startsWith('||')) refuse('"|" pipes to or from a shell command');
    if (rest.startsWith('&') && !rest.startsWith('&&')) refuse('"&" is not an awk operator');
    if (rest.startsWith('::')) refuse(':: is a gawk namespace, which zotbox does not read');
    const operator = OPERATORS.find((o) => rest.startsWith(o));
    if (operator === undefined) refuse(`${JSON.stringify(this.text[this.at])} is not part of the awk zotbox reads (the @ directives and indirect calls of gawk among them)`);
    this.at += operator.length;
    this.operator(operator);
  }

  private operator(operator: string): void {
    if ((operator === '>' || operator === '>>') && this.printDepth === this.parens.length) {
      refuse(`"${operator}" in a print or printf statement writes a file; print to standard output (or put a comparison in parentheses)`);
    }
    if (operator === ';' && this.printDepth !== undefined && this.parens.length <= this.printDepth) this.printDepth = undefined;
    if (operator === '}') this.printDepth = undefined;
    if (operator === '(') {
      this.parens.push(this.previous === 'unclear' && CONTROL_KEYWORDS.has(this.previousText) ? 'control' : 'group');
      return this.set('operator', operator);
    }
    if (operator === ')') {
      const opened = this.parens.pop();
      if (opened === undefined) refuse('a ")" has no matching "("');
      return opened === 'control' ? this.set('unclear', 'the ")" of if, while or for') : this.set('operand', operator);
    }
    if (operator === ']' || operator === '++' || operator === '--') return this.set('operand', operator);
    this.set(operator === '$' ? 'unclear' : 'operator', operator === '$' ? '"$"' : operator);
  }
}

/** Why `program` is refused, or undefined when every construct in it is understood and harmless. */
export function findAwkDenial(program: string): string | undefined {
  if (/[\u0000-\u0008\u000b-\u001f\u007f]/.test(program)) return 'the program contains a control character';
  try {
    new AwkScanner(program).scan();
  } catch (error) {
    // Only the scanner's own refusals are expected; anything else is a bug and must not pass silently.
    if (error instanceof AwkRefusal) return error.message;
    throw error;
  }
  return undefined;
}
