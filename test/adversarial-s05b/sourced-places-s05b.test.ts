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

/** A writer of the user's: makes .cache/fns.sh from the template (it names the file; the hook does not). */
const GEN = '#!/bin/sh\nmkdir -p .cache\ncp scripts/fns.template .cache/fns.sh\n';

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
