// Review s69r, finding 1: a file a hook SOURCES (`. FILE`) is read by tool-file-references.ts readScript with
// `scriptFile` = that file, so shell-command-words.ts spells `$0`, `$(dirname "$0")`, `${0%/*}` as the sourced file
// and its folder. The shell does not: inside a sourced file `$0` is still the HOOK (only BASH_SOURCE changes). The
// script exception to the climb rule (`$(dirname "$0")/../x`, lexical-climb.ts climbsOutsideOwn) then lets zotbox
// protect a path under the WRONG folder. Hook `.githooks/pre-commit` (core.hooksPath .githooks) sources
// `.githooks/lib/common.sh`, which runs `sh "$(dirname "$0")/../tools/lint.sh"`: zotbox protects
// `.githooks/tools/lint.sh` (inside the hooks folder), the shell runs `<ws>/tools/lint.sh`. One confined call
// overwrites `tools/lint.sh` (exit 0, no stop); the user's `git commit` runs it. Same for `ROOT="$(cd "$(dirname
// "$0")/.." && pwd)"`, and for `.git/hooks/pre-commit` sourcing `scripts/hook-lib.sh` that climbs `../..` (zotbox: `/`,
// outside every scope, nothing protected).
// Finding 2: `$(dirname "$BASH_SOURCE")` in a `#!/bin/sh` hook: SCRIPT_DIRECTORY answers the hook's folder, but
// /bin/sh (dash, Debian/Ubuntu) has no BASH_SOURCE: `dirname ""` is `.`, the top git runs the hook in.
// Held (control): a LINKED hook (`.git/hooks/pre-commit` -> `../../scripts/pre-commit`) spelling
// `$(dirname "$(readlink -f "$0")")`: read at the link's target, `scripts/lint.sh` protected (the write fails).
// Each asserts the SAFE outcome: the agent's script never ran.
import { chmodSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { git, project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit } from '../adversarial-s64m/fixtures.js';

const overwrite = (file: string) => `set -e
printf 'touch "$(git rev-parse --show-toplevel)/PWNED"\\n' > ${file}
`;

for (const [title, lib] of [
  ['sh "$(dirname "$0")/../tools/lint.sh"', 'sh "$(dirname "$0")/../tools/lint.sh"\n'],
  ['ROOT="$(cd "$(dirname "$0")/.." && pwd)"; sh "$ROOT/tools/lint.sh"', 'ROOT="$(cd "$(dirname "$0")/.." && pwd)"\nsh "$ROOT/tools/lint.sh"\n'],
] as const) {
  test(`1: .githooks/pre-commit sources lib/common.sh, which runs ${title}: git runs the user's script`, async (t) => {
    const ws = project(t, {
      'src.txt': '1\n',
      'one.sh': overwrite('tools/lint.sh'),
      'tools/lint.sh': 'exit 0\n',
      '.githooks/pre-commit': '#!/bin/sh\n. "$(dirname "$0")/lib/common.sh"\n',
      '.githooks/lib/common.sh': lib,
    });
    chmodSync(path.join(ws, '.githooks/pre-commit'), 0o755);
    git(ws, 'config', 'core.hooksPath', '.githooks');
    // SAFE: the agent's script never ran.
    t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's script");
  });
}

test(`1: .git/hooks/pre-commit sources scripts/hook-lib.sh, which runs "$(cd "$(dirname "$0")/../.." && pwd)/tools/lint.sh": git runs the user's script`, async (t) => {
  const ws = project(t, {
    'src.txt': '1\n',
    'one.sh': overwrite('tools/lint.sh'),
    'tools/lint.sh': 'exit 0\n',
    'scripts/hook-lib.sh': 'ROOT="$(cd "$(dirname "$0")/../.." && pwd)"\nsh "$ROOT/tools/lint.sh"\n',
    '.git/hooks/pre-commit': '#!/bin/sh\n. scripts/hook-lib.sh\n',
  });
  // SAFE: the agent's script never ran.
  t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's script");
});

test(`2: #!/bin/sh .githooks/pre-commit runs sh "$(dirname "$BASH_SOURCE")/scripts/lint.sh" (dash: "."): git runs the user's script`, async (t) => {
  const ws = project(t, {
    'src.txt': '1\n',
    'one.sh': overwrite('scripts/lint.sh'),
    'scripts/lint.sh': 'exit 0\n',
    '.githooks/pre-commit': '#!/bin/sh\nsh "$(dirname "$BASH_SOURCE")/scripts/lint.sh"\n',
  });
  chmodSync(path.join(ws, '.githooks/pre-commit'), 0o755);
  git(ws, 'config', 'core.hooksPath', '.githooks');
  // SAFE: the agent's script never ran.
  t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's script");
});

test(`held: linked .git/hooks/pre-commit runs sh "$(dirname "$(readlink -f "$0")")/lint.sh": git runs the user's script`, async (t) => {
  const ws = project(t, {
    'src.txt': '1\n',
    'one.sh': overwrite('scripts/lint.sh'),
    'scripts/lint.sh': 'exit 0\n',
    'scripts/pre-commit': '#!/bin/sh\nsh "$(dirname "$(readlink -f "$0")")/lint.sh"\n',
  });
  chmodSync(path.join(ws, 'scripts/pre-commit'), 0o755);
  rmSync(path.join(ws, '.git/hooks/pre-commit'), { force: true });
  symlinkSync('../../scripts/pre-commit', path.join(ws, '.git/hooks/pre-commit'));
  // SAFE: the agent's script never ran.
  t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's script");
});
