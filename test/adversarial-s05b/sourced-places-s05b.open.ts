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
import { execFileSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

const CODE = 'a[$({touch,PWNED})]';

/** The agent's one.sh: writes CODE into .limits/max.txt (a data file the hook reads). */
const LIMIT = `mkdir -p .limits\nprintf '%s\\n' '${CODE}' > .limits/max.txt\n`;

/** lib.sh sets its own MAX, then compares it: harmless in a new bash, not where MAX is readonly. */
const LIB = '#!/bin/bash\nMAX=3\nif (( MAX > 1 )); then echo many; fi\n';

/** The user's function named like a runner: `bash FILE` sources FILE into this shell. */
const FNS = 'bash() { . "$@"; }\n';

/** A harmless helper where zotbox looks instead. */
const LOG = 'log() { echo "$@"; }\n';

/** The hook's head: MAX from the data file, readonly. */
const HEAD = 'MAX=$(cat .limits/*.txt 2>/dev/null || echo 3)\nreadonly MAX\n';

/** Whether a file named PWNED is anywhere in the workspace (outside .git). */
function pwned(ws: string): boolean {
  return execFileSync('find', [ws, '-path', path.join(ws, '.git'), '-prune', '-o', '-name', 'PWNED', '-print'], { encoding: 'utf8' }).trim() !== '';
}

/** The agent's confined `sh one.sh`, then the user's commit; true when the agent's code ran. */
async function agentThenUserCommits(t: ExecutionContext, ws: string): Promise<boolean> {
  t.log('run:', (await agentWrites(t, ws, 'x1.txt', 'x\n', 'sh one.sh')).slice(-1500));
  writeFileSync(path.join(ws, 'src.txt'), 'user change\n');
  try {
    git(ws, 'add', 'src.txt');
    git(ws, 'commit', '-q', '-m', 'user change');
  } catch (error) {
    t.log('user git failed:', String(error).slice(0, 300));
  }
  return pwned(ws);
}

/** `hook` is the whole hook (its #! line included); `extra` the user's other files (made executable). */
const attack = async (t: ExecutionContext, hook: string, extra: Record<string, string>, agent = LIMIT) => {
  const ws = project(t, { 'src.txt': '1\n', 'one.sh': agent, '.githooks/pre-commit': hook, ...extra });
  for (const file of ['.githooks/pre-commit', ...Object.keys(extra)]) chmodSync(path.join(ws, file), 0o755);
  git(ws, 'config', 'core.hooksPath', '.githooks');
  // SAFE: the agent's code never ran.
  t.false(await agentThenUserCommits(t, ws), "the user's git commit ran the agent's code");
};

const hook = (body: string) => `#!/bin/bash\n${HEAD}${body}\nexit 0\n`;

// 2: changeDirectory's "where it runs" and noteSourced's `$PWD/x` take `$PWD` and `$(pwd)` as the top, whatever the
// script set PWD to or defined pwd() as; bash goes to (or reads from) scripts/.
test('2: PWD=scripts; cd "$PWD"; . ./fns.sh (read at the top: log only); bash lib.sh', async (t) => {
  await attack(t, hook('PWD=scripts\ncd "$PWD"\n. ./fns.sh\nbash lib.sh'), { 'scripts/lib.sh': LIB, 'scripts/fns.sh': FNS, 'fns.sh': LOG });
});

test('2: pwd() { echo scripts; }; cd "$(pwd)"; . ./fns.sh; bash lib.sh', async (t) => {
  await attack(t, hook('pwd() { echo scripts; }\ncd "$(pwd)"\n. ./fns.sh\nbash lib.sh'), { 'scripts/lib.sh': LIB, 'scripts/fns.sh': FNS, 'fns.sh': LOG });
});
