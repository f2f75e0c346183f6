// Finding (issue 21 §3, "program paths of helpers that lie in a scope"): a new repository's config may hold
// remote.<name>.url (git-config-rules.ts ALLOWED_KEYS), checked only for "::". A URL "evil://host/x" makes the
// user's git run the transport helper git-remote-evil, looked up on the user's PATH. zotbox already protects bare
// program names of config values in relative PATH entries (control-locations.ts searchPath), but not the program
// a URL's scheme names. With a relative PATH entry (here a trailing "."), the user's `git fetch` in the nested
// repository the agent made runs the agent's git-remote-evil, unconfined.
// The same class without any config change: git tries an external `git-NAME` on PATH before it expands the user's
// alias NAME (git.c run_argv), so the user's own `alias.st = status` makes `git st` run ./git-st from that entry.
// Class: program names git derives from configuration (git-<alias>, git-remote-<scheme>, git-credential-<helper>,
// git-merge-<strategy>) are not looked up in the PATH entries zotbox already treats as the scopes'.
import test from 'ava';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { git, gitMayFail, makeAgent, makeRepo, makeWorld, runAgent } from './harness.js';

test("a remote URL scheme the agent wrote does not make the user's git fetch run the agent's helper", async (t) => {
  const world = makeWorld(t);
  const workspace = makeRepo(path.join(world.root, 'ws'));
  mkdirSync(world.state);
  const agent = makeAgent(world.root, 'asker', { mode: 'ask' });
  const userPath = `${process.env.PATH ?? '/usr/bin:/bin'}:.`;
  const result = await runAgent(
    world,
    agent,
    workspace,
    [
      [
        'bash',
        {
          command: `git init -q lib && cd lib && printf '#!/bin/sh\\ntouch ${world.marker}\\n' > git-remote-evil && chmod +x git-remote-evil && git remote add origin evil://example.invalid/u/r`,
        },
      ],
    ],
    { PATH: userPath },
  );
  t.log(
    result.stdout
      .split('\n')
      .filter((line) => line.includes('tool.result') || line.includes('run.end'))
      .join('\n')
      .slice(0, 1500),
  );
  // The user, later, in the repository the agent made:
  gitMayFail(path.join(workspace, 'lib'), ['fetch', 'origin'], { ...process.env, PATH: userPath });
  t.false(existsSync(world.marker), "the user's git fetch ran git-remote-evil, which the agent wrote");
});

test("the user's own alias does not run a git-ALIAS program the agent left", async (t) => {
  const world = makeWorld(t);
  const workspace = makeRepo(path.join(world.root, 'ws'));
  git(workspace, ['config', 'alias.st', 'status']);
  mkdirSync(world.state);
  const agent = makeAgent(world.root, 'asker', { mode: 'ask' });
  const userPath = `${process.env.PATH ?? '/usr/bin:/bin'}:.`;
  const result = await runAgent(world, agent, workspace, [['bash', { command: `printf '#!/bin/sh\\ntouch ${world.marker}\\n' > git-st && chmod +x git-st` }]], { PATH: userPath });
  t.log(
    result.stdout
      .split('\n')
      .filter((line) => line.includes('tool.result'))
      .join('\n')
      .slice(0, 800),
  );
  gitMayFail(workspace, ['st'], { ...process.env, PATH: userPath });
  t.false(existsSync(world.marker), "the user's git st ran ./git-st, which the agent wrote");
});
