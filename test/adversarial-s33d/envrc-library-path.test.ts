// Finding (s33d): a user's .envrc that puts a workspace directory on a library search path whose variable is not
// named *PATH (PERL5LIB, RUBYLIB, PYTHONHOME, ...) does not protect that directory: an agent with only the write tool
// writes lib/strict.pm, and the user's next perl run in the directory (direnv loaded) runs it. PYTHONPATH and
// `path_add PERL5LIB lib` are protected whole; `export PERL5LIB=$PWD/lib` is not.
import test from 'ava';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeWorld, userRuns } from './world.js';

test("a module on the PERL5LIB the user's .envrc sets is not the agent's to write", async (t) => {
  const world = makeWorld(t);
  const marker = path.join(world.root, 'PWNED');
  mkdirSync(path.join(world.workspace, 'lib'));
  writeFileSync(path.join(world.workspace, 'lib', 'Foo.pm'), 'package Foo; 1;\n');
  writeFileSync(path.join(world.workspace, '.envrc'), 'export PERL5LIB=$PWD/lib\n');
  const planted = `package strict; open(my $f, '>', '${marker}'); close $f; sub import {} sub unimport {} 1;\n`;
  const result = await world.run([{ write: 'lib/strict.pm', content: planted }]);
  t.is(result.status, 0, result.stderr);
  // The user's own shell, later: direnv loads the allowed .envrc, and any perl program that says `use strict` runs.
  userRuns(world, 'direnv', ['allow', '.']);
  userRuns(world, 'direnv', ['exec', '.', 'perl', '-e', 'use strict; 1']);
  // Safe outcome: the write was refused (as for PYTHONPATH), so nothing the agent wrote ran.
  t.false(existsSync(path.join(world.workspace, 'lib', 'strict.pm')), "the agent wrote a module onto the user's PERL5LIB");
  t.false(existsSync(marker), "the user's perl ran a module the agent wrote");
});

// Same class, worse outcome: a directory named by a variable that tools search for configuration. With the user's
// `export XDG_CONFIG_HOME=$PWD/.config`, an agent with only the write tool writes .config/git/config (git's global
// config there) and the user's plain `git status` runs its core.fsmonitor.
test("git's global config under the XDG_CONFIG_HOME the user's .envrc sets is not the agent's to write", async (t) => {
  const world = makeWorld(t);
  const marker = path.join(world.root, 'PWNED');
  mkdirSync(path.join(world.workspace, '.config'));
  userRuns(world, 'git', ['init', '-q']);
  userRuns(world, 'git', ['-c', 'user.email=u@example.com', '-c', 'user.name=u', 'commit', '-q', '--allow-empty', '-m', 'init']);
  writeFileSync(path.join(world.workspace, '.envrc'), 'export XDG_CONFIG_HOME=$PWD/.config\n');
  const result = await world.run([{ write: '.config/git/config', content: `[core]\n  fsmonitor = touch ${marker}; false\n` }]);
  t.is(result.status, 0, result.stderr);
  userRuns(world, 'direnv', ['allow', '.']);
  userRuns(world, 'direnv', ['exec', '.', 'git', 'status', '--short']);
  t.false(existsSync(path.join(world.workspace, '.config', 'git', 'config')), "the agent wrote git config under the user's XDG_CONFIG_HOME");
  t.false(existsSync(marker), "the user's git status ran a program the agent configured");
});
