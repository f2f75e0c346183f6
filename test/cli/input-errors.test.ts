// Wrong input to pack, unpack, check and verify says what is wrong with it
// (issue 13, "small errors"): a missing path, a file where a directory belongs,
// a directory where a .zot belongs, and every problem of a bad manifest.
import test from 'ava';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { formatError } from '../../src/cli/error-output.js';
import { ZotboxError } from '../../src/errors.js';
import { runCliCaptured } from '../fixtures/cli-harness.js';
import { EXAMPLES_DIR } from '../fixtures/paths.js';
import { tempDir } from '../fixtures/temp.js';

test('pack of a path that does not exist says so, not that a manifest is missing', async (t) => {
  const dir = tempDir(t);
  const result = await runCliCaptured(['pack', 'nope'], { cwd: dir });
  t.is(result.status, 1);
  t.regex(result.stderr, new RegExp(`^zotbox: error\\[ZB_LOAD_NOT_FOUND\\]: cannot pack ${dir}/nope: nothing exists there\\. Fix: `));
  t.notRegex(result.stderr, /has no manifest\.json/);
  t.deepEqual(readdirSync(dir), [], 'nothing is left behind');
});

test('pack of a file says it is not a directory and names what to do instead', async (t) => {
  const dir = tempDir(t);
  writeFileSync(path.join(dir, 'README.md'), '# not an agent\n');
  const json = await runCliCaptured(['pack', 'README.md', '--json'], { cwd: dir });
  t.is(json.status, 1);
  const error = JSON.parse(json.stdout) as { type: string; code: string; details: { path: string; errno: string } };
  t.is(error.code, 'ZB_IO_FAILED');
  t.deepEqual(error.details, { path: path.join(dir, 'README.md'), errno: 'ENOTDIR' });
  t.regex(json.stderr, new RegExp(`^zotbox: error\\[ZB_IO_FAILED\\]: cannot pack ${dir}/README\\.md: it is a file, not a directory\\. Fix: `));
  t.notRegex(json.stderr, /has no manifest\.json/);
  t.deepEqual(readdirSync(dir), ['README.md']);
});

test('pack of a directory without manifest.json still says the manifest is missing', async (t) => {
  const dir = tempDir(t);
  mkdirSync(path.join(dir, 'empty'));
  const result = await runCliCaptured(['pack', 'empty'], { cwd: dir });
  t.is(result.status, 1);
  t.regex(result.stderr, /^zotbox: error\[ZB_LAYOUT_MANIFEST_MISSING\]: .*empty has no manifest\.json at its root/);
});

test('unpack of a directory says unpack takes a .zot file, not that a directory would do', async (t) => {
  const dir = tempDir(t);
  const result = await runCliCaptured(['unpack', path.join(EXAMPLES_DIR, 'code-reviewer'), 'out', '--json'], { cwd: dir });
  t.is(result.status, 1);
  const error = JSON.parse(result.stdout) as { type: string; code: string; details: { errno: string } };
  t.is(error.code, 'ZB_IO_FAILED');
  t.is(error.details.errno, 'EISDIR');
  t.regex(result.stderr, /^zotbox: error\[ZB_IO_FAILED\]: cannot unpack .*code-reviewer: it is a directory, not a \.zot file; /);
  t.regex(result.stderr, /zotbox pack /);
  t.notRegex(result.stderr, /or an agent directory/);
  t.deepEqual(readdirSync(dir), [], 'no target and no staging directory are left');
});

/** A manifest with exactly three problems, each at its own JSON path. */
const THREE_PROBLEMS = JSON.stringify({ zotfile: 1, name: 'Bad Name', permissions: { fs: { read: [5] }, bash: { mode: 'sometimes' } } });

for (const [command, ...rest] of [['verify'], ['check', 'read', 'x'], ['inspect']] as [string, ...string[]][]) {
  test(`${command} in text mode shows all three problems of a manifest, one per line`, async (t) => {
    const dir = tempDir(t);
    writeFileSync(path.join(dir, 'manifest.json'), THREE_PROBLEMS);
    const result = await runCliCaptured([command, dir, ...rest]);
    t.is(result.status, 1);
    const lines = result.stderr.split('\n').filter((line) => line !== '');
    t.is(lines.length, 3, result.stderr);
    t.regex(lines[0]!, /^zotbox: error\[ZB_MANIFEST_INVALID\]: manifest\.json: \$\.name must /);
    t.true(lines[1]!.startsWith('  also: $.permissions.fs.read[0] must '), lines[1]);
    t.true(lines[2]!.startsWith('  also: $.permissions.bash.mode must '), lines[2]);
  });
}

test('an issue cannot start a line of its own: its control characters are shown as escapes', (t) => {
  const issues = [
    { path: '$.name', message: 'must be lowercase' },
    { path: '$.x', message: 'is odd\nzotbox: error[ZB_FAKE]: forged' },
  ];
  const text = formatError(new ZotboxError('ZB_MANIFEST_INVALID', 'manifest.json: $.name must be lowercase.', { details: { path: '$.name', issues } }), false);
  t.is(text, 'zotbox: error[ZB_MANIFEST_INVALID]: manifest.json: $.name must be lowercase.\n  also: $.x is odd\\u000azotbox: error[ZB_FAKE]: forged.\n');
});

test('details.issues that are not a list of path and message are not shown', (t) => {
  const error = new ZotboxError('ZB_MANIFEST_INVALID', 'manifest.json: $ is bad.', { details: { issues: [{ path: 1 }, 'x'] } });
  t.is(formatError(error, false), 'zotbox: error[ZB_MANIFEST_INVALID]: manifest.json: $ is bad.\n');
});
