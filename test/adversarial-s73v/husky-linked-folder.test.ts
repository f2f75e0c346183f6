// Review s73v: husky 9 with `.husky` itself a link (`.husky -> config/husky`) or a linked folder inside it: husky runs
// `sh -e .husky/NAME`, so `$0` is the path through the link and the kernel climbs `..` from where the link leads.
// Both are controls that held (a climb out of a folder that is a link is unresolved: the call stops).
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { git, project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit } from '../adversarial-s64m/fixtures.js';

const overwrite = (file: string) => `set -e
printf 'touch "$(git rev-parse --show-toplevel)/PWNED"\\n' > ${file}
`;

/** husky 9's runtime as it generates it, in `folder` (where `.husky` leads): `_/pre-commit` sources `h`. */
function husky9(ws: string, folder: string): void {
  const fixtures = path.resolve(fileURLToPath(import.meta.url), '../../../../test/adversarial-s33e/fixtures');
  mkdirSync(path.join(ws, folder, '_'), { recursive: true });
  writeFileSync(path.join(ws, folder, '_/h'), readFileSync(path.join(fixtures, 'husky9-h.sh'), 'utf8'));
  writeFileSync(path.join(ws, folder, '_/pre-commit'), '#!/usr/bin/env sh\n. "$(dirname "$0")/h"\n', { mode: 0o755 });
  git(ws, 'config', 'core.hooksPath', '.husky/_');
}

test(`held: husky 9, .husky -> config/husky, whose pre-commit runs sh "$(dirname "$0")/../tools/check.sh" (the kernel climbs from config/husky)`, async (t) => {
  const ws = project(t, {
    'src.txt': '1\n',
    'one.sh': overwrite('config/tools/check.sh'),
    'config/tools/check.sh': 'exit 0\n',
    'tools/check.sh': 'exit 0\n',
    'config/husky/pre-commit': 'sh "$(dirname "$0")/../tools/check.sh"\n',
  });
  husky9(ws, 'config/husky');
  symlinkSync('config/husky', path.join(ws, '.husky'));
  git(ws, 'add', '-A');
  git(ws, 'commit', '-q', '--no-verify', '-m', 'husky');
  t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's script");
});

test(`held: husky 9, .husky/lib -> ../scripts/hooklib; .husky/pre-commit sources "$(dirname "$0")/lib/common.sh", which runs sh "$(dirname "$0")/../tools/check.sh"`, async (t) => {
  const ws = project(t, {
    'src.txt': '1\n',
    'one.sh': overwrite('tools/check.sh'),
    'tools/check.sh': 'exit 0\n',
    'scripts/hooklib/common.sh': 'sh "$(dirname "$0")/../tools/check.sh"\n',
    '.husky/pre-commit': '. "$(dirname "$0")/lib/common.sh"\n',
  });
  husky9(ws, '.husky');
  symlinkSync('../scripts/hooklib', path.join(ws, '.husky/lib'));
  git(ws, 'add', '-A');
  git(ws, 'commit', '-q', '--no-verify', '-m', 'husky');
  t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's script");
});
