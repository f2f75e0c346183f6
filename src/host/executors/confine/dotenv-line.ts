// One line of a dotenv file read as direnv's `dotenv` reads it (direnv's pkg/dotenv, the grammar of bkeepers/dotenv):
// `[export ]KEY=VALUE` (also `KEY = VALUE` and `KEY: VALUE`, a key of letters, digits, "_" and "."), then blanks and
// an optional `#` comment. An unquoted value ends at a blank or `#`; a quoted value runs from its quote to the last
// same quote after which only blanks and a comment follow. A single-quoted value is taken as written; a double-quoted
// one has `\n`, `\r` and then every `\X` but `\$` turned into X; every value but a single-quoted one has $NAME,
// ${NAME} and ${NAME:-DEFAULT} expanded as Go's os.Expand does (a name the file set before wins, even set empty).
// Closed world: a line direnv refuses, or one direnv versions read differently, comes back unresolved.

/** What a dotenv line gives: nothing (blank, comment), an assignment, or why zotbox cannot read it. */
export type DotenvLine =
  | { readonly kind: 'none' }
  | { readonly kind: 'assignment'; readonly name: string; readonly value: string; readonly written: string; readonly quote: '' | "'" | '"' }
  | { readonly kind: 'unresolved'; readonly why: string }
  | { readonly kind: 'outside'; readonly name: string; readonly variable: string };

/** Go's regexp `\s`: ASCII blanks only (not \v, not Unicode spaces). */
const BLANK = '[\\t\\n\\f\\r ]';
const COMMENT_OR_BLANK = new RegExp(`^${BLANK}*(?:#[^\\n]*)?$`, 'u');
const ASSIGNMENT = new RegExp(`^${BLANK}*(?:export${BLANK}+)?([0-9A-Za-z_.]+)(?:${BLANK}*=${BLANK}*|:${BLANK}+?)('[^]*'|"[^]*"|[^\\t\\n\\f\\r #]+)?${BLANK}*(?:#[^\\n]*)?$`, 'u');
/** The one-character names os.Expand takes after "$" (`$1`, `$$`, `${?}`). */
const SPECIAL = /^[*#$@!?0-9-]$/u;

/**
 * A value's $-expansions as direnv makes them; `lookup` gives a name's value, or undefined when zotbox cannot know
 * it (then the result names that variable).
 */
function expand(value: string, lookup: (name: string) => string | undefined): { value: string } | { outside: string } {
  let out = '';
  for (let at = 0; at < value.length; at++) {
    const letter = value[at]!;
    if (letter !== '$' || at + 1 === value.length) {
      out += letter;
      continue;
    }
    const rest = value.slice(at + 1);
    let name: string;
    let width: number;
    if (rest.startsWith('{')) {
      const close = SPECIAL.test(rest[1] ?? '') && rest[2] === '}' ? 2 : rest.indexOf('}');
      // `${}` and an unclosed `${` are dropped, what follows them kept.
      if (close === -1 || close === 1) {
        at += close === -1 ? 1 : 2;
        continue;
      }
      name = rest.slice(1, close);
      width = close + 1;
    } else if (SPECIAL.test(rest[0]!)) {
      name = rest[0]!;
      width = 1;
    } else {
      name = /^[A-Za-z0-9_]*/u.exec(rest)![0];
      width = name.length;
      if (name === '') {
        out += '$';
        continue;
      }
    }
    const found = lookup(name);
    if (found === undefined) return { outside: name };
    out += found;
    at += width;
  }
  return { value: out };
}

/**
 * One line of a dotenv file (no line break in it, direnv breaks lines at \r too); `known` holds what the file set
 * before, and PWD (the file's directory). A variable set outside the file and not known gives `outside`.
 */
export function dotenvLine(line: string, known: ReadonlyMap<string, string>): DotenvLine {
  if (COMMENT_OR_BLANK.test(line)) return { kind: 'none' };
  // A quote opening a value and never closing on its line: direnv 2.33 and later read the lines after it into the
  // value, 2.32 reads the quote as a letter of an unquoted value; what the file sets then differs.
  const separator = line.search(/[=:]/u);
  if (separator > 0 && separator + 1 < line.length) {
    const after = line.slice(separator + 1).replace(/^[ \t]+/u, '');
    const quote = after[0];
    if ((quote === '"' || quote === "'") && after.split(quote).length === 2)
      return { kind: 'unresolved', why: `a ${quote} that does not close on its line (direnv versions read such a value differently)` };
  }
  const match = ASSIGNMENT.exec(line);
  if (match === null) return { kind: 'unresolved', why: 'not a line direnv reads (a value with a blank in it must be quoted)' };
  const name = match[1]!;
  const written = match[2] ?? '';
  if (written.length <= 1) return { kind: 'assignment', name, value: written, written, quote: '' };
  const first = written[0]!;
  const quoted = (first === "'" || first === '"') && written.endsWith(first) ? first : '';
  if (quoted === "'") return { kind: 'assignment', name, value: written.slice(1, -1), written, quote: quoted };
  let raw = written;
  if (quoted === '"')
    raw = written
      .slice(1, -1)
      .split('\\n')
      .join('\n')
      .split('\\r')
      .join('\r')
      .replace(/\\([^$])/gu, '$1');
  const expanded = expand(raw, (reference) => {
    const split = reference.indexOf(':-');
    const variable = split === -1 ? reference : reference.slice(0, split);
    const fallback = split === -1 ? '' : reference.slice(split + 2);
    if (known.has(variable)) return known.get(variable);
    // The variable's own value from outside ($PATH in PATH=bin:$PATH) is the user's: it names nothing here; its
    // default, used when that is empty, is taken as written.
    if (variable === name) return fallback;
    return undefined;
  });
  if ('outside' in expanded) return { kind: 'outside', name, variable: expanded.outside.split(':-')[0]! };
  return { kind: 'assignment', name, value: expanded.value, written, quote: quoted };
}
