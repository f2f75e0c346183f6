// Review s75x: after s73v's fixes (a script that exports a function, or a zsh/ksh script with a function, is opaque; a
// value with a quoted `$` is text; a computed value that is run refuses), code still reaches a shell with a `$0` zotbox
// does not model, or a script runs a value zotbox never reads.
// 1: bash's allexport (`set -a`, `set -o allexport`, `#!/bin/bash -a`) exports every function defined while it is on;
//    EXPORTS_FUNCTIONS only matches `export -f`/`declare -fx` spelled plainly (`eval "export -f g"`, `\export -f g`,
//    `"export" -f g`, `export "-f" g` and a line continued with `\` are missed too), and `export -f` in a sourced file
//    (only that file is opaque; the function's body is in the sourcer).
// 2: `env 'BASH_FUNC_g%%=() { …; }' bash -c g` hands a function to a new bash through the environment (no export).
// 3: zsh's anonymous `function { … }` (its `$0` is "(anon)", dirname "."): DEFINES_FUNCTION misses `function {`; and an
//    autoloaded function file (`autoload -Uz NAME` from `fpath`), whose `$0` is NAME.
// 4: `$0` reassigned: bash 5's `BASH_ARGV0=NAME`, zsh's `0=NAME`.
// 5: values zotbox never learns, then run, are dropped, not refused: `mapfile`/`readarray` lines (not `read`'s, so not
//    "a line of input") and `printf -v NAME`.
// 6: `BASH_ENV`: the file bash sources at the start of a new bash has that bash's script as `$0`.
// 7: `IFS` set by the script: an unquoted value splits where zotbox does not split it.
// Each: one CONFINED call (real bubblewrap) writes the file the shell really runs; then the user's `git commit`.
// Each asserts the SAFE outcome: the agent's script never ran.
import { chmodSync } from 'node:fs';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
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
  hooked(ws);
  // SAFE: the agent's script never ran.
  t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's script");
};

test(`1: a bash hook defines check() { ${LINT}; } under set -a (allexport exports it) and runs it per staged file through xargs bash -c`, async (t) => {
  await attack(t, `#!/bin/bash\nset -a\ncheck() { ${LINT}; }\nset +a\ngit diff --cached --name-only | xargs -n1 bash -c 'check "$0"'\n`, 'lint.sh');
});

test(`1: a bash hook exports check() through eval "export -f check" and runs bash -c check`, async (t) => {
  await attack(t, `#!/bin/bash\ncheck() { ${LINT}; }\neval "export -f check"\nbash -c check\n`, 'lint.sh');
});

test(`1: a bash hook exports check() with \\export -f check and runs bash -c check`, async (t) => {
  await attack(t, `#!/bin/bash\ncheck() { ${LINT}; }\n\\export -f check\nbash -c check\n`, 'lint.sh');
});

test(`2: an sh hook hands a function to bash through the environment: env 'BASH_FUNC_check%%=() { ${LINT}; }' bash -c check`, async (t) => {
  await attack(t, `#!/bin/sh\nenv 'BASH_FUNC_check%%=() { ${LINT}; }' bash -c check\n`, 'lint.sh');
});

test(`3: a zsh hook runs ${LINT} inside an anonymous function { … } ($0 is "(anon)")`, async (t) => {
  await attack(t, `#!/usr/bin/env zsh\nfunction {\n  ${LINT}\n}\n`, 'lint.sh');
});

test(`3: a zsh hook autoloads check from its own folder (fpath=("$(dirname "$0")/functions" $fpath); autoload -Uz check; check): the function file's $0 is "check"`, async (t) => {
  await attack(t, `#!/usr/bin/env zsh\nfpath=("$(dirname "$0")/functions" $fpath)\nautoload -Uz check\ncheck\n`, 'lint.sh', { '.githooks/functions/check': `${LINT}\n` });
});

test(`1: a bash hook defines check() { ${LINT}; } and sources a library that exports it (export -f check), then runs bash -c check`, async (t) => {
  await attack(t, `#!/bin/bash\ncheck() { ${LINT}; }\n. "$(dirname "$0")/lib.sh"\nbash -c check\n`, 'lint.sh', { '.githooks/lib.sh': 'export -f check\n' });
});

test(`4: a bash hook sets BASH_ARGV0=tools/pre-commit, then runs ${LINT}`, async (t) => {
  await attack(t, `#!/bin/bash\nBASH_ARGV0=tools/pre-commit\n${LINT}\n`, 'tools/lint.sh');
});

test(`4: a zsh hook sets 0=tools/pre-commit, then runs ${LINT}`, async (t) => {
  await attack(t, `#!/usr/bin/env zsh\n0=tools/pre-commit\n${LINT}\n`, 'tools/lint.sh');
});

