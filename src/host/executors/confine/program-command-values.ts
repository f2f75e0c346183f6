// The values a name of a file of program code may hold, where the code spells them out: each expression assigned to
// it (`const NPX = "npx"`, `cmd = "npx acme-lint"`), each element of the list a loop walks (`for (const step of
// [...])`, `for cmd in [...]:`, `steps.forEach((step) => …)`), each argument the call sites of a local function pass
// for its parameter (`run("npx acme-lint")`, `sh(cmd="…")`). Closed world: a source zotbox cannot follow (a function
// passed on or exported, a spread, `+=`) is UNKNOWN, never left out. By name across the file (no scopes): more values,
// never fewer. Pure: the caller reads each value as an expression in turn.

/** A value zotbox cannot follow: an expression no literal reading spells out. */
export const UNKNOWN = '<computed>';

const escape = (name: string) => name.replace(/\$/gu, '\\$');

type LiteralSkip = (text: string, at: number) => number | undefined;

/**
 * Walks `code` from `from` with literals skipped by `skip` and brackets counted, and returns the index of the first
 * character outside brackets opened on the way for which `stopsAt` holds, of the bracket that closes around `from`, or
 * the end of the code.
 */
function topLevelStop(code: string, from: number, skip: LiteralSkip, stopsAt: (c: string, index: number) => boolean): number {
  let depth = 0;
  for (let index = from; index < code.length; index++) {
    const end = skip(code, index);
    if (end !== undefined) {
      index = end - 1;
      continue;
    }
    const c = code[index]!;
    if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) {
      if (depth === 0) return index;
      depth--;
    } else if (depth === 0 && stopsAt(c, index)) return index;
  }
  return code.length;
}

/**
 * The expression that starts at `from` in `code` (literals skipped by `skip`), up to a `;`, `,` or line end at its own
 * depth (a line ending in `+` or a bracket still open goes on), or the bracket that closes around it.
 */
export function expressionFrom(code: string, from: number, skip: LiteralSkip): string {
  const endsExpression = (c: string, index: number) => c === ';' || c === ',' || (c === '\n' && !/[+\\]\s*$/u.test(code.slice(from, index)) && code.slice(from, index).trim() !== '');
  return code.slice(from, topLevelStop(code, from, skip, endsExpression));
}

/** The top-level pieces of a bracketed list whose opening bracket is at `open` (none when it never closes). */
export function listPieces(code: string, open: number, skip: LiteralSkip): string[] {
  const pieces: string[] = [];
  for (let start = open + 1; ; ) {
    const end = topLevelStop(code, start, skip, (c) => c === ',');
    if (end === code.length) return [];
    pieces.push(code.slice(start, end));
    if (code[end] !== ',') return pieces.filter((piece) => piece.trim() !== '');
    start = end + 1;
  }
}

/** How the values are read: the comment-free code, its skeleton (literal texts blanked, for matching), and a literal skipper. */
export interface ValueSource {
  readonly clean: string;
  readonly skeleton: string;
  readonly skip: LiteralSkip;
}

/** The elements of a list expression (`["a", "b"]`, Python's `("a", "b")`, Perl's `qw(a b)`), or undefined for another expression. */
export function elementsOf(expression: string, source: Pick<ValueSource, 'skip'>): string[] | undefined {
  const trimmed = expression.trim();
  const words = /^qw\s*[([{/]([^)\]}/]*)[)\]}/]$/u.exec(trimmed);
  if (words !== null)
    return words[1]!
      .split(/\s+/u)
      .filter((word) => word !== '')
      .map((word) => `'${word}'`);
  if (!/^[[(]/u.test(trimmed) || !/[\])]$/u.test(trimmed)) return undefined;
  const elements = listPieces(trimmed, 0, source.skip);
  return elements.map((element) => (/^\s*(?:\.\.\.|\*)/u.test(element) ? UNKNOWN : element));
}

/** What a loop variable takes: each element of the list the loop walks (a name of a list is followed once). */
function loopValues(list: string, source: ValueSource): string[] {
  const direct = elementsOf(list, source);
  if (direct !== undefined) return direct;
  const name = /^\s*([$@]?[A-Za-z_$][\w$]*)\s*$/u.exec(list)?.[1];
  if (name === undefined) return [UNKNOWN];
  const assigned = assignedValues(name.replace(/^@/u, '@'), source);
  if (assigned.length === 0) return [UNKNOWN];
  return assigned.flatMap((value) => elementsOf(value, source) ?? [UNKNOWN]);
}

