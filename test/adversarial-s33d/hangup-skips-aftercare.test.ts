// Finding (s33d): SIGHUP (the user closes the terminal or the ssh session drops while an agent runs) ends zotbox
// without the aftercare of the command in flight; SIGINT and SIGTERM run it (tested by hand: the hook is put back).
// Unconfined, the gate lets `cp` write a script a husky hook names (the write tool is refused it; bash is only
// checked after the call), so the agent's `cp evil.sh scripts/check.sh && sleep 20` leaves the script in place, the
// `sleep` outlives zotbox, and the user's next commit runs the agent's code. Confined, what the closed world of a git
// directory would undo (a rebase strategy `../evil`) stays too.
import test, { type ExecutionContext } from 'ava';
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, watch, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeWorld, userRuns, type World } from './world.js';

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/zotbox.js');

function agentAndReplay(world: World, allow: readonly string[] | 'ask', command: string): { agent: string; replay: string } {
  const agent = path.join(world.root, 'hup-agent');
  mkdirSync(agent);
  const bash = allow === 'ask' ? { mode: 'ask' } : { mode: 'allowlist', allow };
  const permissions = { fs: { read: ['${workspace}'], write: ['${workspace}'] }, bash };
  const manifest = {
    zotfile: 1,
    name: 'adv',
    version: '0.1.0',
    description: 'adversary',
    license: 'MIT',
    runtime: { min_zot: '0.2.0' },
    model: { requires: ['tools'], min_context: 64000 },
    permissions,
  };
  writeFileSync(path.join(agent, 'manifest.json'), JSON.stringify(manifest));
  writeFileSync(path.join(agent, 'AGENT.md'), 'You are adv.\n');
  const usage = { input_tokens: 0, output_tokens: 0 };
  const turns = [
    { content: [{ type: 'tool_use', id: 't0', name: 'bash', input: { command } }], stop: 'tool_use', usage },
    { content: [{ type: 'text', text: 'done' }], stop: 'end', usage },
  ];
  const replay = path.join(world.root, 'hup-replay.json');
  writeFileSync(replay, JSON.stringify({ zotbox_replay: 1, model: 'claude-sonnet-4-5', turns }));
  return { agent, replay };
}

/** Resolves once `file` holds `text`: awaits the change events under `root`, never a clock. */
function whenHolds(root: string, file: string, text: string): Promise<void> {
  return new Promise((resolve) => {
    const holds = () => existsSync(file) && readFileSync(file, 'utf8').includes(text);
    if (holds()) return resolve();
    const watcher = watch(root, { recursive: true }, () => {
      if (!holds()) return;
      watcher.close();
      resolve();
    });
  });
}

function hangUp(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGHUP');
  });
}

function startRun(t: ExecutionContext, world: World, agent: string, replay: string, confine: readonly string[]): ChildProcess {
  const child = spawn(process.execPath, [CLI, 'run', agent, 'go', '--cwd', world.workspace, '--replay', replay, '-y', ...confine], {
    env: { ZOTBOX_HOME: world.state, PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: path.join(world.root, 'home') },
    stdio: 'ignore',
  });
  t.teardown(() => child.kill('SIGKILL'));
  return child;
}

test("closing the terminal during an unconfined command leaves no script the user's hook runs", async (t) => {
  const world = makeWorld(t);
  const marker = path.join(world.root, 'PWNED');
  mkdirSync(path.join(world.workspace, '.husky'));
  mkdirSync(path.join(world.workspace, 'scripts'));
  userRuns(world, 'git', ['init', '-q']);
  userRuns(world, 'git', ['config', 'core.hooksPath', '.husky']);
  writeFileSync(path.join(world.workspace, '.husky', 'pre-commit'), '#!/bin/sh\nsh scripts/check.sh\n');
  chmodSync(path.join(world.workspace, '.husky', 'pre-commit'), 0o755);
  writeFileSync(path.join(world.workspace, 'scripts', 'check.sh'), 'echo checked\n');
  writeFileSync(path.join(world.workspace, 'evil.sh'), `touch ${marker}\n`);
  writeFileSync(path.join(world.workspace, 'README.md'), 'project\n');
  const { agent, replay } = agentAndReplay(world, ['cp', 'sleep'], 'cp evil.sh scripts/check.sh && sleep 20');
  const child = startRun(t, world, agent, replay, ['--confine', 'off']);
  await whenHolds(world.workspace, path.join(world.workspace, 'scripts', 'check.sh'), marker);
  await hangUp(child);
  userRuns(world, 'git', ['add', 'README.md']);
  userRuns(world, 'git', ['-c', 'user.email=u@example.com', '-c', 'user.name=u', 'commit', '-q', '-m', 'docs']);
  t.is(readFileSync(path.join(world.workspace, 'scripts', 'check.sh'), 'utf8'), 'echo checked\n', 'the script the hook runs was left as the agent wrote it');
  t.false(existsSync(marker), "the user's commit ran the agent's script");
});

test('closing the terminal during a confined command leaves no sequencer state the closed world refuses', async (t) => {
  const world = makeWorld(t);
  userRuns(world, 'git', ['init', '-q', '-b', 'main']);
  writeFileSync(path.join(world.workspace, 'a'), 'base\n');
  userRuns(world, 'git', ['add', 'a']);
  userRuns(world, 'git', ['-c', 'user.email=u@example.com', '-c', 'user.name=u', 'commit', '-q', '-m', 'base']);
  const strategy = path.join(world.workspace, '.git', 'rebase-merge', 'strategy');
  const { agent, replay } = agentAndReplay(world, 'ask', 'mkdir -p .git/rebase-merge && echo ../evil > .git/rebase-merge/strategy && sleep 20');
  const child = startRun(t, world, agent, replay, []);
  await whenHolds(world.workspace, strategy, '../evil');
  await hangUp(child);
  // With SIGINT or SIGTERM the aftercare undoes it and stops the run (ZB_CONFINEMENT_GIT_PROGRAM).
  t.false(existsSync(strategy) && readFileSync(strategy, 'utf8').includes('../evil'), 'a rebase strategy that runs git-merge-../evil was left behind');
});
