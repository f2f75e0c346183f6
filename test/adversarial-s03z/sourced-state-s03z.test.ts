// Review s03z: after the s01x fixes (be5fff6f), what a sourced file defines is still read from the file as it is when
// aftercare reads it and from the directory the reading takes it in, and "a write before it" is still judged by a
// command's name and by the text's order within one run. Each layout below: the user's bash hook
// (`core.hooksPath .githooks`) reads MAX from `.limits/*.txt`, makes it readonly, and comes to have
// `bash() { . "$@"; }` at run time where zotbox's reading says no file defines it; its `bash scripts/lib.sh` then
// sources lib.sh into the hook's shell, where lib's `MAX=3` fails and `(( MAX > 1 ))` evaluates the agent's value. One
// CONFINED call (real bubblewrap, the agent's `sh one.sh`) writes that value; then the user's `git commit` (twice for
// finding 3). Test 1 needs no function at all: the hook sources a file it writes from the agent's data. Each asserts
// the SAFE outcome by hand: the agent's code never ran.
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

const CODE = 'a[$({touch,PWNED})]';

/** The agent's one.sh: writes CODE into .limits/max.txt (a data file the hook reads). */
const LIMIT = `mkdir -p .limits\nprintf '%s\\n' '${CODE}' > .limits/max.txt\n`;

/** lib.sh sets its own MAX, then compares it: harmless in a new bash, not where MAX is readonly. */
const LIB = { 'scripts/lib.sh': '#!/bin/bash\nMAX=3\nif (( MAX > 1 )); then echo many; fi\n' };

/** The user's function named like a runner: `bash FILE` sources FILE into this shell. */
const FNS = 'bash() { . "$@"; }\n';

/** The hook's head: MAX from the data file, readonly. */
const HEAD = 'MAX=$(cat .limits/*.txt 2>/dev/null || echo 3)\nreadonly MAX\n';

/** The agent's confined `sh one.sh`, then the user's commits; true when the agent's code ran (at the top or in scripts/). */
async function agentThenUserCommits(t: ExecutionContext, ws: string, commits: number): Promise<boolean> {
  t.log('run:', (await agentWrites(t, ws, 'x1.txt', 'x\n', 'sh one.sh')).slice(-1500));
  for (let index = 0; index < commits; index++) {
    writeFileSync(path.join(ws, 'src.txt'), `user change ${index}\n`);
    try {
      git(ws, 'add', 'src.txt');
      git(ws, 'commit', '-q', '-m', `user change ${index}`);
    } catch (error) {
      t.log('user git failed:', String(error).slice(0, 300));
    }
  }
  return existsSync(path.join(ws, 'PWNED')) || existsSync(path.join(ws, 'scripts/PWNED'));
}

const attack = async (t: ExecutionContext, body: string, extra: Record<string, string>, options: { commits?: number; agent?: string } = {}) => {
  const ws = project(t, { 'src.txt': '1\n', 'one.sh': options.agent ?? LIMIT, '.githooks/pre-commit': `#!/bin/bash\n${HEAD}${body}\nexit 0\n`, ...extra });
  for (const file of ['.githooks/pre-commit', ...Object.keys(extra)]) chmodSync(path.join(ws, file), 0o755);
  git(ws, 'config', 'core.hooksPath', '.githooks');
  // SAFE: the agent's code never ran.
  t.false(await agentThenUserCommits(t, ws, options.commits ?? 1), "the user's git commit ran the agent's code");
};

// 1: a file the hook writes and then sources runs what the hook wrote, which aftercare never reads: absent, it is
// `absent` (only "may define any function" after the write); present, its old text is read. Here the hook turns the
// project's config/hook.env (data: a sed operand) into a file of exports and sources that; the agent's line runs.
// (A file the hook names is protected, so the data file is named by a pattern, as .limits/*.txt is.)
test('1: sed s/^/export / config/*.env > .cache/env.sh; . ./.cache/env.sh (the agent writes config/hook.env)', async (t) => {
  await attack(
    t,
    "mkdir -p .cache\nsed -e 's/^/export /' config/*.env > .cache/env.sh\n. ./.cache/env.sh",
    { 'config/hook.env': 'NODE_ENV=development\n' },
    {
      agent: "printf 'NODE_ENV=$(touch PWNED)\\n' > config/hook.env\n",
    },
  );
});

