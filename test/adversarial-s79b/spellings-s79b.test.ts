// Review s79b: after s77z's fixes (the new-bash and export checks read the text as the shell joins its words; a value
// holding quoted shell code is read as code; IFS in any spelling), a hook still runs a file zotbox never read, or read
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

// 1: the export and the new bash spelled so the raw-text regexes miss them, while the lexer reads them as bash does.
test(`1: a bash hook exports check() { ${LINT}; } with a line continuation inside export and bash`, async (t) => {
  await attack(t, `#!/bin/bash\ncheck() { ${LINT}; }\nex\\\nport -f check\nba\\\nsh -c check\n`, 'lint.sh');
});

test(`1: a bash hook exports check() as declare -$'fx' check and runs b$'a'sh -c check`, async (t) => {
  await attack(t, `#!/bin/bash\ncheck() { ${LINT}; }\ndeclare -$'fx' check\nb$'a'sh -c check\n`, 'lint.sh');
});

test(`1: a hook whose #! line is env -S bash -o allexport defines check() and runs b$'a'sh -c check`, async (t) => {
  await attack(t, `#!/usr/bin/env -S bash -o allexport\ncheck() { ${LINT}; }\nb$'a'sh -c check\n`, 'lint.sh');
});

test(`1: a bash hook turns allexport on as set -$'a', defines check() and runs /bin/ba[s]h -c check x`, async (t) => {
  await attack(t, `#!/bin/bash\nset -$'a'\ncheck() { ${LINT}; }\n/bin/ba[s]h -c check x\n`, 'lint.sh');
});

// 2: shell code in a value that is not spelled as a quoted `$(`.
test(`2: a bash hook prompt-expands X=$'\\x24(sh tools/lint.sh)': echo "\${X@P}"`, async (t) => {
  await attack(t, `#!/bin/bash\nX=$'\\x24(sh tools/lint.sh)'\necho "\${X@P}"\n`, 'tools/lint.sh');
});

test(`2: a bash hook sets PS4=$'+\\x24(sh tools/lint.sh) ' and turns on set -x`, async (t) => {
  await attack(t, `#!/bin/bash\nPS4=$'+\\x24(sh tools/lint.sh) '\nset -x\ntrue\n`, 'tools/lint.sh');
});

test(`2: a bash hook builds C=$A$B from A='$' and B='(sh tools/lint.sh)': echo "\${C@P}"`, async (t) => {
  await attack(t, `#!/bin/bash\nA='$'\nB='(sh tools/lint.sh)'\nC=$A$B\necho "\${C@P}"\n`, 'tools/lint.sh');
});

test(`2: a bash hook reads X from a here-string '$(sh tools/lint.sh)': echo "\${X@P}"`, async (t) => {
  await attack(t, `#!/bin/bash\nread -r X <<< '$(sh tools/lint.sh)'\necho "\${X@P}"\n`, 'tools/lint.sh');
});

test(`2: a bash hook builds X with printf -v X '%s(sh tools/lint.sh)' '$': echo "\${X@P}"`, async (t) => {
  await attack(t, `#!/bin/bash\nprintf -v X '%s(sh tools/lint.sh)' '$'\necho "\${X@P}"\n`, 'tools/lint.sh');
});

test(`2: a bash hook evaluates X=$'a[\\x24(sh tools/lint.sh)]' arithmetically: (( X ))`, async (t) => {
  await attack(t, `#!/bin/bash\nX=$'a[\\x24(sh tools/lint.sh)]'\n(( X ))\n`, 'tools/lint.sh');
});

test(`2: a bash hook keeps '$(sh tools/lint.sh)' in an array: a=('$(sh tools/lint.sh)'); echo "\${a[0]@P}"`, async (t) => {
  await attack(t, `#!/bin/bash\na=('$(sh tools/lint.sh)')\necho "\${a[0]@P}"\n`, 'tools/lint.sh');
});

