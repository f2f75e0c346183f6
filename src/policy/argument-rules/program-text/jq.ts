// jq filters given on the command line (issue 10 item 1): jq cannot run
// programs or write files, but it can read files through modules. A tokenizer
// (strings with \( ) interpolation, fields, variables, comments) refuses the
// import and include directives and modulemeta, which read files from the
// library path; everything else is data processing. env and $ENV are fine: the
// environment of a command is fixed and scrubbed.

/** Why a filter is refused; thrown inside the scanner only, caught by findJqDenial. */
class JqRefusal extends Error {}

const REFUSED_NAMES: Readonly<Record<string, string>> = {
  import: 'import loads a module or a data file from the library path',
  include: 'include loads a module file from the library path',
  modulemeta: 'modulemeta reads module files from the library path',
};

const OPERATORS = ['?//', '//=', '//', '|=', '+=', '-=', '*=', '/=', '%=', '==', '!=', '<=', '>=', '|', ',', '+', '-', '*', '/', '%', '=', '<', '>', '?', '[', ']', '{', '}', ':', ';'];
const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
const NUMBER = /(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/y;
const FORMAT = /@[A-Za-z0-9_]+/y;

function refuse(reason: string): never {
  throw new JqRefusal(reason);
}

function matchAt(pattern: RegExp, text: string, at: number): string | undefined {
  pattern.lastIndex = at;
  return pattern.exec(text)?.[0];
}

/** A string from its opening quote; returns the index after its closing quote. */
function scanString(text: string, start: number): number {
  for (let at = start + 1; ; ) {
    const ch = text[at];
    if (ch === undefined) refuse('a string is not terminated');
    if (ch === '"') return at + 1;
    if (ch !== '\\') {
      at += 1;
      continue;
    }
    const escaped = text[at + 1];
    if (escaped === undefined) refuse('a string ends in a backslash');
    // "\(...)" is jq code inside the string, checked like the rest.
    at = escaped === '(' ? scanCode(text, at + 2, true) : at + 2;
  }
}

function scanComment(text: string, start: number): number {
  let end = text.indexOf('\n', start);
  if (end === -1) end = text.length;
  // jq 1.7.1 continues a comment after a backslash at the end of its line, earlier versions do not.
  if (text[end - 1] === '\\') refuse('a comment ends in a backslash, which jq versions read differently');
  return end;
}

/** A name where a function, keyword or object key may stand; returns the index after it. */
function scanName(text: string, at: number): number {
  const name = matchAt(NAME, text, at)!;
  const end = at + name.length;
  if (text.startsWith('::', end)) refuse(`${name}:: names a module function, which needs import`);
  const refused = Object.hasOwn(REFUSED_NAMES, name) ? REFUSED_NAMES[name] : undefined;
  if (refused !== undefined) refuse(`${refused}; quote it ("${name}") if it is an object key`);
  return end;
}

/** ".", "..", ".name", ."name", or a number such as .5; returns the index after it. */
function scanDot(text: string, at: number): number {
  const number = matchAt(NUMBER, text, at);
  if (number !== undefined) return at + number.length;
  const field = matchAt(NAME, text, at + 1);
  // A field name is data: ".import" reads the key "import".
  if (field !== undefined) return at + 1 + field.length;
  return text[at + 1] === '.' ? at + 2 : at + 1;
}

/** Code from `start`; inside an interpolation, returns the index after its closing ")". */
function scanCode(text: string, start: number, interpolation: boolean): number {
  let depth = 0;
  let at = start;
  while (at < text.length) {
    const ch = text[at]!;
    if (ch === ' ' || ch === '\t' || ch === '\n') at += 1;
    else if (ch === '#') at = scanComment(text, at);
    else if (ch === '"') at = scanString(text, at);
    else if (ch === '.') at = scanDot(text, at);
    else if (/[0-9]/.test(ch)) at += matchAt(NUMBER, text, at)!.length;
    else if (/[A-Za-z_]/.test(ch)) at = scanName(text, at);
    else if (ch === '$') {
      const name = matchAt(NAME, text, at + 1);
      if (name === undefined) refuse('"$" must be followed by a variable name');
      at += 1 + name.length;
    } else if (ch === '@') {
      const format = matchAt(FORMAT, text, at);
      if (format === undefined) refuse('"@" must be followed by a format name (@csv, @sh...)');
      at += format.length;
    } else if (ch === '(') {
      depth += 1;
      at += 1;
    } else if (ch === ')') {
      if (depth === 0) {
        if (interpolation) return at + 1;
        refuse('a ")" has no matching "("');
      }
      depth -= 1;
      at += 1;
    } else {
      const operator = OPERATORS.find((o) => text.startsWith(o, at));
      if (operator === undefined) refuse(`${JSON.stringify(ch)} is not part of the jq zotbox reads`);
      at += operator.length;
    }
  }
  if (interpolation) refuse('a string interpolation \\( has no matching ")"');
  return at;
}

/** Why `filter` is refused, or undefined when it only processes data. */
export function findJqDenial(filter: string): string | undefined {
  if (/[\u0000-\u0008\u000b-\u001f\u007f]/.test(filter)) return 'the filter contains a control character';
  try {
    scanCode(filter, 0, false);
  } catch (error) {
    // Only the scanner's own refusals are expected; anything else is a bug and must not pass silently.
    if (error instanceof JqRefusal) return error.message;
    throw error;
  }
  return undefined;
}
