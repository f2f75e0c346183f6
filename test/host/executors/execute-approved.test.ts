// The gate and the real executors together: what the gate approves is done,
// what it denies never reaches the file system.
import { confinedIsolation } from '../../fixtures/isolation.js';
import test, { type ExecutionContext } from 'ava';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { loadImageFromDirectory } from '../../../src/archive/load-image.js';
import { COMMAND_SEARCH_PATH, TRUSTED_PROGRAM_DIRECTORIES } from '../../../src/host/executors/command-environment.js';
import { createExecutor } from '../../../src/host/executors/execute-approved.js';
import { currentControlLocations } from '../../../src/host/executors/confine/protected-locations.js';
import { listBundledSkills } from '../../../src/host/executors/skill.js';
import { GateClient } from '../../../src/policy/gate-client.js';
import { createGateDecider } from '../../../src/policy/gate-decider.js';
import { serveGate } from '../../../src/policy/gate-server.js';
import { compileScopes } from '../../../src/policy/scopes.js';
import { EXAMPLES_DIR } from '../../fixtures/paths.js';
import { tempDir } from '../../fixtures/temp.js';

/** The gate for a workspace, with the real executors behind it (bash confined), as a client. */
async function gateFor(t: ExecutionContext, ws: string, data: string, bash: { mode: 'none' | 'allowlist'; allow: string[] }): Promise<GateClient> {
  const image = await loadImageFromDirectory(path.join(EXAMPLES_DIR, 'code-reviewer'));
  const scopes = compileScopes({ read: ['${workspace}'], write: ['${workspace}'] }, { workspace: ws, agentData: data });
  const shell = { ...bash, scopes, searchPath: COMMAND_SEARCH_PATH, trustedDirectories: TRUSTED_PROGRAM_DIRECTORIES };
  // No control locations: these tests reach the git-state check behind the gate, which a control location (a hooks
  // directory, say) would refuse earlier; that layer has its own tests (protected-locations, the effect re-check below).
  const controls = () => ({ locations: [] });
  const decide = createGateDecider({ shell, skills: listBundledSkills(image) });
  const channel = new MessageChannel();
  const server = serveGate(channel.port1, {
    decide,
    execute: createExecutor({
      image,
      workspace: ws,
      bashTimeoutMs: 30_000,
      outputCapBytes: 65536,
      writeRoots: [ws],
      shell,
      controls,
      isolation: confinedIsolation({ readRoots: [ws], writeRoots: [ws] }),
    }),
    timeoutMs: 60_000,
  });
  // Limits no loaded machine reaches: these tests are about effects, not time.
  const client = new GateClient(channel.port2, 90_000);
  t.teardown(() => {
    client.close();
    server.close();
    channel.port1.close();
  });
  return client;
}

test('read, write, edit, bash and skill through the gate with the real executors', async (t) => {
  const root = realpathSync(tempDir(t, 'zb-e2e-gate-'));
  const ws = path.join(root, 'ws');
  const data = path.join(root, 'data');
  mkdirSync(ws);
  mkdirSync(data);
  const client = await gateFor(t, ws, data, { mode: 'allowlist', allow: ['cat', 'wc'] });

  t.like(await client.call('write', { path: 'notes/today.md', content: 'alpha\nbeta\n' }), { created: true, bytes: 11 });
  t.like(await client.call('edit', { path: 'notes/today.md', old_string: 'beta', new_string: 'gamma' }), { path: path.join(ws, 'notes/today.md') });
  t.like(await client.call('read', { path: 'notes/today.md' }), { content: 'alpha\ngamma', totalLines: 2 });
  t.like(await client.call('bash', { command: 'cat notes/today.md | wc -l' }), { exitCode: 0, stdout: '2\n' });
  t.like(await client.call('skill', { name: 'review-change' }), { name: 'review-change' });

  await t.throwsAsync(client.call('write', { path: '../escape.txt', content: 'x' }), { code: 'ZB_POLICY_PATH_OUTSIDE_SCOPE' } as never);
  t.false(existsSync(path.join(root, 'escape.txt')));
  await t.throwsAsync(client.call('bash', { command: 'cat /etc/hostname' }), { code: 'ZB_POLICY_PATH_OUTSIDE_SCOPE' } as never);
  await t.throwsAsync(client.call('bash', { command: 'wc -l notes/today.md > /tmp/x' }), { code: 'ZB_POLICY_SHELL_CONSTRUCT' } as never);
  t.is(readFileSync(path.join(ws, 'notes/today.md'), 'utf8'), 'alpha\ngamma\n');
});

