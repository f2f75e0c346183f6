// The public library API of zotbox: everything an embedder may import, nothing else.
// The CLI (src/cli.ts) is a thin user of exactly these exports.

/**
 * The one error class. Every failure carries a stable `code` (`ZB_...`) and a
 * message that says what went wrong and how to fix it.
 *
 * @example
 * ```ts
 * import { ZotboxError } from 'zotbox';
 * try { ... } catch (error) {
 *   if (error instanceof ZotboxError && error.code === 'ZB_CLI_USAGE') { ... }
 * }
 * ```
 */
export { ZotboxError, ERROR_CODES, isZotboxError, fromWireError } from './errors.js';
export type { ErrorCode, ErrorDetails, WireError } from './errors.js';

/** zotbox's version, and the zot version whose zotfile format it implements. */
export { ZOTBOX_VERSION, ZOT_COMPAT_VERSION } from './version.js';
