// Finding: control locations are the words of a config value that hold a "/"
// (confine/git-config-lines.ts pathWords), resolved as plain paths. Git runs
// these values with a shell, from the top of the worktree, so a program can be
// named without a slash (an interpreter's argument: "sh fsmon.sh"), through a
// variable ("$HOME/…") or through a command substitution
// ("$(git rev-parse --show-toplevel)/…"). The file is then not a control
// location: the write tool (no bash at all) rewrites it, and the user's plain
// `git status` runs it (core.fsmonitor).
// docs/security.md lists "$HOME/x" and "$(dirname $0)" as not followed (a known
// limit, kept here because the same paragraph promises that git runs no program
// file the agent wrote); the interpreter's argument without a slash is not
// listed there: it is not a bare program name looked up on PATH.
import test from 'ava';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeWorld, runAttack } from './world.js';

const CASES: readonly { readonly title: string; readonly value: (root: string) => string; readonly file: string }[] = [
  { title: "an interpreter's argument without a slash (sh fsmon.sh)", value: () => 'sh fsmon.sh', file: 'fsmon.sh' },
  { title: 'a path through $HOME', value: () => '$HOME/ws/tools/fsmon.sh', file: 'tools/fsmon.sh' },
  { title: 'a path through $(git rev-parse --show-toplevel)', value: () => 'sh -c "$(git rev-parse --show-toplevel)/tools/fsmon.sh"', file: 'tools/fsmon.sh' },
];

for (const { title, value, file } of CASES) {
  test(`a program core.fsmonitor names as ${title} is a control location: the write tool cannot plant what git status runs`, async (t) => {
    const world = makeWorld(t);
    mkdirSync(path.join(world.workspace, 'tools'));
    const program = path.join(world.workspace, file);
    writeFileSync(program, '#!/bin/sh\nexit 0\n');
    chmodSync(program, 0o755);
    writeFileSync(path.join(world.workspace, 'a.txt'), 'hi\n');
    world.git('add', '.');
    world.git('commit', '-q', '-m', 'init');
    world.git('config', 'core.fsmonitor', value(world.root));

    await runAttack(world, { mode: 'none' }, [{ tool: 'write', input: { path: file, content: `#!/bin/sh\ntouch ${world.mark}\n` } }]);
    world.git('status', '--short');

    t.false(existsSync(world.mark), "the user's git status ran a program the agent wrote");
  });
}
