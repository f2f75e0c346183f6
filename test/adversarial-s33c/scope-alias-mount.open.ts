// adv27d finding 7 (medium-low: needs a second path to the workspace): whether a path
// on the way to a program is inside a write scope is decided by comparing path strings
// (changeable-program.ts isInsideRoot, program-directories.ts likewise). A directory
// reached by two paths with no link between them (a bind mount, as containers and dev
// containers make for a project; WSL's drive mounts) is not seen as the scope under its
// other path. A program directory's link to <alias>/build/jq, the user's build of jq
// reached through the alias, is taken as outside the scopes, and the agent writes
// <workspace>/build/jq, which runs as the allowed jq. Class: identity of what is looked
// up by name, not by the object (device and inode) it is. Needs root (mount --bind).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { runUnconfined, world } from './unconfined-world.js';

test('a link into the workspace by another mount of it is taken to lead into the write scope', async (t) => {
  if (process.getuid?.() !== 0) return t.fail('this repro needs root, to bind-mount the workspace at a second path');
  const w = world(t);
  const alias = path.join(w.root, 'alias');
  mkdirSync(alias);
  execFileSync('mount', ['--bind', w.workspace, alias]);
  // Registered after world's removal of root, so it runs first (ava runs teardowns in reverse order).
  t.teardown(() => execFileSync('umount', [alias]));
  const bin = path.join(w.root, 'tools', 'bin');
  mkdirSync(bin, { recursive: true });
  symlinkSync(path.join(alias, 'build', 'jq'), path.join(bin, 'jq'));
  await runUnconfined(
    t,
    w,
    [
      // Perl, not sh: a shell script would be denied as a stand-in; any other program file is not.
      { write: 'build/jq', content: `#!/usr/bin/perl\nopen(my $f, ">>", ${JSON.stringify(w.marker)}); print $f "agent code ran on the host\\n";\n` },
      { bash: 'chmod +x build/jq' },
      { write: 'package.json', content: '{}\n' },
      { bash: 'jq . package.json' },
    ],
    [bin],
  );
  t.false(existsSync(w.marker), existsSync(w.marker) ? readFileSync(w.marker, 'utf8') : '');
});