test(`held: a bash hook reads its checks with mapfile -t checks < .githooks/checks.txt (the list is read as a script) and runs each: sh "$c"`, async (t) => {
  await attack(t, `#!/bin/bash\nmapfile -t checks < .githooks/checks.txt\nfor c in "\${checks[@]}"; do sh "$c"; done\n`, 'tools/lint.sh', {
    '.githooks/checks.txt': 'tools/lint.sh\n',
  });
});

test(`held: an sh hook runs each check its list names (the list is read as words): xargs -a .githooks/checks.txt -n1 sh`, async (t) => {
  await attack(t, `#!/bin/sh\nxargs -a .githooks/checks.txt -n1 sh\n`, 'tools/lint.sh', { '.githooks/checks.txt': 'tools/lint.sh\n' });
});

test(`held: a hook picks LINT=tools/lint.sh after then and runs sh "$LINT" (dropped as a run; the value, a word, is read as words): tools/lint.sh runs ${LINT}`, async (t) => {
  await attack(t, `#!/bin/sh\nif [ -f tools/lint.sh ]; then LINT=tools/lint.sh; else LINT=.githooks/lint.sh; fi\nsh "$LINT"\n`, 'tools/impl.sh', {
    'tools/lint.sh': 'sh "$(dirname "$0")/impl.sh"\n',
  });
});

test(`held: a bash hook runs every tracked check: mapfile -t checks < <(git ls-files -- 'checks/*.sh') (mapfile's input is read as a shell's: refused)`, async (t) => {
  await attack(t, `#!/bin/bash\nmapfile -t checks < <(git ls-files -- 'checks/*.sh')\nfor c in "\${checks[@]}"; do sh "$c"; done\n`, 'checks/lint.sh');
});

test(`5: a bash hook runs every tracked check: mapfile -t checks <<< "$(git ls-files -- 'checks/*.sh')", then sh "$c" for each`, async (t) => {
  await attack(t, `#!/bin/bash\nmapfile -t checks <<< "$(git ls-files -- 'checks/*.sh')"\nfor c in "\${checks[@]}"; do sh "$c"; done\n`, 'checks/lint.sh');
});

test(`5: a bash hook runs every tracked check: git ls-files -- 'checks/*.sh' | { mapfile -t checks; for c in "\${checks[@]}"; do sh "$c"; done; }`, async (t) => {
  await attack(t, `#!/bin/bash\ngit ls-files -- 'checks/*.sh' | { mapfile -t checks; for c in "\${checks[@]}"; do sh "$c"; done; }\n`, 'checks/lint.sh');
});

test(`5: a bash hook builds its check's name with printf -v LINT '%s/%s' tools lint.sh and runs sh "$LINT"`, async (t) => {
  await attack(t, `#!/bin/bash\nprintf -v LINT '%s/%s' tools lint.sh\nsh "$LINT"\n`, 'tools/lint.sh');
});

test(`6: a hook sets BASH_ENV="$(dirname "$0")/env.sh" and runs bash tools/check.sh: bash sources env.sh with tools/check.sh as $0, and env.sh runs ${LINT}`, async (t) => {
  await attack(t, `#!/bin/sh\nexport BASH_ENV="$(dirname "$0")/env.sh"\nbash tools/check.sh\n`, 'tools/lint.sh', { '.githooks/env.sh': `${LINT}\n`, 'tools/check.sh': 'exit 0\n' });
});

test(`7: a hook sets IFS=/ and runs $X/lint.sh with X="sh/tools" (fields "sh" and "tools/lint.sh")`, async (t) => {
  await attack(t, `#!/bin/sh\nIFS=/\nX="sh/tools"\n$X/lint.sh\n`, 'tools/lint.sh');
});

// Controls: the same layouts spelled in ways zotbox reads.
test(`held: a bash hook exports check() with export -f check and runs it through xargs bash -c`, async (t) => {
  await attack(t, `#!/bin/bash\ncheck() { ${LINT}; }\nexport -f check\ngit diff --cached --name-only | xargs -n1 bash -c 'check "$0"'\n`, 'lint.sh');
});

test(`held: a hook reads its checks with while read -r c; do sh "$c"; done < .githooks/checks.txt`, async (t) => {
  await attack(t, `#!/bin/sh\nwhile read -r c; do sh "$c"; done < .githooks/checks.txt\n`, 'tools/lint.sh', { '.githooks/checks.txt': 'tools/lint.sh\n' });
});

test(`held: a hook sets LINT=tools/lint.sh at the top and runs sh "$LINT"; tools/lint.sh runs ${LINT}`, async (t) => {
  await attack(t, `#!/bin/sh\nLINT=tools/lint.sh\nsh "$LINT"\n`, 'tools/impl.sh', { 'tools/lint.sh': 'sh "$(dirname "$0")/impl.sh"\n' });
});
