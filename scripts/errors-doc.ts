// Renders docs/errors.md from ERROR_CODES: one row per code, in registry order.
import { ERROR_CODES } from '../src/errors.js';

export function renderErrorsDoc(): string {
  const rows = Object.entries(ERROR_CODES).map(([code, info]) => `| \`${code}\` | ${info.exit} | ${info.summary} |`);
  return [
    '# Error codes',
    '',
    '<!-- Generated from src/errors.ts by `npm run docs:errors`; a test fails when this file is stale. -->',
    '',
    'Every error zotbox reports carries one of these stable codes. The CLI prints',
    '`zotbox: error[CODE]: message` on one line (add `--debug` or `ZOTBOX_DEBUG=1` for the',
    'stack trace and causes) and exits with the status shown. Library callers get a',
    '`ZotboxError` with the same `code`, a `message` that says what went wrong and how to',
    'fix it, and JSON-safe `details` (camelCase keys); with `--json` the CLI prints the',
    'error as one line `{"type":"error","code":…,"message":…,"details":{…}}`, its detail',
    'keys snake_case like every field it prints. Codes are never renamed or reused.',
    '',
    '| code | exit | meaning |',
    '|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
