// The library example runs as documented: three agents at once on one pool,
// offline, each with an allowed read and a denied one; docs/library.md shows the
// example exactly as it is.
import test from 'ava';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { EXAMPLES_DIR, REPO_ROOT } from '../fixtures/paths.js';
import { tempDir } from '../fixtures/temp.js';

const example = path.join(EXAMPLES_DIR, 'library', 'three-agents.mjs');

test('examples/library/three-agents.mjs runs three agents at once and exits 0', async (t) => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--no-node-snapshot', example], {
    cwd: REPO_ROOT,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ZOTBOX_HOME: tempDir(t, 'zb-lib-') },
    timeout: 60_000,
  });
  const summaries = stdout.split('\n').filter((line) => !line.startsWith(' ') && line !== '');
  t.deepEqual(
    summaries,
    ['correctness', 'security', 'style'].map((label) => `${label}: completed after 3 turns; denied: /etc/passwd`),
  );
});

test('docs/library.md shows the example file verbatim', (t) => {
  const doc = readFileSync(path.join(REPO_ROOT, 'docs', 'library.md'), 'utf8');
  t.true(doc.includes(`\`\`\`js\n${readFileSync(example, 'utf8')}\`\`\``));
});
