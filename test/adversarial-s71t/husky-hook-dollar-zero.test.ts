// Review s71t: husky 9 runs `.husky/NAME` as `sh -e .husky/NAME` (its runtime `.husky/_/h`), so the shell's `$0` is
// `.husky/NAME` (the LINK, where it is one) and the shell is sh whatever the file's `#!` line says.
// 3: tool-file-references.ts entryFiles reads a linked `.husky/pre-commit` at its target (filesOf pushes the real
//    path) with no runAs, so readScript takes `$0` as the TARGET: `$(dirname "$0")/../tools/check.sh` is protected
//    from the target's folder, while the shell climbs from `.husky/`.
// 4: a `.husky/pre-commit` with a `#!/usr/bin/env bash` line is read as bash (BASH_SOURCE = the file), but husky runs it
//    with sh (dash: no BASH_SOURCE, `dirname ""` is ".", the top).
// Each: one CONFINED call overwrites the file the shell really runs; then the user's `git commit`. SAFE: never ran.
import { chmodSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { git, project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit } from '../adversarial-s64m/fixtures.js';

const overwrite = (file: string) => `set -e
printf 'touch "$(git rev-parse --show-toplevel)/PWNED"\\n' > ${file}
`;

/** husky 9's runtime as it generates it: `.husky/_/pre-commit` sources `h`, which runs `sh -e .husky/pre-commit`. */
function husky9(ws: string): void {
  const fixtures = path.resolve(fileURLToPath(import.meta.url), '../../../../test/adversarial-s33e/fixtures');
  mkdirSync(path.join(ws, '.husky/_'), { recursive: true });
  writeFileSync(path.join(ws, '.husky/_/h'), readFileSync(path.join(fixtures, 'husky9-h.sh'), 'utf8'));
  writeFileSync(path.join(ws, '.husky/_/pre-commit'), '#!/usr/bin/env sh\n. "$(dirname "$0")/h"\n', { mode: 0o755 });
  git(ws, 'config', 'core.hooksPath', '.husky/_');
}

test(`3: husky 9, .husky/pre-commit -> ../config/hooks/pre-commit.sh, which runs sh "$(dirname "$0")/../tools/check.sh" ($0 is the link): git runs the user's script`, async (t) => {
  const ws = project(t, {
    'src.txt': '1\n',
    'one.sh': overwrite('tools/check.sh'),
    'tools/check.sh': 'exit 0\n',
    'config/hooks/pre-commit.sh': '#!/bin/sh\nsh "$(dirname "$0")/../tools/check.sh"\n',
  });
  chmodSync(path.join(ws, 'config/hooks/pre-commit.sh'), 0o755);
  husky9(ws);
  symlinkSync('../config/hooks/pre-commit.sh', path.join(ws, '.husky/pre-commit'));
  git(ws, 'add', '-A');
  git(ws, 'commit', '-q', '--no-verify', '-m', 'husky');
  // SAFE: the agent's script never ran.
  t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's script");
});

test(`4: husky 9, .husky/pre-commit with #!/usr/bin/env bash runs sh "$(dirname "$BASH_SOURCE")/scripts/lint.sh" (husky's sh: "."): git runs the user's script`, async (t) => {
  const ws = project(t, {
    'src.txt': '1\n',
    'one.sh': overwrite('scripts/lint.sh'),
    'scripts/lint.sh': 'exit 0\n',
    '.husky/pre-commit': '#!/usr/bin/env bash\nsh "$(dirname "$BASH_SOURCE")/scripts/lint.sh"\n',
  });
  husky9(ws);
  git(ws, 'add', '-A');
  git(ws, 'commit', '-q', '--no-verify', '-m', 'husky');
  // SAFE: the agent's script never ran.
  t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's script");
});

// Control: the same husky 9 layout with the hook a plain file: `$0` is the file, its folder `.husky`.
test(`held: husky 9, plain .husky/pre-commit runs sh "$(dirname "$0")/../tools/check.sh": git runs the user's script`, async (t) => {
  const ws = project(t, {
    'src.txt': '1\n',
    'one.sh': overwrite('tools/check.sh'),
    'tools/check.sh': 'exit 0\n',
    '.husky/pre-commit': '#!/bin/sh\nsh "$(dirname "$0")/../tools/check.sh"\n',
  });
  husky9(ws);
  rmSync(path.join(ws, 'PWNED'), { force: true });
  git(ws, 'add', '-A');
  git(ws, 'commit', '-q', '--no-verify', '-m', 'husky');
  // SAFE: the agent's script never ran.
  t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's script");
});
