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
import { attack, FNS, hook, LIB, LOG } from './harness.js';

// 2: changeDirectory's "where it runs" and noteSourced's `$PWD/x` take `$PWD` and `$(pwd)` as the top, whatever the
// script set PWD to or defined pwd() as; bash goes to (or reads from) scripts/.
test('2: PWD=scripts; cd "$PWD"; . ./fns.sh (read at the top: log only); bash lib.sh', async (t) => {
  await attack(t, hook('PWD=scripts\ncd "$PWD"\n. ./fns.sh\nbash lib.sh'), { 'scripts/lib.sh': LIB, 'scripts/fns.sh': FNS, 'fns.sh': LOG });
});

test('2: pwd() { echo scripts; }; cd "$(pwd)"; . ./fns.sh; bash lib.sh', async (t) => {
  await attack(t, hook('pwd() { echo scripts; }\ncd "$(pwd)"\n. ./fns.sh\nbash lib.sh'), { 'scripts/lib.sh': LIB, 'scripts/fns.sh': FNS, 'fns.sh': LOG });
});
