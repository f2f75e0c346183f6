// Writes the argument-rules section of docs/permissions.md (npm run docs:rules).
// test/docs.test.ts fails when the committed section differs from this output.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { withRulesSection } from './rules-doc.js';

const target = fileURLToPath(new URL('../../docs/permissions.md', import.meta.url));
writeFileSync(target, withRulesSection(readFileSync(target, 'utf8')));
process.stdout.write(`wrote ${target}\n`);