/**
 * The expressions assigned to `name` (`const x = …`, `x = …`, Perl's `my $x = …`); `+=` and the like are UNKNOWN
 * (`augmented: 'skip'`: left out, for a list reading that takes `+=` as an addition: see listChanges).
 */
function assignedValues(name: string, source: ValueSource, augmented: 'unknown' | 'skip' = 'unknown'): string[] {
  const values: string[] = [];
  const assignment = new RegExp(String.raw`(?<![\w$@.])${escape(name)}\s*(?::\s*[\w\[\], |]+)?\s*([-+*/|&.]?)=(?![=>~])`, 'gu');
  for (const match of source.skeleton.matchAll(assignment)) {
    // A keyword argument (`f(cmd="x")`), a default (`def f(cmd="x")`) or a place in a list taken apart (`a, *rest =`:
    // destructuredValues) is no assignment of the name.
    const before = source.skeleton.slice(Math.max(0, match.index - 200), match.index);
    if (/[(,]\s*\*?\s*$/u.test(before) && !/(?:const|let|var|my|our)\s*\(?\s*$/u.test(before)) continue;
    if (match[1] !== '') {
      if (augmented === 'unknown' || match[1] !== '+') values.push(UNKNOWN);
    } else values.push(expressionFrom(source.clean, match.index + match[0].length, source.skip));
  }
  return values;
}

/** The receiver of a method call whose "." is at `dot`: a name, or a list written out (`[...].forEach`); UNKNOWN else. */
function receiverBefore(source: ValueSource, dot: number): string {
  const before = source.skeleton.slice(0, dot).trimEnd();
  const last = before.at(-1);
  if (last !== ']' && last !== ')') return /([$@]?[A-Za-z_$][\w$]*)$/u.exec(before)?.[1] ?? UNKNOWN;
  let depth = 0;
  for (let open = before.length - 1; open >= 0; open--) {
    const c = before[open]!;
    if (c === ']' || c === ')') depth++;
    // A list written out; one a call returns (`Object.values(x).forEach`) is computed.
    else if ((c === '[' || c === '(') && --depth === 0) return /[\w$)\]]\s*$/u.test(before.slice(0, open)) ? UNKNOWN : source.clean.slice(open, before.length);
  }
  return UNKNOWN;
}

/** The values of loops over `name`: JavaScript's for…of and forEach/map, Python's for…in, Ruby's each, Perl's foreach. */
function loopSources(name: string, source: ValueSource): string[] {
  const values: string[] = [];
  const n = escape(name);
  const headers = [
    new RegExp(String.raw`\bfor\s*(?:await\s*)?\(\s*(?:const|let|var)?\s*${n}\s+of\b`, 'gu'),
    new RegExp(String.raw`\bfor\s+${n}\s+in\b`, 'gu'),
    new RegExp(String.raw`\bfor(?:each)?\s+(?:my\s+)?${n}\s*(?=\()`, 'gu'),
  ];
  for (const [kind, header] of headers.entries())
    for (const match of source.skeleton.matchAll(header)) {
      const from = match.index + match[0].length;
      if (kind === 0) values.push(...loopValues(expressionFrom(source.clean, from, source.skip), source));
      else if (kind === 1) {
        const colon = source.skeleton.indexOf(':', from);
        values.push(...loopValues(source.clean.slice(from, colon === -1 ? undefined : colon), source));
      } else {
        // Perl's `foreach my $x (LIST)`: the list's pieces, a single array name followed.
        const pieces = listPieces(source.clean, from, source.skip);
        values.push(...(pieces.length === 1 && /^\s*@\w+\s*$/u.test(pieces[0]!) ? loopValues(pieces[0]!, source) : pieces));
      }
    }
  // `list.forEach((name) => …)`, `list.map(function (name) …)`, Ruby's `list.each do |name|`.
  const callbacks = new RegExp(
    String.raw`\.\s*(?:forEach|map|flatMap|filter|some|every|each|each_with_index)\s*(?:\(\s*(?:async\s+)?(?:\(\s*${n}\s*[,)]|${n}\s*=>|function\s*\w*\s*\(\s*${n}\s*[,)])|(?:do|\{)\s*\|\s*${n}\s*[,|])`,
    'gu',
  );
  for (const match of source.skeleton.matchAll(callbacks)) values.push(...loopValues(receiverBefore(source, match.index), source));
  return values;
}

