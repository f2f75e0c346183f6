// Writes docs/errors.md from the error-code registry (npm run docs:errors).
// test/docs.test.ts fails when the committed file differs from this output.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderErrorsDoc } from './errors-doc.js';

const target = fileURLToPath(new URL('../../docs/errors.md', import.meta.url));
writeFileSync(target, renderErrorsDoc());
process.stdout.write(`wrote ${target}\n`);
