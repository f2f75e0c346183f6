// Finding (s33e): an .envrc (or its .env) that sets a variable git or a tool runs as a shell command
// (GIT_SSH_COMMAND, GIT_EDITOR, EDITOR, PAGER, GIT_PAGER...) is read only for pieces with a "/" (valuePaths), so
// `export GIT_SSH_COMMAND="sh ssh-wrapper.sh"` and `export GIT_EDITOR="python3 -m tools.edit"` protect nothing:
// the agent writes ssh-wrapper.sh or tools/edit.py and the user's next `git fetch` or `git commit` in that
// directory runs it. The same value in git config is read by the shell's grammar (commandWords). Class: a variable
// whose value is a command (or any value not on a closed list of data shapes) read by commandWords, as git config
// values are, or refused.
// A bare file name in any variable is missed the same way: `export BASH_ENV=env.sh` makes every bash the user runs
// there (a #!/bin/bash hook, any bash script) source ./env.sh, and nothing is protected (`BASH_ENV=tools/env.sh` is).
import test from 'ava';
import { agentWrites, direnvAllow, PAYLOAD, project, userRunUnderDirenvRunsAgentCode } from './harness.js';

test('GIT_SSH_COMMAND="sh ssh-wrapper.sh" in .envrc gets ssh-wrapper.sh refused to the write tool', (t) => {
  const ws = project(t, { '.envrc': 'export GIT_SSH_COMMAND="sh ssh-wrapper.sh"\n' });
  direnvAllow(ws);
  const run = agentWrites(ws, 'ssh-wrapper.sh', PAYLOAD.sh);
  // The user's fetch from an ssh remote runs the command before any network.
  t.false(userRunUnderDirenvRunsAgentCode(ws, ['git', 'ls-remote', 'git@example.invalid:org/repo.git']), `the user's git, under direnv, ran the agent's ssh-wrapper.sh\n${run.output}`);
});

test('GIT_EDITOR="python3 -m tools.edit" in .envrc gets tools/edit.py refused to the write tool', (t) => {
  const ws = project(t, { '.envrc': 'export GIT_EDITOR="python3 -m tools.edit"\n', 'tools/README.md': 'tools\n' });
  direnvAllow(ws);
  const run = agentWrites(ws, 'tools/edit.py', PAYLOAD.py);
  t.false(userRunUnderDirenvRunsAgentCode(ws, ['git', 'commit', '--allow-empty']), `the user's git commit, under direnv, ran the agent's tools/edit.py\n${run.output}`);
});

test('BASH_ENV=env.sh in .envrc gets env.sh refused to the write tool', (t) => {
  const ws = project(t, { '.envrc': 'export BASH_ENV=env.sh\n' });
  direnvAllow(ws);
  const run = agentWrites(ws, 'env.sh', PAYLOAD.sh);
  t.false(userRunUnderDirenvRunsAgentCode(ws, ['bash', '-c', 'true']), `the user's bash, under direnv, sourced the agent's env.sh\n${run.output}`);
});
