// A loop over literal top-level module names, each asked for with find_spec (review s25n over-denial 5): `for mod in
// ("black", "isort"): find_spec(mod)`. The loop's name is one of its literals there, as a constant is (constantsWritten
// in python-code-runners.ts); only find_spec's own argument is rewritten, so every other loader still refuses it. Pure.

/** `for NAME in ("a", "b"):` (or a list, or no brackets) over plain-word string literals, on a line of its own. */
const LOOP_HEADER = /^[ \t]*for[ \t]+([A-Za-z_]\w{2,})[ \t]+in[ \t]+[([]?(?:[ \t]*[rRuU]?(?:"\w+"|'\w+')[ \t]*,)*[ \t]*[rRuU]?(?:"\w+"|'\w+')[ \t]*,?[ \t]*[)\]]?[ \t]*:/gmu;

/**
 * `code` with find_spec's argument written as a literal of its length where it is a loop name over literal plain
 * names, and the name cannot be anything else: the `for` is its one mention outside find_spec's sole argument and
 * f-string fields (`{mod}`), so nothing rebinds it (no assignment, walrus, parameter, global, del, second loop), and
 * nothing reaches it by a string (no `__main__`, exec, eval or compile, no string that is the name). `text` is the
 * code with strings and comments blanked (f-string fields kept). Names under three characters stay names.
 */
export function loopNamesWritten(code: string, text: string): string {
  if (/\b(?:__main__|exec|eval|compile)\b/u.test(text)) return code;
  let written = code;
  for (const header of code.matchAll(LOOP_HEADER)) {
    const name = header[1]!;
    const nameAt = header.index + header[0].indexOf(name, header[0].indexOf('for') + 3);
    // A string that is the name binds it unseen (`setattr(module, "mod", …)`). A header inside a string binds
    // nothing; the real binding is then a mention that keeps the refusal.
    if (new RegExp(String.raw`(["'])${name}\1`, 'u').test(code)) continue;
    const mentions = [...text.matchAll(new RegExp(String.raw`(?<![\w.])${name}(?![\w"'])`, 'gu'))].filter((mention) => mention.index !== nameAt);
    const asked = mentions.filter((mention) => findSpecArgument(text, mention.index, name));
    if (asked.length === 0 || !mentions.every((mention) => asked.includes(mention) || formatField(text, mention.index, name))) continue;
    for (const mention of asked) written = `${written.slice(0, mention.index)}"${'x'.repeat(name.length - 2)}"${written.slice(mention.index + name.length)}`;
  }
  return written;
}

/** Whether the name at `at` is the sole argument of a find_spec call (not a `def find_spec(name)` parameter). */
function findSpecArgument(text: string, at: number, name: string): boolean {
  const before = text.slice(Math.max(0, at - 60), at);
  return /\bfind_spec\s*\(\s*$/u.test(before) && !/\bdef\s+find_spec\s*\(\s*$/u.test(before) && /^\s*\)/u.test(text.slice(at + name.length));
}

/** Whether the name at `at` is an f-string field of its own (`{mod}`, `{mod!r}`): read, never bound. */
function formatField(text: string, at: number, name: string): boolean {
  return /\{\s*$/u.test(text.slice(Math.max(0, at - 10), at)) && /^\s*(?:![rsa])?\s*\}/u.test(text.slice(at + name.length));
}
