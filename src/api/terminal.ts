// Public API entry: text for a terminal (the sanitizer, and control-character
// escapes for one-line fields). Re-exports only; light, since every command's
// error path prints through it.
export { TerminalTextSanitizer, sanitizeTerminalText, type TerminalTextOptions } from '../policy/terminal-text.js';
export { escapeControlCharacters } from '../host/consent/consent-text.js';
