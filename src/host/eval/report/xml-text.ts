// Escaping for XML 1.0 text and attribute values (the JUnit reporter). A model's
// text goes in here: it must never end an element, open one, or hold a character
// XML 1.0 forbids (a parser would refuse the whole file). No CDATA, so `]]>` is inert.

// Everything outside XML 1.0's Char production: controls other than tab/LF/CR, lone surrogates, U+FFFE and U+FFFF.
const FORBIDDEN = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Replaces each character XML 1.0 cannot hold with a visible `\uXXXX`. */
export function replaceForbiddenXmlCharacters(text: string): string {
  return text.replace(FORBIDDEN, (char) => `\\u${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);
}

const TEXT_ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#13;' };
// In an attribute a parser turns tab, LF and CR into spaces unless they are character references.
const ATTRIBUTE_ENTITIES: Readonly<Record<string, string>> = { ...TEXT_ENTITIES, '"': '&quot;', "'": '&apos;', '\t': '&#9;', '\n': '&#10;' };

/** Element content: `&`, `<`, `>` (so `]]>` cannot appear) and CR (which parsers would fold into LF). */
export function escapeXmlText(text: string): string {
  return replaceForbiddenXmlCharacters(text).replace(/[&<>\r]/g, (char) => TEXT_ENTITIES[char]!);
}

/** A double- or single-quoted attribute value, whitespace kept as written. */
export function escapeXmlAttribute(text: string): string {
  return replaceForbiddenXmlCharacters(text).replace(/[&<>"'\t\n\r]/g, (char) => ATTRIBUTE_ENTITIES[char]!);
}
