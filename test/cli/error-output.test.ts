// How every command reports an error (docs/cli.md, Exit status): one line on
// stderr, and with --json one JSON line on stdout whose details are snake_case
// like every other output; usage errors stay on stderr only.
import test from 'ava';
import path from 'node:path';
import { ZotboxError } from '../../src/errors.js';
import { errorJsonLine, snakeCaseKeys } from '../../src/cli/error-output.js';
import { runCliCaptured } from '../fixtures/cli-harness.js';
import { EXAMPLES_DIR } from '../fixtures/paths.js';
import { tempDir } from '../fixtures/temp.js';

test('detail keys become snake_case at any depth; values, and keys without a lower-to-upper step, stay as they are', (t) => {
  const details = { retryAfterMs: 5, partialText: 'keep camelCase in values', nested: { stateDirectory: '/s', list: [{ maxBytes: 1 }, 'plainString'] }, LANG: 'C', path: '/p' };
  t.deepEqual(snakeCaseKeys(details), {
    retry_after_ms: 5,
    partial_text: 'keep camelCase in values',
    nested: { state_directory: '/s', list: [{ max_bytes: 1 }, 'plainString'] },
    LANG: 'C',
    path: '/p',
  });
});

test('the JSON error line has type, code, message and details (empty when the error has none), on one line', (t) => {
  t.is(
    errorJsonLine(new ZotboxError('ZB_IO_FAILED', 'cannot write /x.', { details: { errno: 'ENOENT', contentDigest: 'd' } })),
    '{"type":"error","code":"ZB_IO_FAILED","message":"cannot write /x.","details":{"errno":"ENOENT","content_digest":"d"}}\n',
  );
  t.is(errorJsonLine(new ZotboxError('ZB_INTERNAL_BUG', 'two\nlines')), '{"type":"error","code":"ZB_INTERNAL_BUG","message":"two\\nlines","details":{}}\n');
});

const failing: readonly (readonly string[])[] = [
  ['pack', '/nonexistent-zotbox-dir'],
  ['inspect', '/nonexistent-zotbox-dir'],
  ['verify', '/nonexistent-zotbox-dir'],
  ['unpack', '/nonexistent-zotbox.zot', 'out'],
  ['check', '/nonexistent-zotbox-dir', 'read', 'x'],
  ['consent', 'revoke', 'nobody'],
  ['run', '/nonexistent-zotbox-dir', 'hi'],
];

for (const argv of failing) {
  test(`zotbox ${argv.join(' ')} --json: a failure is one JSON error line on stdout and the one-line error on stderr`, async (t) => {
    const cwd = tempDir(t);
    const result = await runCliCaptured([...argv, '--json'], { cwd, env: { ZOTBOX_HOME: path.join(cwd, 'home') } });
    t.is(result.status, 1);
    t.is(result.stdout.split('\n').length, 2, result.stdout);
    const line = JSON.parse(result.stdout) as { type: string; code: string; message: string; details: object };
    t.deepEqual(Object.keys(line), ['type', 'code', 'message', 'details']);
    t.is(line.type, 'error');
    t.regex(result.stderr, new RegExp(`^zotbox: error\\[${line.code}\\]: [^\\n]+\\n$`));
  });
}

test('a usage error with --json prints only the stderr line', async (t) => {
  const result = await runCliCaptured(['inspect', path.join(EXAMPLES_DIR, 'code-reviewer'), '--json', '--frobnicate']);
  t.is(result.status, 2);
  t.is(result.stdout, '');
  t.regex(result.stderr, /^zotbox: error\[ZB_CLI_USAGE\]/);
});
