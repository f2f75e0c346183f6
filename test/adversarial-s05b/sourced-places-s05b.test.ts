// Review s05b: after the s03z fixes (f1c19791), what a sourced file defines is read from the file zotbox takes the `.`
// to name, and "a write before it" is judged by a closed list of bare names. Four ways the shell at run time sees
// another file, or another program, than zotbox's reading: (1) PATH or the hash table changed without a `PATH=` word,
// so a listed bare name (`cat`) runs the user's writer; (2) `$PWD` or `$(pwd)` taken as where the script runs though the
// script set PWD or defined pwd(); (3) a `.` of a path the kernel resolves per process (/dev/fd/N, /proc/self/cwd/…),
// resolved in zotbox's own process; (4) `$(git rev-parse --show-toplevel)` in a script a hook runs from a subfolder,
// taken as that subfolder (this one needs no function: zotbox protects the wrong file).
//
// Setup as s03z: the user's bash hook (`core.hooksPath .githooks`) reads MAX from `.limits/*.txt`, makes it readonly,
// has `bash() { . "$@"; }` at run time where zotbox's reading says nothing defines it, and runs `bash scripts/lib.sh`
// (lib.sh: `MAX=3; if (( MAX > 1 ))`): lib.sh runs in the hook's shell, `MAX=3` fails, and the arithmetic evaluates the
// agent's value. One CONFINED call (real bubblewrap, the agent's `sh one.sh`) writes that value; then the user's `git
// commit`. Each test asserts the SAFE outcome by hand: the agent's code never ran (no PWNED anywhere in the workspace).
import test from 'ava';
import { attack, FNS, GEN, HEAD, hook, LIB, LOG } from './harness.js';

// 1: the non-writing list trusts a bare name unless the command itself holds a `PATH=` word. `printf -v PATH` (and
// `hash -p FILE NAME`, s03z row 5's variant, still open) make `cat` the user's tools/cat, which writes .cache/fns.sh;
// zotbox reads `. ./.cache/fns.sh` as a file not there with no write before it: "defines nothing".
test('1: printf -v PATH "$PWD/tools:$PATH"; cat /dev/null (tools/cat writes .cache/fns.sh); . ./.cache/fns.sh', async (t) => {
  await attack(t, hook('printf -v PATH \'%s\' "$PWD/tools:$PATH"\ncat /dev/null\n. ./.cache/fns.sh\nbash scripts/lib.sh'), {
    'scripts/lib.sh': LIB,
    'scripts/fns.template': FNS,
    'tools/cat': GEN,
  });
});

test('1: hash -p ./tools/gen cat; cat /dev/null (tools/gen writes .cache/fns.sh); . ./.cache/fns.sh', async (t) => {
  await attack(t, hook('hash -p ./tools/gen cat\ncat /dev/null\n. ./.cache/fns.sh\nbash scripts/lib.sh'), {
    'scripts/lib.sh': LIB,
    'scripts/fns.template': FNS,
    'tools/gen': GEN,
  });
});

// 3: a `.` of a path the kernel resolves per process is resolved in zotbox's own: /dev/fd/200 is not open there
// ("absent", no write before: nothing), in the hook it is scripts/fns.data; /proc/self/cwd is zotbox's cwd (the top),
// in the hook it is scripts/ after the cd (the hook's own relative `.` would be unknown after it).
test('3: . /dev/fd/200 200< scripts/fns.data; bash scripts/lib.sh', async (t) => {
  await attack(t, hook('. /dev/fd/200 200< scripts/fns.data\nbash scripts/lib.sh'), { 'scripts/lib.sh': LIB, 'scripts/fns.data': FNS });
});

test('3: cd scripts; . /proc/self/cwd/fns.sh; bash lib.sh', async (t) => {
  await attack(t, hook('cd scripts\n. /proc/self/cwd/fns.sh\nbash lib.sh'), { 'scripts/lib.sh': LIB, 'scripts/fns.sh': FNS, 'fns.sh': LOG });
});

// 4: a script a hook runs from a subfolder (`cd web && ./check.sh`) is read with that subfolder as where it runs, and
// `$(git rev-parse --show-toplevel)` is spelled as where it runs: web/, not the top. (a) No function needed: zotbox
// protects web/tools/lint.sh, the agent appends to the top's tools/lint.sh, the hook runs it. (b) A `.` of the top's
// fns.sh is read in web/ (log only), and a cd to the top is taken for no move.
test('4a: cd web && ./check.sh; check.sh: bash "$(git rev-parse --show-toplevel)/tools/lint.sh" (the agent edits tools/lint.sh)', async (t) => {
  await attack(
    t,
    '#!/bin/bash\ncd web && ./check.sh\nexit 0\n',
    { 'web/check.sh': '#!/bin/bash\nbash "$(git rev-parse --show-toplevel)/tools/lint.sh"\n', 'tools/lint.sh': '#!/bin/bash\necho lint\n' },
    "printf 'touch PWNED\\n' >> tools/lint.sh\n",
  );
});

test('4b: cd web && ./check.sh; check.sh: . "$(git rev-parse --show-toplevel)/fns.sh"; bash ../scripts/lib.sh', async (t) => {
  await attack(t, '#!/bin/bash\ncd web && ./check.sh\nexit 0\n', {
    'web/check.sh': `#!/bin/bash\n${HEAD.replace('.limits', '../.limits')}. "$(git rev-parse --show-toplevel)/fns.sh"\nbash ../scripts/lib.sh\n`,
    'scripts/lib.sh': LIB,
    'fns.sh': FNS,
    'web/fns.sh': LOG,
  });
});

test('4b: cd web && ./check.sh; check.sh: cd "$(git rev-parse --show-toplevel)"; . ./fns.sh; bash scripts/lib.sh', async (t) => {
  await attack(t, '#!/bin/bash\ncd web && ./check.sh\nexit 0\n', {
    'web/check.sh': `#!/bin/bash\n${HEAD.replace('.limits', '../.limits')}cd "$(git rev-parse --show-toplevel)"\n. ./fns.sh\nbash scripts/lib.sh\n`,
    'scripts/lib.sh': LIB,
    'fns.sh': FNS,
    'web/fns.sh': LOG,
  });
});

// 2: changeDirectory's "where it runs" and noteSourced's `$PWD/x` take `$PWD` and `$(pwd)` as the top, whatever the
// script set PWD to or defined pwd() as; bash goes to (or reads from) scripts/.
test('2: PWD=scripts; cd "$PWD"; . ./fns.sh (read at the top: log only); bash lib.sh', async (t) => {
  await attack(t, hook('PWD=scripts\ncd "$PWD"\n. ./fns.sh\nbash lib.sh'), { 'scripts/lib.sh': LIB, 'scripts/fns.sh': FNS, 'fns.sh': LOG });
});

test('2: pwd() { echo scripts; }; cd "$(pwd)"; . ./fns.sh; bash lib.sh', async (t) => {
  await attack(t, hook('pwd() { echo scripts; }\ncd "$(pwd)"\n. ./fns.sh\nbash lib.sh'), { 'scripts/lib.sh': LIB, 'scripts/fns.sh': FNS, 'fns.sh': LOG });
});
