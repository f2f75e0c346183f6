// Finding: the aftercare puts a protected file back by its path, following
// links in the directories above it. A command renames the directory holding a
// protected file and puts a symlink to a directory outside every scope in its
// place; the aftercare, finding "the file changed", writes the recorded bytes
// through the link. zotbox's host, with the user's rights, thus overwrites a file
// outside the write scopes (here the user's own ~/.bashrc, with a project's
// .bashrc), which the sandbox never let the command reach.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { makeWorld, runAttack, waitsFor } from './world.js';

test('putting a protected file back never writes through a link to outside the write scopes', async (t) => {
  const world = makeWorld(t);
  const home = path.join(world.root, 'home'); // outside every scope: the user's own home
  mkdirSync(home);
  writeFileSync(path.join(home, '.bashrc'), "# the user's own bashrc\n");
  mkdirSync(path.join(world.workspace, 'container'));
  writeFileSync(path.join(world.workspace, 'container', '.bashrc'), 'echo "from the project"\n');
  world.git('add', '.');
  world.git('commit', '-q', '-m', 'init');

  await runAttack(world, { mode: 'ask' }, [{ tool: 'bash', input: { command: `mv container moved && ln -s ${home} container` } }]);

  t.is(readFileSync(path.join(home, '.bashrc'), 'utf8'), "# the user's own bashrc\n", 'zotbox wrote outside the write scopes');
});

// The two findings together (this one and concurrent-putback.test.ts): a run
// records a protected file while another run's command has it hold the agent's
// bytes, then redirects its parent directory; its aftercare writes the agent's
// bytes into the user's own ~/.bashrc.
test("two runs together cannot make zotbox write the agent's bytes into a file outside the write scopes", async (t) => {
  const world = makeWorld(t);
  const home = path.join(world.root, 'home');
  mkdirSync(home);
  writeFileSync(path.join(home, '.bashrc'), "# the user's own bashrc\n");
  world.git('commit', '-q', '--allow-empty', '-m', 'init');
  const fifo = (name: string) => path.join(world.workspace, name);
  execFileSync('mkfifo', ['-m', '0666', fifo('b-started'), fifo('b-go'), fifo('a-started'), fifo('a-go')]);
  chmodSync(world.workspace, 0o777);

  const runB = runAttack(world, { mode: 'ask' }, [{ tool: 'bash', input: { command: `mkdir c && echo 'touch ${world.mark}' > c/.bashrc; echo x > b-started; cat b-go` } }]);
  await readFile(fifo('b-started')); // c/.bashrc holds the agent's bytes
  const waits = waitsFor(world.workspace);
  const runA = runAttack(world, { mode: 'ask' }, [{ tool: 'bash', input: { command: `echo x > a-started; cat a-go; mv c c2 && ln -s ${home} c` } }]);
  const aStarted = readFile(fifo('a-started'));
  await Promise.race([aStarted, waits]); // run A recorded c/.bashrc as it is now, or waits for run B (zotbox orders them)
  await writeFile(fifo('b-go'), '');
  await runB;
  await aStarted;
  await writeFile(fifo('a-go'), '');
  await runA;

  t.is(readFileSync(path.join(home, '.bashrc'), 'utf8'), "# the user's own bashrc\n", "the agent's bytes are in the user's ~/.bashrc");
});

test('removing a protected file a command created never deletes through a link to outside the write scopes', async (t) => {
  const world = makeWorld(t);
  const outside = path.join(world.root, 'bin'); // outside every scope: the user's own programs
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'fsmon.sh'), "# the user's own program\n");
  world.git('commit', '-q', '--allow-empty', '-m', 'init');
  // The config names a program that is not there yet (a helper the project builds).
  world.git('config', 'core.fsmonitor', 'tools/fsmon.sh');

  await runAttack(world, { mode: 'ask' }, [{ tool: 'bash', input: { command: `ln -s ${outside} tools` } }]);

  t.true(existsSync(path.join(outside, 'fsmon.sh')), 'zotbox deleted a file outside the write scopes');
});

test('removing a protected directory a command created never deletes a tree outside the write scopes through a link', async (t) => {
  const world = makeWorld(t);
  const outside = path.join(world.root, 'home'); // the user's home, outside every scope
  mkdirSync(path.join(outside, 'git', 'project'), { recursive: true });
  writeFileSync(path.join(outside, 'git', 'project', 'work.txt'), 'a week of work\n');
  world.git('commit', '-q', '--allow-empty', '-m', 'init');
  // Versioned hooks the project has not made yet: hooks/git is a control location (a tree) that does not exist.
  world.git('config', 'core.hooksPath', 'hooks/git');

  await runAttack(world, { mode: 'ask' }, [{ tool: 'bash', input: { command: `ln -s ${outside} hooks` } }]);

  t.true(existsSync(path.join(outside, 'git', 'project', 'work.txt')), 'zotbox deleted ~/git, outside the write scopes');
});
