// Unconfined, no sandbox masks the state directory: a program given a directory
// that holds it (or run in one) may walk into it. The gate refuses such a
// directory as an operand, as the working directory and as a followed link's
// target; a directory beside it, and the same commands confined, are allowed.
import test, { type ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { COMMAND_SEARCH_PATH, TRUSTED_PROGRAM_DIRECTORIES } from '../../src/host/executors/command-environment.js';
import { compileScopes } from '../../src/policy/scopes.js';
import { decideShellCommand, type ShellContext } from '../../src/policy/shell-decision.js';
import { tempDir } from '../fixtures/temp.js';

/** A home holding the state directory (~/.local/state/zotbox) and a project beside it; the workspace is given. */
function homeWithState(t: ExecutionContext, workspace: 'home' | 'project', confined: boolean): { context: ShellContext; home: string; project: string } {
  const home = realpathSync(tempDir(t, 'zb-unconfined-state-'));
  const state = path.join(home, '.local', 'state', 'zotbox');
  const data = path.join(state, 'agents', 'me', 'data');
  const project = path.join(home, 'project');
  mkdirSync(data, { recursive: true });
  mkdirSync(path.join(project, 'src'), { recursive: true });
  writeFileSync(path.join(project, 'src', 'a.txt'), 'x\n');
  symlinkSync(home, path.join(project, 'home-link'));
  const ws = workspace === 'home' ? home : project;
  const scopes = compileScopes({ read: ['${workspace}', home], write: ['${workspace}'] }, { workspace: ws, agentData: data, stateDirectory: state });
  const context: ShellContext = { mode: 'allowlist', allow: ['grep', 'ls', 'cat', 'du', 'git'], scopes, searchPath: COMMAND_SEARCH_PATH, trustedDirectories: TRUSTED_PROGRAM_DIRECTORIES, confined };
  return { context, home, project };
}

function outcome(command: string, context: ShellContext): string {
  const decision = decideShellCommand(command, context);
  return decision.allow ? 'allow' : `${decision.code}: ${decision.reason}`;
}

test('unconfined, a command run in a directory that holds the state directory is refused, naming it', (t) => {
  const { context, home } = homeWithState(t, 'home', false);
  for (const command of ['grep -r secret', 'ls -R', 'du', 'cat project/src/a.txt']) {
    const result = outcome(command, context);
    t.true(result.startsWith('ZB_POLICY_PATH_PROTECTED: '), `${command}: ${result}`);
    t.true(result.includes(`${home}/.local/state/zotbox`), result);
  }
  t.is(outcome('cd project && grep -r secret', context), 'allow');
});

test('unconfined, a directory operand that holds the state directory is refused; one beside it is allowed', (t) => {
  const { context, home } = homeWithState(t, 'project', false);
  t.regex(outcome(`grep -r secret ${home}`, context), /^ZB_POLICY_PATH_PROTECTED: /u);
  t.regex(outcome(`ls -R ${home}/.local`, context), /^ZB_POLICY_PATH_PROTECTED: /u);
  t.regex(outcome(`du ${home}/.local/state`, context), /^ZB_POLICY_PATH_PROTECTED: /u);
  t.regex(outcome('cd .. && ls', context), /^ZB_POLICY_PATH_PROTECTED: /u);
  t.is(outcome('grep -r secret src', context), 'allow');
  t.is(outcome(`ls ${home}/project`, context), 'allow');
});

test('unconfined, a link followed into a directory that holds the state directory is refused', (t) => {
  const { context } = homeWithState(t, 'project', false);
  t.regex(outcome('grep -R secret .', context), /^ZB_POLICY_SHELL_ARGUMENT: |^ZB_POLICY_PATH_PROTECTED: /u);
  t.regex(outcome('grep -R secret .', context), /home-link/u);
  t.is(outcome('grep -r secret .', context), 'allow'); // -r does not follow links inside the tree
});

test('confined, the sandbox masks the state directory: the same commands are allowed', (t) => {
  const home = homeWithState(t, 'home', true);
  t.is(outcome('grep -r secret', home.context), 'allow');
  const project = homeWithState(t, 'project', true);
  t.is(outcome(`grep -r secret ${project.home}`, project.context), 'allow');
  t.is(outcome('grep -R secret .', project.context), 'allow');
});

test('a directory a program changes into (git -C) is held to the same rule: refused unconfined, allowed confined', (t) => {
  const unconfined = homeWithState(t, 'project', false);
  execFileSync('git', ['init', '-q', unconfined.home]); // git status there would list the state directory's files
  t.regex(outcome(`git -C ${unconfined.home} status`, unconfined.context), /^ZB_POLICY_PATH_PROTECTED: .*holds the zotbox state directory/u);
  const confined = homeWithState(t, 'project', true);
  execFileSync('git', ['init', '-q', confined.home]);
  t.is(outcome(`git -C ${confined.home} status`, confined.context), 'allow');
});
