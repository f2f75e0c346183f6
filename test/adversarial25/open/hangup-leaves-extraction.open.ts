// Finding: the extraction of the package is removed when the run ends or on the
// process's 'exit' event; a SIGHUP (the user's terminal closing, an ssh session
// dropping) ends `zotbox run` by Node's default action, which emits no 'exit', so the
// package's bytes stay in the temp directory for good. SIGTERM and SIGINT are handled.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { agentDir, replayFile, runAgent, world } from './world.js';

for (const signal of ['SIGHUP', 'SIGTERM'] as const) {
  test(`a run stopped by ${signal} mid-command leaves no extraction behind`, async (t) => {
    const w = world(t);
    const ws = path.join(w.root, 'ws');
    mkdirSync(ws);
    execFileSync('mkfifo', [path.join(ws, 'go')]);
    const agent = agentDir(w, {
      name: 'waiter',
      read: ['${workspace}'],
      write: ['${workspace}'],
      files: { 'skills/pdf/SKILL.md': 'Fills forms.\n', 'skills/pdf/scripts/wait.py': "open('go').read()\n" },
    });
    const run = runAgent(w, agent, replayFile(w, 'wait', [{ name: 'bash', input: { command: 'python3 /zotbox/skills/pdf/scripts/wait.py' } }]), ws);
    // The command holds the FIFO open: the extraction exists and the run is mid-command.
    const opened = await Promise.race([open(path.join(ws, 'go'), 'w'), run.done]);
    if (!('write' in opened)) {
      t.fail(`the run ended before its command waited: ${JSON.stringify(opened)}`);
      return;
    }
    t.deepEqual(readdirSync(w.tmp).filter((name) => name.startsWith('zotbox-image-')).length, 1, 'the extraction exists while the command runs');
    process.kill(run.pid, signal);
    await run.done;
    await opened.close();
    t.deepEqual(
      readdirSync(w.tmp).filter((name) => name.startsWith('zotbox-image-')),
      [],
    );
  });
}
