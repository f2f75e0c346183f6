// The options a process call sets (`{ cwd: "x" }`, `cwd="x"`, Ruby's `chdir: "x"`), where they are written in the call
// or held by a name (`const opts = { cwd: "scripts" }; execFileSync("sh", ["lint.sh"], opts)`, Python's `**kw`), spread
// in (`{ ...base }`) or set on it (`opts.cwd = "x"`). Closed world: an options value zotbox cannot spell out (a name
// bound to no object written out, `Object.assign`, a computed key) may set any option, so it is UNKNOWN. Pure.
import { bindingValues, expressionFrom, listPieces, UNKNOWN, type ValueSource } from './program-command-values.js';

const escape = (name: string) => name.replace(/\$/gu, '\\$');
/** How far names are followed (an options object spread into another). */
const MAX_DEPTH = 4;

/** The values an object or dict written out gives the option (`{ cwd: x }`, `dict(cwd=x)`), its spreads followed. */
function objectValues(written: string, names: readonly string[], source: ValueSource, depth: number): string[] | undefined {
  const text = written.trim();
  const dict = /^dict\s*\(/u.exec(text);
  if (!text.startsWith('{') && dict === null) return undefined;
  const values: string[] = [];
  for (const entry of listPieces(text, dict === null ? 0 : dict[0].length - 1, source.skip)) {
    const spread = /^\s*(?:\.\.\.|\*\*)([\s\S]*)$/u.exec(entry);
    if (spread !== null) {
      values.push(...heldValues(spread[1]!, names, source, depth + 1));
      continue;
    }
    // A computed key (`[key]: x`) may be any option.
    if (/^\s*\[/u.test(entry)) values.push(UNKNOWN);
    for (const name of names) {
      const property = new RegExp(String.raw`^\s*:?["']?${name}["']?\s*(?::|=>|=(?!=))([\s\S]*)$`, 'u').exec(entry);
      if (property !== null) values.push(property[1]!);
      else if (entry.trim() === name) values.push(name); // `{ cwd }`: a variable's value
    }
  }
  return values;
}

/** What an options value held by an expression (a name, an object) gives the option; UNKNOWN where it cannot be spelled out. */
function heldValues(expression: string, names: readonly string[], source: ValueSource, depth: number): string[] {
  const written = objectValues(expression, names, source, depth);
  if (written !== undefined) return written;
  const name = /^\s*([A-Za-z_$][\w$]*)\s*$/u.exec(expression)?.[1];
  if (name === undefined || depth > MAX_DEPTH) return [UNKNOWN];
  const bound = bindingValues(name, source);
  if (bound.length === 0) return [UNKNOWN];
  const values = bound.flatMap((value) => (value === UNKNOWN ? [UNKNOWN] : heldValues(value, names, source, depth + 1)));
  // Set on it afterwards: `opts.cwd = x`, `kw["cwd"] = x`; changed in ways zotbox does not read: any option.
  const n = escape(name);
  // Where the object as written does not set it, a later set may not be made (a branch): unset is a value too.
  const asWritten = values.length;
  for (const option of names)
    for (const match of source.skeleton.matchAll(new RegExp(String.raw`(?<![\w$.])${n}\s*(?:\.\s*${option}|\[\s*["']${option}["']\s*\])\s*=(?!=)`, 'gu'))) {
      const at = match.index + match[0].length;
      values.push(expressionFrom(source.clean, at, source.skip));
      if (asWritten === 0 && !values.includes('undefined')) values.push('undefined');
    }
  if (new RegExp(String.raw`Object\s*\.\s*assign\s*\(\s*${n}\b|(?<![\w$.])${n}\s*\.\s*(?:update|setdefault)\s*\(|(?<![\w$.])${n}\s*\[\s*[^\s"'\]]`, 'u').test(source.skeleton)) values.push(UNKNOWN);
  return values;
}

/**
 * The expressions a call's option `names` may have among its option pieces (`{ cwd: "x" }`, `cwd="x"`, `opts`,
 * `**kw`); UNKNOWN where an options value may set it and zotbox cannot spell it out; empty where nothing sets it.
 */
export function optionValues(pieces: readonly string[], names: readonly string[], source: ValueSource): string[] {
  const values: string[] = [];
  for (const piece of pieces) {
    let keyword: RegExpExecArray | null = null;
    for (const name of names) keyword ??= new RegExp(String.raw`^\s*${name}\s*[=:](?!=)([\s\S]*)$`, 'u').exec(piece);
    if (keyword !== null) values.push(keyword[1]!);
    else if (/^\s*\{/u.test(piece)) values.push(...(objectValues(piece, names, source, 0) ?? []));
    else if (/^\s*\*\*/u.test(piece)) values.push(...heldValues(piece.replace(/^\s*\*\*/u, ''), names, source, 1));
    else if (/^\s*[A-Za-z_$][\w$]*\s*$/u.test(piece) && !/^\s*(?:undefined|null|None|nil|true|false|True|False)\s*$/u.test(piece)) values.push(...heldValues(piece, names, source, 1));
  }
  return values;
}
