// docs/ must describe the code as it is.
import test from 'ava';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { renderErrorsDoc } from '../scripts/errors-doc.js';
import { withRulesSection } from '../scripts/rules-doc.js';
import { COMMANDS } from '../src/cli/commands.js';
import { REPO_ROOT } from './fixtures/paths.js';

const read = (file: string) => readFileSync(path.join(REPO_ROOT, file), 'utf8');

test('docs/errors.md is generated from the current error registry', (t) => {
  t.is(read('docs/errors.md'), renderErrorsDoc(), 'run `npm run docs:errors` and commit the result');
});

test('docs/permissions.md lists every built-in argument rule as the table has it', (t) => {
  const doc = read('docs/permissions.md');
  t.is(doc, withRulesSection(doc), 'run `npm run docs:rules` and commit the result');
});

test('docs/cli.md documents every command and every option the parser accepts', (t) => {
  const doc = read('docs/cli.md');
  for (const command of COMMANDS) {
    t.true(doc.includes(`## zotbox ${command.name}`), `section for ${command.name}`);
    for (const option of command.options) t.true(doc.includes(`--${option.name}`), `${command.name} --${option.name}`);
  }
});

test('the README gives the two-command quick start and links into docs/', (t) => {
  const readme = read('README.md');
  t.true(readme.includes('npm ci && npm run demo'));
  t.true(readme.includes('npm ci && npm test'));
  for (const link of readme.matchAll(/\]\((docs\/[^)#]+)/g)) t.notThrows(() => read(link[1]!), link[1]);
});
