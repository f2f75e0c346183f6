// Help and init name the docs by the path of the package zotbox runs from, a file a
// user can open (issue 27: "docs/cli.md in the zotbox package" said nowhere where).
import test from 'ava';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { runCliCaptured } from '../fixtures/cli-harness.js';
import { tempDir } from '../fixtures/temp.js';

test('zotbox --help ends with the absolute path of the package docs/cli.md, which exists', async (t) => {
  const result = await runCliCaptured(['--help']);
  t.is(result.status, 0, result.stderr);
  const docs = /^Documentation: (.+)$/m.exec(result.stdout)?.[1] ?? '';
  t.true(path.isAbsolute(docs), docs);
  t.is(path.basename(docs), 'cli.md');
  t.is(path.basename(path.dirname(docs)), 'docs');
  t.true(existsSync(docs), `${docs} exists`);
});

test('zotbox init names the absolute path of docs/agents.md, which exists', async (t) => {
  const root = tempDir(t, 'zb-init-docs-');
  const result = await runCliCaptured(['init', path.join(root, 'helper')]);
  t.is(result.status, 0, result.stderr);
  const docs = /^(\/\S+\/docs\/agents\.md) explains each file/m.exec(result.stdout)?.[1] ?? '';
  t.true(existsSync(docs), `${docs || 'no agents.md path'} in: ${result.stdout}`);
});