test('the write tool cannot build a repository under another name whose config names a program', async (t) => {
  const root = realpathSync(tempDir(t, 'zb-e2e-bare-'));
  const ws = path.join(root, 'ws');
  mkdirSync(ws);
  const client = await gateFor(t, ws, path.join(root, 'data'), { mode: 'none', allow: [] });
  // In either order the last write makes evil/ a bare repository, and its config is then checked and removed.
  t.like(await client.call('write', { path: 'evil/config', content: '[core]\n\tbare = true\n\tpager = touch /tmp/pwn\n' }), { created: true });
  t.like(await client.call('write', { path: 'evil/objects/.keep', content: '' }), { created: true });
  t.like(await client.call('write', { path: 'evil/refs/heads/.keep', content: '' }), { created: true });
  await t.throwsAsync(client.call('write', { path: 'evil/HEAD', content: 'ref: refs/heads/main\n' }), { code: 'ZB_CONFINEMENT_GIT_PROGRAM' } as never);
  t.false(existsSync(path.join(ws, 'evil', 'config')));
  // However deep the write that completes the shape, the directories up to the scope's root are checked.
  t.like(await client.call('write', { path: 'deep/HEAD', content: 'ref: refs/heads/main\n' }), { created: true });
  await t.throwsAsync(client.call('write', { path: 'deep/hooks/a/b/c/d/e/post-commit', content: '#!/bin/sh\nid\n' }), { code: 'ZB_CONFINEMENT_GIT_PROGRAM' } as never);
  t.false(existsSync(path.join(ws, 'deep', 'hooks', 'a')));
  // A repository-shaped directory whose config names nothing is fine.
  t.like(await client.call('write', { path: 'evil/config', content: '[core]\n\tbare = true\n' }), { created: true });
});

test('a filter defined in a repository that an earlier command of the same line completed never runs', async (t) => {
  const root = realpathSync(tempDir(t, 'zb-e2e-line-'));
  const ws = path.join(root, 'ws');
  mkdirSync(ws);
  const marker = path.join(ws, 'FILTER-RAN');
  // The workspace is a repository, so "git add" in r is approved up front; r only becomes a repository of its own as the line runs.
  spawnSync('git', ['init', '-q', ws], { env: { PATH: '/usr/bin:/bin', HOME: root, GIT_CONFIG_NOSYSTEM: '1' } });
  const client = await gateFor(t, ws, path.join(root, 'data'), { mode: 'allowlist', allow: ['git', 'mkdir', 'cp'] });
  t.like(await client.call('write', { path: 'tpl/cfg', content: `[core]\n\tworktree = ..\n[filter "x"]\n\tclean = touch ${marker}; cat\n` }), { created: true });
  t.like(await client.call('write', { path: 'tpl/head', content: 'ref: refs/heads/main\n' }), { created: true });
  t.like(await client.call('write', { path: '.gitattributes', content: '* filter=x\n' }), { created: true });
  t.like(await client.call('write', { path: 'a.txt', content: 'a\n' }), { created: true });
  t.like(await client.call('bash', { command: 'mkdir r' }), { exitCode: 0 });
  // When git is about to run, r has the shape of a bare repository: the gate, deciding again, stops the line there,
  // and the git aftercare refuses the call for the repository shape it left behind.
  const error = await t.throwsAsync(client.call('bash', { command: 'cp tpl/cfg r/config && mkdir r/objects r/refs && cp tpl/head r/HEAD && cd r && git add ../a.txt' }));
  t.is((error as { code?: string }).code, 'ZB_CONFINEMENT_GIT_PROGRAM', error.message);
  t.false(existsSync(marker), 'the filter ran');
});

