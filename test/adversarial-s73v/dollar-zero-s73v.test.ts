// Review s73v: more places where the shell's `$0` is not what shell-command-words.ts assumes, so the path zotbox
// protects is not the file the user's git later runs.
// 1: zsh gives a FUNCTION its own `$0` (FUNCTION_ARGZERO, on by default: `$0` is the function's name, whose dirname is
//    "."), but a zsh hook's function body is read with the hook's `$0`.
// 2: an assignment's value is spelled out as if its single-quoted (or escaped) `$0` were expanded where it is written:
//    `CHECK='sh "$(dirname "$0")/lint.sh"'; sh -c "$CHECK"` hands the text with a literal `$0` to a NEW shell (whose
//    `$0` is "sh"). (`X='$(dirname "$0")/lint.sh'; sh "$X"`, a file named so literally, held: the value is a word too.)
// 3: bash's `export -f`: a function a NEW bash runs (`export -f f; bash -c f`, `xargs bash -c 'f "$0"'`) has that
//    shell's `$0` ("bash", or xargs' argument) and BASH_SOURCE "environment" (dirname "."), but its body is read as the
//    hook's.
// Each: one CONFINED call (real bubblewrap) writes the file the shell really runs; then the user's `git commit`.
// Each asserts the SAFE outcome: the agent's script never ran.
import { chmodSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { git, project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit } from '../adversarial-s64m/fixtures.js';

const overwrite = (file: string) => `set -e
mkdir -p "$(dirname '${file}')"
printf 'touch "$(git rev-parse --show-toplevel)/PWNED"\\n' > '${file}'
`;

const hooked = (ws: string) => {
  chmodSync(path.join(ws, '.githooks/pre-commit'), 0o755);
  git(ws, 'config', 'core.hooksPath', '.githooks');
};

test(`1: a zsh .githooks/pre-commit whose function runs sh "$(dirname "$0")/lint.sh" ($0 is the function's name, its dirname "."): git runs the user's script`, async (t) => {
  const ws = project(t, {
    'src.txt': '1\n',
    'one.sh': overwrite('lint.sh'),
    'lint.sh': 'exit 0\n',
    '.githooks/lint.sh': 'exit 0\n',
    '.githooks/pre-commit': '#!/usr/bin/env zsh\nmain() {\n  sh "$(dirname "$0")/lint.sh"\n}\nmain "$@"\n',
  });
  hooked(ws);
  // SAFE: the agent's script never ran.
  t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's script");
});

test(`2: .githooks/pre-commit sets CHECK='sh "$(dirname "$0")/lint.sh"' and runs sh -c "$CHECK" (the new shell's $0 is "sh"): git runs the user's script`, async (t) => {
  const ws = project(t, {
    'src.txt': '1\n',
    'one.sh': overwrite('lint.sh'),
    'lint.sh': 'exit 0\n',
    '.githooks/lint.sh': 'exit 0\n',
    '.githooks/pre-commit': `#!/bin/sh\nCHECK='sh "$(dirname "$0")/lint.sh"'\nsh -c "$CHECK"\n`,
  });
  hooked(ws);
  // SAFE: the agent's script never ran.
  t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's script");
});

test(`held: .githooks/pre-commit sets X='$(dirname "$0")/lint.sh' and runs sh "$X" (a file named so, literally; the quoted value is a word of its own)`, async (t) => {
  const ws = project(t, {
    'src.txt': '1\n',
    'one.sh': overwrite('$(dirname "$0")/lint.sh'),
    '.githooks/lint.sh': 'exit 0\n',
    '.githooks/pre-commit': `#!/bin/sh\nX='$(dirname "$0")/lint.sh'\nif [ -f "$X" ]; then sh "$X"; fi\n`,
  });
  hooked(ws);
  // SAFE: the agent's script never ran.
  t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's script");
});

test(`3: a bash .githooks/pre-commit exports f() { sh "$(dirname "$0")/lint.sh"; } and runs bash -c f ($0 is "bash"): git runs the user's script`, async (t) => {
  const ws = project(t, {
    'src.txt': '1\n',
    'one.sh': overwrite('lint.sh'),
    'lint.sh': 'exit 0\n',
    '.githooks/lint.sh': 'exit 0\n',
    '.githooks/pre-commit': '#!/bin/bash\nf() { sh "$(dirname "$0")/lint.sh"; }\nexport -f f\nbash -c f\n',
  });
  hooked(ws);
  // SAFE: the agent's script never ran.
  t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's script");
});

test(`3: a bash .githooks/pre-commit exports g() { sh "$(dirname "$BASH_SOURCE")/lint.sh"; } and runs it per staged file through xargs bash -c (BASH_SOURCE is "environment"): git runs the user's script`, async (t) => {
  const ws = project(t, {
    'src.txt': '1\n',
    'one.sh': overwrite('lint.sh'),
    'lint.sh': 'exit 0\n',
    '.githooks/lint.sh': 'exit 0\n',
    '.githooks/pre-commit': `#!/bin/bash\ng() { sh "$(dirname "$BASH_SOURCE")/lint.sh"; }\nexport -f g\ngit diff --cached --name-only | xargs -n1 bash -c 'g "$0"'\n`,
  });
  hooked(ws);
  // SAFE: the agent's script never ran.
  t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's script");
});

// Controls: the same layouts spelled in ways zotbox reads as the shell does.
test(`held: a zsh .githooks/pre-commit that runs sh "$(dirname "$0")/lint.sh" outside any function`, async (t) => {
  const ws = project(t, {
    'src.txt': '1\n',
    'one.sh': overwrite('.githooks/lint.sh'),
    '.githooks/lint.sh': 'exit 0\n',
    '.githooks/pre-commit': '#!/usr/bin/env zsh\nsh "$(dirname "$0")/lint.sh"\n',
  });
  hooked(ws);
  t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's script");
});

test(`held: .githooks/pre-commit sets CHECK="sh $(dirname "$0")/lint.sh" (expanded at once) and runs sh -c "$CHECK"`, async (t) => {
  const ws = project(t, {
    'src.txt': '1\n',
    'one.sh': overwrite('.githooks/lint.sh'),
    '.githooks/lint.sh': 'exit 0\n',
    '.githooks/pre-commit': `#!/bin/sh\nCHECK="sh $(dirname "$0")/lint.sh"\nsh -c "$CHECK"\n`,
  });
  hooked(ws);
  t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's script");
});
