// Escaping for text from a report (names, reasons: a model may have written them)
// placed inline in GitHub-flavoured Markdown: in a table cell, a heading or a
// list item it must stay one line of plain text, never markup, HTML or a link.
// GitHub also links bare URLs, www. names and e-mail addresses, and turns @name
// into a mention that notifies (adversarial14b/markdown-links): a zero-width space
// after "@", inside "://" and after "www" keeps them text, and reads the same.
// Two "$" on a line are TeX math on GitHub (adversarial-s32e/summary-math): "$" is
// escaped as the other punctuation is.

const MAX_INLINE_CHARS = 500;
const ZERO_WIDTH_SPACE = '\u200b';

/** One line of literal text: HTML-escaped, Markdown punctuation backslash-escaped, line breaks as spaces, controls as \uXXXX, clipped. */
export function escapeMarkdownInline(text: string): string {
  const clipped = text.length <= MAX_INLINE_CHARS ? text : `${text.slice(0, MAX_INLINE_CHARS)}…`;
  return clipped
    .replace(/\r\n|[\r\n\u2028\u2029]/g, ' ')
    .replace(/\t/g, ' ')
    .replace(/[\u0000-\u001f\u007f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`)
    .replace(/[\\`*_[\]|~#!()$]/g, (char) => `\\${char}`)
    .replace(/[&<>]/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[char]!)
    .replace(/@/g, `@${ZERO_WIDTH_SPACE}`)
    .replace(/:\/\//g, `:${ZERO_WIDTH_SPACE}//`)
    .replace(/www\./gi, (match) => `${match.slice(0, 3)}${ZERO_WIDTH_SPACE}.`);
}
