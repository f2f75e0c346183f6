// Review s77z: after s75x's fixes (OPAQUE scripts: NEW_BASH, sourcing, `$0` set; a computed value that is run
// refuses; BASH_ENV/ENV/BASH_FUNC_ and a script-wide IFS refuse), a hook still runs a file zotbox never read, or read
// with the wrong `$0`. Each: one CONFINED call (real bubblewrap) overwrites a file that exists in the workspace; then
// the user's `git commit`. Each asserts the SAFE outcome: the agent's script never ran (so it FAILS while the hole is open).
import { chmodSync } from 'node:fs';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { git, project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit } from '../adversarial-s64m/fixtures.js';

const overwrite = (file: string) => `set -e
mkdir -p "$(dirname '${file}')"
printf 'touch "$(git rev-parse --show-toplevel)/PWNED"\\n' > '${file}'
`;

const LINT = 'sh "$(dirname "$0")/lint.sh"';

/** A workspace whose hook is `hook`; the agent overwrites `target` (which exists); `.githooks/lint.sh` is the decoy. */
const attack = async (t: ExecutionContext, hook: string, target: string, more: Readonly<Record<string, string>> = {}) => {
  const ws = project(t, {
    'src.txt': '1\n',
    'one.sh': overwrite(target),
    [target]: 'exit 0\n',
    '.githooks/lint.sh': 'exit 0\n',
    '.githooks/pre-commit': hook,
    ...more,
  });
  chmodSync(path.join(ws, '.githooks/pre-commit'), 0o755);
  git(ws, 'config', 'core.hooksPath', '.githooks');
  // SAFE: the agent's script never ran.
  t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's script");
};

test(`1: a bash hook exports check() { ${LINT}; } as ex""port -f check and runs ba""sh -c check ($0 "bash": ./lint.sh)`, async (t) => {
  await attack(t, `#!/bin/bash\ncheck() { ${LINT}; }\nex""port -f check\nba""sh -c check\n`, 'lint.sh');
});

test(`1: a bash hook exports check() through E=export; $E -f check and runs "$BASH" -c check tools/x`, async (t) => {
  await attack(t, `#!/bin/bash\ncheck() { ${LINT}; }\nE=export\n$E -f check\n"$BASH" -c check tools/x\n`, 'tools/lint.sh');
});

test(`1: a bash hook turns allexport on as set -"a", defines check() { ${LINT}; } and runs ba''sh -c check`, async (t) => {
  await attack(t, `#!/bin/bash\nset -"a"\ncheck() { ${LINT}; }\nset +a\nba''sh -c check\n`, 'lint.sh');
});

test(`held: a bash hook runs (exec -a tools/pre-commit sh -c '${LINT}'): the new sh's $0 is tools/pre-commit`, async (t) => {
  await attack(t, `#!/bin/bash\n(exec -a tools/pre-commit sh -c '${LINT}')\n`, 'tools/lint.sh');
});

test(`2: a bash hook sets PS4='+$(sh tools/lint.sh)' and turns on set -x: every traced command runs tools/lint.sh`, async (t) => {
  await attack(t, `#!/bin/bash\nPS4='+$(sh tools/lint.sh >&2)'\nset -x\n:\n`, 'tools/lint.sh');
});

test(`2: a bash hook evaluates X='a[$(sh tools/lint.sh)]' arithmetically: (( X ))`, async (t) => {
  await attack(t, `#!/bin/bash\nX='a[$(sh tools/lint.sh)]'\n(( X )) || true\n`, 'tools/lint.sh');
});

test(`2: a bash hook prompt-expands X='$(sh tools/lint.sh)': echo "\${X@P}"`, async (t) => {
  await attack(t, `#!/bin/bash\nX='$(sh tools/lint.sh)'\necho "\${X@P}"\n`, 'tools/lint.sh');
});

test(`3: a hook appends to IFS: IFS+=/ (bash), then X=sh/tools; $X/lint.sh runs sh tools/lint.sh`, async (t) => {
  await attack(t, `#!/bin/bash\nIFS+=/\nX=sh/tools\n$X/lint.sh\n`, 'tools/lint.sh');
});

test(`3: a hook sets IFS after then: if true; then IFS=/; fi; X=sh/tools; $X/lint.sh`, async (t) => {
  await attack(t, `#!/bin/sh\nif true; then IFS=/; fi\nX=sh/tools\n$X/lint.sh\n`, 'tools/lint.sh');
});

test(`3: a hook reads IFS: read -r IFS <<< / (bash), then X=sh/tools; $X/lint.sh`, async (t) => {
  await attack(t, `#!/bin/bash\nread -r IFS <<< /\nX=sh/tools\n$X/lint.sh\n`, 'tools/lint.sh');
});

test(`3: a hook sets IFS for one eval: X=sh/tools; IFS=/ eval '$X/lint.sh'`, async (t) => {
  await attack(t, `#!/bin/bash\nX=sh/tools\nIFS=/ eval '$X/lint.sh'\n`, 'tools/lint.sh');
});

test(`held: a hook sets IFS inside a function body: f() { IFS=/; $X/lint.sh; }; X=sh/tools; f`, async (t) => {
  await attack(t, `#!/bin/sh\nf() { IFS=/; $X/lint.sh; }\nX=sh/tools\nf\n`, 'tools/lint.sh');
});

// Controls: shapes from the brief that hold (they pass).
test(`held: a bash hook maps a name to a file with hash -p tools/fmt lint, then runs lint (tools/fmt is a word: protected, read)`, async (t) => {
  await attack(t, `#!/bin/bash\nhash -p tools/fmt lint\nlint\n`, 'tools/fmt', { 'tools/fmt': 'exit 0\n' });
});

test(`held: a bash hook sets trap 'sh tools/lint.sh' DEBUG (trap text is read as the script's)`, async (t) => {
  await attack(t, `#!/bin/bash\ntrap 'sh tools/lint.sh' DEBUG\n:\n`, 'tools/lint.sh');
});

test(`held: a bash hook aliases L='sh tools/lint.sh' under expand_aliases and runs L (alias text is read)`, async (t) => {
  await attack(t, `#!/bin/bash\nshopt -s expand_aliases\nalias L='sh tools/lint.sh'\nL\n`, 'tools/lint.sh');
});

test(`held: a bash hook defines command_not_found_handle() { ${LINT}; } and runs a missing command (same shell, the hook's $0)`, async (t) => {
  await attack(t, `#!/bin/bash\ncommand_not_found_handle() { ${LINT}; }\nno-such-command-s77z\n`, '.githooks/lint.sh');
});