// 3: IFS set through a name that is not the word IFS.
test(`3: a bash hook sets IFS through a nameref: declare -n R=IFS; R=/; X=sh/tools; $X/lint.sh`, async (t) => {
  await attack(t, `#!/bin/bash\ndeclare -n R=IFS\nR=/\nX=sh/tools\n$X/lint.sh\n`, 'tools/lint.sh');
});

test(`3: a hook unsets IFS and sets it by a default: unset IFS; : "\${IFS:=/}"; X=sh/tools; $X/lint.sh`, async (t) => {
  await attack(t, `#!/bin/sh\nunset IFS\n: "\${IFS:=/}"\nX=sh/tools\n$X/lint.sh\n`, 'tools/lint.sh');
});

test(`3: a bash hook sets IFS with a computed declare operand: I=IFS; declare "$I=/"; X=sh/tools; $X/lint.sh`, async (t) => {
  await attack(t, `#!/bin/bash\nI=IFS\ndeclare "$I=/"\nX=sh/tools\n$X/lint.sh\n`, 'tools/lint.sh');
});

// handsOnFunctions: the sourcer's export makes it opaque, and so its sourced file (held).
test(`held: a bash hook sources lib.sh (which defines check() { ${LINT}; }), then export -f check; bash -c check`, async (t) => {
  await attack(t, `#!/bin/bash\n. .githooks/lib.sh\nexport -f check\nbash -c check\n`, 'lint.sh', { '.githooks/lib.sh': `check() { ${LINT}; }\n` });
});

test(`1: a bash hook exports check() as declare -$'fx' check and runs exec \${X:-ba}sh -c check x`, async (t) => {
  await attack(t, `#!/bin/bash\ncheck() { ${LINT}; }\ndeclare -$'fx' check\nexec \${X:-ba}sh -c check x\n`, 'lint.sh');
});

test(`1: a hook defines check() and sources lib1.sh, which sources lib2.sh, which runs export -f check; bash -c check`, async (t) => {
  await attack(t, `#!/bin/bash\ncheck() { ${LINT}; }\n. .githooks/lib1.sh\n`, 'lint.sh', {
    '.githooks/lib1.sh': '. .githooks/lib2.sh\n',
    '.githooks/lib2.sh': 'export -f check\nbash -c check\n',
  });
});

test(`2: a bash hook appends code to a value: X=; X+='$(sh tools/lint.sh)'; echo "\${X@P}"`, async (t) => {
  await attack(t, `#!/bin/bash\nX=\nX+='$(sh tools/lint.sh)'\necho "\${X@P}"\n`, 'tools/lint.sh');
});

test(`2: a bash hook reads X from a quoted here-document holding $(sh tools/lint.sh): echo "\${X@P}"`, async (t) => {
  await attack(t, `#!/bin/bash\nread -r X <<'EOF'\n$(sh tools/lint.sh)\nEOF\necho "\${X@P}"\n`, 'tools/lint.sh');
});

test(`2: a bash hook sets X=\${Y:-'$(sh tools/lint.sh)'}: echo "\${X@P}"`, async (t) => {
  await attack(t, `#!/bin/bash\nX=\${Y:-'$(sh tools/lint.sh)'}\necho "\${X@P}"\n`, 'tools/lint.sh');
});

// 4: a command substitution inside a parameter expansion's word is never read, quoted or not.
test(`4: a hook sets X="\${Y:-$(sh tools/lint.sh)}" (a default computed by a command)`, async (t) => {
  await attack(t, `#!/bin/sh\nX="\${Y:-$(sh tools/lint.sh)}"\n`, 'tools/lint.sh');
});

test(`4: a hook assigns a default: : "\${Y:=$(sh tools/lint.sh)}"`, async (t) => {
  await attack(t, `#!/bin/sh\n: "\${Y:=$(sh tools/lint.sh)}"\n`, 'tools/lint.sh');
});