test('a command the gate denies when it is about to run stops the line, and the agent is told which and why', async (t) => {
  const root = realpathSync(tempDir(t, 'zb-e2e-runtime-'));
  const ws = path.join(root, 'ws');
  mkdirSync(path.join(ws, 'box'), { recursive: true });
  writeFileSync(path.join(root, 'secret'), 'outside');
  symlinkSync(path.join(root, 'secret'), path.join(ws, 'box', 'L2'));
  const client = await gateFor(t, ws, path.join(root, 'data'), { mode: 'allowlist', allow: ['cp', 'cat', 'printf'] });
  // Allowed up front (copy/L2 did not exist); the copy makes it a link outside the scopes before the cat starts.
  const result = await client.call('bash', { command: 'cp -r box copy && cat copy/L2 ; printf after' });
  t.like(result, { exitCode: 126, stdout: '', stoppedByGate: { code: 'ZB_POLICY_PATH_OUTSIDE_SCOPE', command: 'cat copy/L2' } });
  // What the run's tool.result event shows (its first 200 characters) names the stop.
  t.regex(JSON.stringify(result).slice(0, 200), /"stoppedByGate":\{"code":"ZB_POLICY_PATH_OUTSIDE_SCOPE"/);
  t.true(existsSync(path.join(ws, 'copy')), 'the cp ran');
});

// One check for every writer (issue 21 §4): the write and edit tools get the git-state check a bash call gets.
// The user's repository keeps its git directory apart (git init --separate-git-dir), under a name the gate allows.
const USER_GIT_ENV = {
  PATH: '/usr/bin:/bin',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'u',
  GIT_AUTHOR_EMAIL: 'u@x',
  GIT_COMMITTER_NAME: 'u',
  GIT_COMMITTER_EMAIL: 'u@x',
  GIT_EDITOR: ':',
  GIT_SEQUENCE_EDITOR: ':',
};

/** ws/proj with its git directory at ws/meta; main (one, two) and side (one, three, four) conflict on a; `stop` leaves an operation half-done. */
function userRepository(root: string, stop: 'rebase' | 'cherry-pick'): { proj: string; meta: string; git: (...args: string[]) => number } {
  const proj = path.join(root, 'ws', 'proj');
  const meta = path.join(root, 'ws', 'meta');
  mkdirSync(proj, { recursive: true });
  const git = (...args: string[]) => spawnSync('git', args, { cwd: proj, env: { ...USER_GIT_ENV, HOME: root }, stdio: 'ignore' }).status ?? -1;
  git('init', '-q', '-b', 'main', '--separate-git-dir', meta);
  for (const [file, text, message] of [
    ['a', 'a\n', 'one'],
    ['a', 'b\n', 'two'],
  ] as const) {
    writeFileSync(path.join(proj, file), text);
    git('add', file);
    git('commit', '-qm', message);
    if (message === 'one') git('branch', 'side');
  }
  git('checkout', '-q', 'side');
  for (const [file, text, message] of [
    ['a', 'c\n', 'three'],
    ['d', 'd\n', 'four'],
  ] as const) {
    writeFileSync(path.join(proj, file), text);
    git('add', file);
    git('commit', '-qm', message);
  }
  if (stop === 'rebase') git('rebase', '-i', 'main');
  else {
    git('checkout', '-q', 'main');
    git('cherry-pick', '-x', 'side~1', 'side');
  }
  return { proj, meta, git };
}

test('the write tool cannot leave a rebase whose strategy names a program, and the user can still continue it', async (t) => {
  const root = realpathSync(tempDir(t, 'zb-write-strategy-'));
  const { proj, meta, git } = userRepository(root, 'rebase');
  const client = await gateFor(t, path.join(root, 'ws'), path.join(root, 'data'), { mode: 'none', allow: [] });
  const marker = path.join(root, 'STRATEGY-RAN');
  await client.call('write', { path: 'proj/git-merge-../evil', content: `#!/bin/sh\ntouch ${marker}\nexit 1\n` });
  await t.throwsAsync(client.call('write', { path: 'meta/rebase-merge/strategy', content: '../evil\n' }), { code: 'ZB_CONFINEMENT_GIT_PROGRAM' } as never);
  t.false(existsSync(path.join(meta, 'rebase-merge', 'strategy')));
  spawnSync('chmod', ['+x', path.join(proj, 'git-merge-..', 'evil')]);
  writeFileSync(path.join(proj, 'a'), 'resolved\n');
  git('add', 'a');
  t.is(git('rebase', '--continue'), 0, "the user's rebase --continue works");
  t.false(existsSync(marker));
});

test("the write tool cannot rewrite a cherry-pick's sequencer/opts: the user's are put back", async (t) => {
  const root = realpathSync(tempDir(t, 'zb-write-opts-'));
  const { proj, meta, git } = userRepository(root, 'cherry-pick');
  const opts = path.join(meta, 'sequencer', 'opts');
  const before = readFileSync(opts, 'utf8');
  const client = await gateFor(t, path.join(root, 'ws'), path.join(root, 'data'), { mode: 'none', allow: [] });
  await t.throwsAsync(client.call('write', { path: 'meta/sequencer/opts', content: '[options]\n\tstrategy = ../evil\n' }), { code: 'ZB_CONFINEMENT_GIT_PROGRAM' } as never);
  t.is(readFileSync(opts, 'utf8'), before);
  writeFileSync(path.join(proj, 'a'), 'resolved\n');
  git('add', 'a');
  t.is(git('cherry-pick', '--continue'), 0, "the user's cherry-pick --continue works");
});

test("the edit tool cannot change the user's hook: its content is put back and the other hooks stay", async (t) => {
  const root = realpathSync(tempDir(t, 'zb-edit-hook-'));
  const { meta } = userRepository(root, 'rebase');
  const hook = path.join(meta, 'hooks', 'pre-commit');
  writeFileSync(hook, '#!/bin/sh\necho checked by the user\n', { mode: 0o755 });
  const client = await gateFor(t, path.join(root, 'ws'), path.join(root, 'data'), { mode: 'none', allow: [] });
  await t.throwsAsync(client.call('edit', { path: 'meta/hooks/pre-commit', old_string: 'echo checked by the user', new_string: 'touch /tmp/pwn' }), {
    code: 'ZB_CONFINEMENT_GIT_PROGRAM',
  } as never);
  t.is(readFileSync(hook, 'utf8'), '#!/bin/sh\necho checked by the user\n');
  t.true(existsSync(path.join(meta, 'hooks', 'pre-push.sample')));
  await t.throwsAsync(client.call('write', { path: 'meta/hooks/post-checkout', content: '#!/bin/sh\nid\n' }), { code: 'ZB_CONFINEMENT_GIT_PROGRAM' } as never);
  t.false(existsSync(path.join(meta, 'hooks', 'post-checkout')));
  await t.throwsAsync(client.call('write', { path: 'meta/info/attributes', content: '* filter=lfs\n' }), { code: 'ZB_CONFINEMENT_GIT_PROGRAM' } as never);
  t.false(existsSync(path.join(meta, 'info', 'attributes')));
});

test("a HEAD written into a project directory is removed, and none of the project's files are", async (t) => {
  const root = realpathSync(tempDir(t, 'zb-write-head-'));
  const app = path.join(root, 'ws', 'app');
  for (const directory of ['hooks', 'objects', 'refs']) mkdirSync(path.join(app, directory), { recursive: true });
  writeFileSync(path.join(app, 'hooks', 'deploy.sh'), 'echo deploy\n');
  const client = await gateFor(t, path.join(root, 'ws'), path.join(root, 'data'), { mode: 'none', allow: [] });
  await t.throwsAsync(client.call('write', { path: 'app/HEAD', content: 'ref: refs/heads/main\n' }), { code: 'ZB_CONFINEMENT_GIT_PROGRAM' } as never);
  t.false(existsSync(path.join(app, 'HEAD')));
  t.is(readFileSync(path.join(app, 'hooks', 'deploy.sh'), 'utf8'), 'echo deploy\n');
});

test('the write executor checks the git configuration again at the effect: a hooks directory named after the approval is not written (issue 21 §3)', async (t) => {
  const root = realpathSync(tempDir(t, 'zb-e2e-effect-'));
  const ws = path.join(root, 'ws');
  mkdirSync(ws);
  spawnSync('git', ['init', '-q', ws], { env: { PATH: '/usr/bin:/bin', HOME: root, GIT_CONFIG_NOSYSTEM: '1' } });
  const image = await loadImageFromDirectory(path.join(EXAMPLES_DIR, 'code-reviewer'));
  const scopes = compileScopes({ read: ['${workspace}'], write: ['${workspace}'] }, { workspace: ws, agentData: path.join(root, 'data') });
  const shell = { mode: 'none' as const, allow: [], scopes, searchPath: COMMAND_SEARCH_PATH, trustedDirectories: TRUSTED_PROGRAM_DIRECTORIES };
  const controls = () => currentControlLocations([ws], [], { home: path.join(root, 'home'), noSystem: true });
  const decide = createGateDecider({ shell, skills: listBundledSkills(image), controls });
  const execute = createExecutor({
    image,
    workspace: ws,
    bashTimeoutMs: 30_000,
    outputCapBytes: 65536,
    writeRoots: [ws],
    shell,
    controls,
    isolation: confinedIsolation({ readRoots: [ws], writeRoots: [ws] }),
  });
  const verdict = decide({ type: 'tool.call', id: 1, tool: 'write', input: { path: 'team-hooks/pre-commit', content: '#!/bin/sh\nid\n' } });
  if (!verdict.allow) return t.fail(verdict.reason);
  // Between the decision and the effect, the repository's config starts naming that directory.
  writeFileSync(path.join(ws, '.git', 'config'), `${readFileSync(path.join(ws, '.git', 'config'), 'utf8')}[core]\n\thooksPath = team-hooks\n`);
  const error = await t.throwsAsync(execute(verdict.approved, new AbortController().signal));
  t.is((error as { code?: string }).code, 'ZB_POLICY_PATH_PROTECTED', error.message);
  t.false(existsSync(path.join(ws, 'team-hooks', 'pre-commit')));
});
