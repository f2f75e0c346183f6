// Which lines of a shell script surely run at its top level, once, in order: not inside an `if`, `case`, loop,
// function body, brace group or subshell, nor in a here-document's body. Read by counting openers and closers on each
// line (quotes, `${…}` and `$(…)` taken out first); where the count cannot be trusted (more closers than openers, an
// unclosed here-document), no later line counts as top level. Pure, no I/O: fewer lines are top level, never more.

const OPENERS = /(?:^|[\s;&|()])(?:if|case|while|until|for|select)(?=\s|$|;)/gu;
const CLOSERS = /(?:^|[\s;&|()])(?:fi|esac|done)(?=\s|$|;|\))/gu;

/** For each line of `code`, whether it surely runs at the top level (see the head of this file). */
export function topLevelLines(code: string): boolean[] {
  const lines = code.split('\n');
  const top: boolean[] = [];
  let depth = 0;
  let trusted = true;
  let hereDocument: string | undefined;
  for (const line of lines) {
    if (hereDocument !== undefined) {
      top.push(false);
      if (line.replace(/^\t+/u, '') === hereDocument) hereDocument = undefined;
      continue;
    }
    top.push(trusted && depth === 0);
    const plain = plainText(line);
    // A brace or parenthesis counts standing alone (a group, a subshell, a function's body): `a)` in a case arm and
    // `((` do not.
    const opened = (plain.match(OPENERS) ?? []).length + (plain.match(/(?<=^|[\s;&|])[({](?=\s|$)/gu) ?? []).length;
    const closed = (plain.match(CLOSERS) ?? []).length + (plain.match(/(?<=^|[\s;&|])[)}](?=\s|$|;|&|\|)/gu) ?? []).length;
    depth += opened - closed;
    if (depth < 0) trusted = false;
    const delimiter = /<<-?\s*(["']?)([\w.-]+)\1/u.exec(line.replace(/<<</gu, ''));
    if (delimiter !== null) hereDocument = delimiter[2];
  }
  if (hereDocument !== undefined) return top.map(() => false);
  return top;
}

/** A line with its quotes' contents, `${…}`, `$(…)`, `$((…))` and a trailing comment taken out. */
function plainText(line: string): string {
  let plain = line.replace(/'[^']*'|"(?:[^"\\]|\\.)*"/gu, '""');
  for (let pass = 0; pass < 4; pass++) plain = plain.replace(/\$\{[^{}]*\}|\$\(\([^()]*\)\)|\$\([^()]*\)|`[^`]*`/gu, 'x');
  return plain.replace(/(?:^|\s)#.*$/u, '');
}
