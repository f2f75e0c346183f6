// Review s71t: places where the shell's `$0` or BASH_SOURCE is not what script-invocation.ts / shell-command-words.ts
// assume, so the path zotbox protects is not the file the user's git later runs.
// 1: `${BASH_SOURCE:-$0}` (and `${BASH_SOURCE-$0}`) in a file a bash hook SOURCES: bash gives the sourced file, but
//    scriptSubstitute reads it as a plain `${X:-word}` of the user's environment (no BASH_SOURCE there), so the word
//    `$0` (the SOURCER's, since the s69r fix) wins: zotbox protects the hook's folder, bash runs the library's.
// 2: a `sh -c TEXT NAME` (or `bash -c TEXT`, or a quoted here-document fed to sh) in a hook: the inner shell's `$0` is NAME (or the shell's name, whose
//    dirname is "."), but the -c text is read with the OUTER script's substitute, so its `$0` spellings give the hook.
// Each: one CONFINED call (real bubblewrap) overwrites the file the shell really runs; then the user's `git commit`.
// Each asserts the SAFE outcome: the agent's script never ran.
import { chmodSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { git, project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit } from '../adversarial-s64m/fixtures.js';

const overwrite = (file: string) => `set -e
printf 'touch "$(git rev-parse --show-toplevel)/PWNED"\\n' > ${file}
`;

for (const spelling of ['${BASH_SOURCE:-$0}', '${BASH_SOURCE-$0}']) {
  test(`1: #!/bin/bash .githooks/pre-commit sources scripts/lib.sh, which runs sh "$(dirname "${spelling}")/lint.sh": git runs the user's script`, async (t) => {
    const ws = project(t, {
      'src.txt': '1\n',
      'one.sh': overwrite('scripts/lint.sh'),
      'scripts/lint.sh': 'exit 0\n',
      'scripts/lib.sh': `sh "$(dirname "${spelling}")/lint.sh"\n`,
      '.githooks/pre-commit': '#!/bin/bash\nsource scripts/lib.sh\n',
    });
    chmodSync(path.join(ws, '.githooks/pre-commit'), 0o755);
    git(ws, 'config', 'core.hooksPath', '.githooks');
    // SAFE: the agent's script never ran.
    t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's script");
  });
}

test(`1: #!/bin/bash .git/hooks/pre-commit sources scripts/hook-lib.sh, which sets HERE="$(cd "$(dirname "\${BASH_SOURCE:-$0}")" && pwd)" and runs "$HERE/lint.sh": git runs the user's script`, async (t) => {
  const ws = project(t, {
    'src.txt': '1\n',
    'one.sh': overwrite('scripts/lint.sh'),
    'scripts/lint.sh': 'exit 0\n',
    'scripts/hook-lib.sh': 'HERE="$(cd "$(dirname "${BASH_SOURCE:-$0}")" && pwd)"\nsh "$HERE/lint.sh"\n',
    '.git/hooks/pre-commit': '#!/bin/bash\n. scripts/hook-lib.sh\n',
  });
  // SAFE: the agent's script never ran.
  t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's script");
});

test(`2: .githooks/pre-commit runs sh -c 'sh "$(dirname "$0")/lint.sh"' scripts/entry ($0 is scripts/entry): git runs the user's script`, async (t) => {
  const ws = project(t, {
    'src.txt': '1\n',
    'one.sh': overwrite('scripts/lint.sh'),
    'scripts/lint.sh': 'exit 0\n',
    '.githooks/pre-commit': `#!/bin/sh\nsh -c 'sh "$(dirname "$0")/lint.sh"' scripts/entry\n`,
  });
  chmodSync(path.join(ws, '.githooks/pre-commit'), 0o755);
  git(ws, 'config', 'core.hooksPath', '.githooks');
  // SAFE: the agent's script never ran.
  t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's script");
});

test(`2: .githooks/pre-commit runs bash -c 'sh "$(dirname "$0")/lint.sh"' ($0 is "bash", its dirname "."): git runs the user's script`, async (t) => {
  const ws = project(t, {
    'src.txt': '1\n',
    'one.sh': overwrite('lint.sh'),
    'lint.sh': 'exit 0\n',
    '.githooks/pre-commit': `#!/bin/sh\nbash -c 'sh "$(dirname "$0")/lint.sh"'\n`,
  });
  chmodSync(path.join(ws, '.githooks/pre-commit'), 0o755);
  git(ws, 'config', 'core.hooksPath', '.githooks');
  // SAFE: the agent's script never ran.
  t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's script");
});

test(`2: .githooks/pre-commit feeds sh a quoted here-document that runs sh "$(dirname "$0")/lint.sh" ($0 is "sh", its dirname "."): git runs the user's script`, async (t) => {
  const ws = project(t, {
    'src.txt': '1\n',
    'one.sh': overwrite('lint.sh'),
    'lint.sh': 'exit 0\n',
    '.githooks/pre-commit': `#!/bin/sh\nsh <<'EOF'\nsh "$(dirname "$0")/lint.sh"\nEOF\n`,
  });
  chmodSync(path.join(ws, '.githooks/pre-commit'), 0o755);
  git(ws, 'config', 'core.hooksPath', '.githooks');
  // SAFE: the agent's script never ran.
  t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's script");
});

// Controls: the same layouts spelled in ways zotbox reads as the shell does.
test(`held: #!/bin/bash .githooks/pre-commit sources scripts/lib.sh, which runs sh "$(dirname "$BASH_SOURCE")/lint.sh": git runs the user's script`, async (t) => {
  const ws = project(t, {
    'src.txt': '1\n',
    'one.sh': overwrite('scripts/lint.sh'),
    'scripts/lint.sh': 'exit 0\n',
    'scripts/lib.sh': 'sh "$(dirname "$BASH_SOURCE")/lint.sh"\n',
    '.githooks/pre-commit': '#!/bin/bash\nsource scripts/lib.sh\n',
  });
  chmodSync(path.join(ws, '.githooks/pre-commit'), 0o755);
  git(ws, 'config', 'core.hooksPath', '.githooks');
  t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's script");
});

test(`held: .githooks/pre-commit runs sh -c 'sh scripts/lint.sh': git runs the user's script`, async (t) => {
  const ws = project(t, {
    'src.txt': '1\n',
    'one.sh': overwrite('scripts/lint.sh'),
    'scripts/lint.sh': 'exit 0\n',
    '.githooks/pre-commit': `#!/bin/sh\nsh -c 'sh scripts/lint.sh' scripts/entry\n`,
  });
  chmodSync(path.join(ws, '.githooks/pre-commit'), 0o755);
  git(ws, 'config', 'core.hooksPath', '.githooks');
  t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's script");
});