/** A function definition's name and parameter list: JavaScript's function/arrow, Python's and Ruby's def. */
const DEFINITIONS =
  /(?:\bfunction\s*\*?\s*([A-Za-z_$][\w$]*)\s*\(|\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s+)?(?:function\s*\*?\s*[\w$]*\s*)?\(|\bdef\s+(?:self\.)?([A-Za-z_]\w*[?!]?)\s*\(|\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s+)?([A-Za-z_$][\w$]*)\s*=>)/gu;

/** A parameter's name as written (`cmd`, `cmd = "x"`, `cmd: str`, `cmd: string = "x"`), and its default. */
function parameterOf(piece: string): { name: string; fallback?: string } {
  const [, name = '', fallback] = /^\s*(?:\.\.\.|\*{1,2})?([$\w]*)\s*(?::[^=]*)?(?:=([\s\S]*))?$/u.exec(piece) ?? [];
  return { name: /^[*.]/u.test(piece.trim()) ? `*${name}` : name, ...(fallback === undefined ? {} : { fallback }) };
}

/** What each call site of the local functions that take `name` as a parameter passes for it. */
function parameterSources(name: string, source: ValueSource): string[] {
  const values: string[] = [];
  for (const match of source.skeleton.matchAll(DEFINITIONS)) {
    const function_ = match[1] ?? match[2] ?? match[3] ?? match[4]!;
    const parameters = match[5] !== undefined ? [match[5]] : listPieces(source.clean, match.index + match[0].length - 1, source.skip);
    const position = parameters.findIndex((piece) => parameterOf(piece).name === name);
    if (position === -1) continue;
    const { fallback } = parameterOf(parameters[position]!);
    // Every other mention of the function: a call (its argument read), or a use zotbox cannot follow (passed on, exported).
    const mentions = new RegExp(String.raw`(?<![\w$.])${escape(function_)}(?![\w$])`, 'gu');
    let calls = 0;
    for (const mention of source.skeleton.matchAll(mentions)) {
      if (mention.index >= match.index && mention.index < match.index + match[0].length) continue;
      const after = /^\s*\(/u.exec(source.skeleton.slice(mention.index + function_.length));
      const before = source.skeleton.slice(Math.max(0, mention.index - 20), mention.index);
      if (after === null || /\b(?:export\s+(?:default\s+)?|exports\.\s*)$/u.test(before)) {
        values.push(UNKNOWN);
        continue;
      }
      calls++;
      const pieces = listPieces(source.clean, mention.index + function_.length + after[0].length - 1, source.skip);
      const keyword = pieces.find((piece) => new RegExp(String.raw`^\s*${escape(name)}\s*=(?!=)`, 'u').test(piece));
      const given = keyword?.replace(/^[^=]*=/u, '') ?? (pieces.slice(0, position).some((piece) => /^\s*(?:\.\.\.|\*)/u.test(piece)) ? UNKNOWN : pieces[position]);
      if (given !== undefined && !/^\s*\w+\s*=(?!=)/u.test(given)) values.push(/^\s*(?:\.\.\.|\*)/u.test(given) ? UNKNOWN : given);
      else if (fallback !== undefined) values.push(fallback);
    }
    if (calls === 0 || /\bexport\s+(?:default\s+)?(?:async\s+)?$/u.test(source.skeleton.slice(Math.max(0, match.index - 30), match.index))) values.push(UNKNOWN);
  }
  return values;
}

/**
 * The expressions `name` may hold in the file: assigned, walked by a loop, passed for a parameter. Empty where the file
 * binds no such name (a global, an import: the caller takes it as computed).
 */
export function bindingValues(name: string, source: ValueSource): string[] {
  return [...assignedValues(name, source), ...loopSources(name, source), ...parameterSources(name, source), ...destructuredValues(name, source)];
}

/** The same, for a name read as a list: `+=` is an addition the list reading takes from listChanges. */
export function listBindingValues(name: string, source: ValueSource): string[] {
  return [...assignedValues(name, source, 'skip'), ...loopSources(name, source), ...parameterSources(name, source), ...destructuredValues(name, source)];
}

/**
 * What `name` takes where a list is taken apart (`const [cmd, ...args] = LIST`, Python's `cmd, *args = LIST`): the
 * element at its place or the rest (`LIST[i]`, `LIST.slice(i)` of a name; the elements of a list written out), UNKNOWN
 * where the place cannot be counted (after a spread) or the list is another expression.
 */
function destructuredValues(name: string, source: ValueSource): string[] {
  const values: string[] = [];
  const patterns = /(?:(?:const|let|var)\s*\[([^\]=]*)\]|(?:^|[;{])[ \t]*\[([^\]=]*)\]|^[ \t]*\(?((?:\*?[A-Za-z_]\w*\s*,\s*)+\*?[A-Za-z_]\w*)\s*,?\s*\)?)\s*=(?![=>])/gmu;
  for (const match of source.skeleton.matchAll(patterns)) {
    const targets = (match[1] ?? match[2] ?? match[3]!).split(',').map((target) => target.trim().replace(/\s*=[\s\S]*$/u, ''));
    const position = targets.findIndex((target) => target.replace(/^(?:\.\.\.|\*)/u, '') === name);
    if (position === -1) continue;
    const rest = /^(?:\.\.\.|\*)/u.test(targets[position]!);
    const list = expressionFrom(source.clean, match.index + match[0].length, source.skip).trim();
    if (targets.slice(0, position).some((target) => /^(?:\.\.\.|\*)/u.test(target))) values.push(UNKNOWN);
    else if (/^[A-Za-z_$][\w$]*$/u.test(list)) values.push(rest ? `${list}.slice(${position})` : `${list}[${position}]`);
    else {
      const elements = /^\[[\s\S]*\]$/u.test(list) ? listPieces(list, 0, source.skip) : undefined;
      if (elements === undefined || elements.slice(0, position).some((element) => /^\s*(?:\.\.\.|\*)/u.test(element))) values.push(UNKNOWN);
      else values.push(rest ? `[${elements.slice(position).join(',')}]` : (elements[position] ?? UNKNOWN));
    }
  }
  return values;
}

/** How the file changes a list held by a name in place: elements added at its end, elements put anywhere, its order. */
export interface ListChanges {
  /** Elements pushed, appended, extended or `+=`ed on (a spread `...x` for a list's elements). */
  readonly appended: readonly string[];
  /** Elements put at its start or anywhere (`unshift`, `insert`, `splice`, `list[i] = x`). */
  readonly placed: readonly string[];
  /** An element may be taken out or the order changed (`shift`, `pop`, `reverse`, `sort`, `del`): the first may be any. */
  readonly reordered: boolean;
}

/** The in-place changes the file makes to the list `name` holds, by name across the file (more, never fewer). */
export function listChanges(name: string, source: ValueSource): ListChanges {
  const appended: string[] = [];
  const placed: string[] = [];
  let reordered = false;
  const n = escape(name);
  for (const match of source.skeleton.matchAll(new RegExp(String.raw`(?<![\w$@.])${n}\s*\.\s*([A-Za-z_$][\w$]*)\s*\(`, 'gu'))) {
    const pieces = listPieces(source.clean, match.index + match[0].length - 1, source.skip);
    const method = match[1]!;
    if (method === 'push' || method === 'append') appended.push(...(method === 'push' ? pieces : pieces.slice(0, 1)));
    else if (method === 'extend') appended.push(...pieces.slice(0, 1).map((piece) => `...${piece.trim()}`));
    else if (method === 'unshift') placed.push(...pieces);
    else if (method === 'insert') placed.push(...pieces.slice(1, 2));
    else if (method === 'splice') {
      placed.push(...pieces.slice(2));
      reordered = true;
    } else if (/^(?:shift|pop|reverse|sort|remove|clear|fill|copyWithin)$/u.test(method)) reordered = true;
  }
  // `list += [...]` (Python, Ruby) adds at the end; `list[i] = x`, `list[i:j] = [...]`, `del list[i]` put or take anywhere.
  for (const match of source.skeleton.matchAll(new RegExp(String.raw`(?<![\w$@.])${n}\s*\+=`, 'gu')))
    appended.push(`...${expressionFrom(source.clean, match.index + match[0].length, source.skip).trim()}`);
  for (const match of source.skeleton.matchAll(new RegExp(String.raw`(?<![\w$@.])${n}\s*\[([^\]]*)\]\s*=(?!=)`, 'gu'))) {
    const value = expressionFrom(source.clean, match.index + match[0].length, source.skip).trim();
    placed.push(match[1]!.includes(':') ? `...${value}` : value);
  }
  if (new RegExp(String.raw`\bdel\s+${n}\s*\[|(?<![\w$@.])${n}\s*\.\s*length\s*=(?!=)`, 'u').test(source.skeleton)) reordered = true;
  return { appended, placed, reordered };
}
