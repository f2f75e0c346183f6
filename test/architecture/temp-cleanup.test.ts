// A test run leaves nothing in the temp directory: every mkdtemp in test/ is removed by its own file (tempDir(t)
// removes it when the test ends), checked lexically over the whole test tree (test/fixtures/temp-cleanup-rule.ts).
import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../fixtures/paths.js';
import { findTempLeaks } from '../fixtures/temp-cleanup-rule.js';

function readTestTree(root: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const absolute = path.join(entry.parentPath, entry.name);
    files.set(path.relative(REPO_ROOT, absolute).split(path.sep).join('/'), readFileSync(absolute, 'utf8'));
  }
  return files;
}

test('every temp directory a test file makes is removed by that file', (t) => {
  const files = readTestTree(path.join(REPO_ROOT, 'test'));
  // The rule and this file spell leaks as text, to test the rule; they make no directory.
  for (const rule of ['test/fixtures/temp-cleanup-rule.ts', 'test/architecture/temp-cleanup.test.ts']) t.true(files.delete(rule), rule);
  t.true([...files.values()].filter((text) => text.includes('mkdtemp')).length > 5, 'the checker saw the mkdtemps of the test tree');
  t.deepEqual(findTempLeaks(files), []);
});

const leaks = test.macro((t, text: string, expected: readonly string[]) => {
  t.deepEqual(
    findTempLeaks(new Map([['a.test.ts', text]])).map((leak) => leak.replace(/^a\.test\.ts:\d+: /u, '').split(' ')[0]),
    expected,
  );
});

test('an mkdtemp never removed is a leak', leaks, "const root = mkdtempSync(path.join(tmpdir(), 'x-'));\n", ['root']);
test('an mkdtemp inside realpathSync never removed is a leak', leaks, "const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'x-')));\n", ['root']);
test('an mkdtemp removed in a teardown is not', leaks, "const root = mkdtempSync(path.join(tmpdir(), 'x-'));\nt.teardown(() => rmSync(root, { recursive: true }));\n", []);
test('an mkdtemp removed by removeTree is not', leaks, "const dir = mkdtempSync(path.join(os.tmpdir(), 'x-'));\ntry {} finally { removeTree(dir); }\n", []);
test('an mkdtemp held in a field and removed through it is not', leaks, "const profile = mkdtempSync(path.join(tmpdir(), 'x-'));\nrmSync(this.profile, { force: true });\n", []);
test('removing another name does not count', leaks, "const root = mkdtempSync(path.join(tmpdir(), 'x-'));\nrmSync(rootFile);\n", ['root']);
test('an mkdtemp whose result only a derived path keeps is a leak', leaks, "const ws = path.join(mkdtempSync(path.join(tmpdir(), 'x-')), 'ws');\nrmSync(ws);\n", ['an']);
test('a file written straight into the temp directory is a leak', leaks, "writeFileSync(path.join(tmpdir(), 'notes.txt'), 'x');\n", ['uses']);
test('a comment naming mkdtemp makes nothing', leaks, "// mkdtempSync(path.join(tmpdir(), 'x-')) is what tempDir does\n", []);