// 2: a write before a `.` makes an ABSENT file "may define any"; a PRESENT one is read as it is now, though the hook
// rewrites it before sourcing it (a file generated from an older template, a stub committed in its place).
test('2: .cache/fns.sh present (a stale stub); cp scripts/fns.template .cache/fns.sh; . ./.cache/fns.sh; bash scripts/lib.sh', async (t) => {
  await attack(t, 'mkdir -p .cache\ncp scripts/fns.template .cache/fns.sh\n. ./.cache/fns.sh\nbash scripts/lib.sh', {
    ...LIB,
    'scripts/fns.template': FNS,
    '.cache/fns.sh': '# generated from scripts/fns.template by the pre-commit hook\n',
  });
});

// 3: "a write before it" is read within one run, in the text's order; the file the hook caches for the NEXT run (a
// write after the `.`) is there at the user's second commit. Nothing reads the hook between the two commits.
test('3: [ -f .cache/fns.sh ] && . ./.cache/fns.sh; bash scripts/lib.sh; cp scripts/fns.template .cache/fns.sh (two commits)', async (t) => {
  await attack(t, '[ -f .cache/fns.sh ] && . ./.cache/fns.sh\nbash scripts/lib.sh\nmkdir -p .cache\ncp scripts/fns.template .cache/fns.sh', { ...LIB, 'scripts/fns.template': FNS }, { commits: 2 });
});

// 4: a command's own expansions (its arguments' command substitutions, its assignments) run before it: `operands.written`
// is set after the `.` command is noted, so a write in the `.` command itself is not "before" it.
test('4: . ./scripts/fns.sh "$(cp scripts/fns.template scripts/fns.sh)"; bash scripts/lib.sh', async (t) => {
  await attack(t, '. ./scripts/fns.sh "$(cp scripts/fns.template scripts/fns.sh)"\nbash scripts/lib.sh', { ...LIB, 'scripts/fns.template': FNS });
});

// 5: the non-writing list is judged by the command's name with its directory dropped: the user's own `./scripts/test`
// (or `cat` after `PATH="$PWD/scripts:$PATH"`, or after `hash -p`) is taken for test(1).
test('5: ./scripts/test (writes scripts/fns.sh); . ./scripts/fns.sh; bash scripts/lib.sh', async (t) => {
  await attack(t, './scripts/test\n. ./scripts/fns.sh\nbash scripts/lib.sh', {
    ...LIB,
    'scripts/fns.template': FNS,
    'scripts/test': '#!/bin/sh\ncp scripts/fns.template scripts/fns.sh\n',
  });
});

// 6: `~/NAME` is taken from the environment's HOME; bash takes it from HOME as the script left it.
test('6: export HOME="$(git rev-parse --show-toplevel)/.hookhome"; . ~/.hookrc; bash scripts/lib.sh', async (t) => {
  await attack(t, 'export HOME="$(git rev-parse --show-toplevel)/.hookhome"\n. ~/.hookrc\nbash scripts/lib.sh', { ...LIB, '.hookhome/.hookrc': FNS });
});

// 7: a cd in one sourced file is not handed to the next: the hook's `.` operands are absolute, so sourcedFunctionsOf
// reads env.sh with directoryUnknown from the hook's own cds (none); env.sh's `. ./fns.sh` is read at the top (a
// harmless fns.sh there), bash sources scripts/fns.sh. A function in common.sh that cds, called in env.sh, alike.
test('7: . "$root/hooklib/enter.sh" (cd scripts); . "$root/hooklib/env.sh" (. ./fns.sh); bash "$root/scripts/lib.sh"', async (t) => {
  await attack(t, 'root=$(git rev-parse --show-toplevel)\n. "$root/hooklib/enter.sh"\n. "$root/hooklib/env.sh"\nbash "$root/scripts/lib.sh"', {
    ...LIB,
    'hooklib/enter.sh': 'cd scripts\n',
    'hooklib/env.sh': '. ./fns.sh\n',
    'fns.sh': 'log() { echo "$@"; }\n',
    'scripts/fns.sh': FNS,
  });
});

test('7: common.sh defines up() { cd scripts; }; env.sh runs up, then . ./fns.sh', async (t) => {
  await attack(t, 'root=$(git rev-parse --show-toplevel)\n. "$root/hooklib/common.sh"\n. "$root/hooklib/env.sh"\nbash "$root/scripts/lib.sh"', {
    ...LIB,
    'hooklib/common.sh': 'up() { cd scripts; }\n',
    'hooklib/env.sh': 'up\n. ./fns.sh\n',
    'fns.sh': 'log() { echo "$@"; }\n',
    'scripts/fns.sh': FNS,
  });
});
