// Finding (s33d): in a .env that the user's .envrc loads with direnv's `dotenv`, a PATH entry that uses a variable
// (`PATH=${TOOLS}/bin:$PATH`, TOOLS set on the line before) is silently skipped by zotbox's reader instead of being
// resolved or refusing every writer ("cannot read" must never mean "nothing to protect"). direnv expands it, so an
// agent (write tool, then a confined `chmod +x`) plants tools/bin/git and the user's next plain `git` in the directory runs it.
import test from 'ava';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeWorld, userRuns } from './world.js';

test("a PATH directory a dotenv file names through a variable is not the agent's to write", async (t) => {
  const world = makeWorld(t);
  const marker = path.join(world.root, 'PWNED');
  mkdirSync(path.join(world.workspace, 'tools', 'bin'), { recursive: true });
  writeFileSync(path.join(world.workspace, '.envrc'), 'dotenv\n');
  writeFileSync(path.join(world.workspace, '.env'), 'TOOLS=tools\nPATH=${TOOLS}/bin:$PATH\n');
  const result = await world.run([{ write: 'tools/bin/git', content: `#!/bin/sh\ntouch ${marker}\n` }, { bash: 'chmod +x tools/bin/git' }], { bash: 'ask' });
  t.is(result.status, 0, result.stderr);
  const planted = path.join(world.workspace, 'tools', 'bin', 'git');
  // The user's own shell, later: direnv loads the allowed .envrc (and its .env), and the user types `git status`.
  userRuns(world, 'direnv', ['allow', '.']);
  try {
    userRuns(world, 'direnv', ['exec', '.', 'sh', '-c', 'git status']);
  } catch {
    // not a repository: the plain git would say so; what matters is which git ran
  }
  t.false(existsSync(planted), "the agent wrote a program into a directory the user's .env puts on PATH");
  t.false(existsSync(marker), "the user's `git` ran a program the agent wrote");
});

// Same class in the .envrc itself: a PATH entry with a character outside [\w.@+~-/] (a space, a non-ASCII letter,
// `%`, `,`) is dropped by the same filter, while bash and direnv put it on PATH as written.
test("a PATH directory with a space in its name that the .envrc names is not the agent's to write", async (t) => {
  const world = makeWorld(t);
  const marker = path.join(world.root, 'PWNED');
  mkdirSync(path.join(world.workspace, 'dev tools'));
  writeFileSync(path.join(world.workspace, '.envrc'), 'export PATH="$PWD/dev tools:$PATH"\n');
  const result = await world.run([{ write: 'dev tools/git', content: `#!/bin/sh\ntouch ${marker}\n` }, { bash: "chmod +x 'dev tools/git'" }], { bash: 'ask' });
  t.is(result.status, 0, result.stderr);
  const planted = path.join(world.workspace, 'dev tools', 'git');
  userRuns(world, 'direnv', ['allow', '.']);
  try {
    userRuns(world, 'direnv', ['exec', '.', 'sh', '-c', 'git status']);
  } catch {
    // not a repository: the plain git would say so; what matters is which git ran
  }
  t.false(existsSync(planted), "the agent wrote a program into a directory the user's .envrc puts on PATH");
  t.false(existsSync(marker), "the user's `git` ran a program the agent wrote");
});
