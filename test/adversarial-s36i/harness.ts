// Review s36i of issue 21: a replayed model with only the write tool writes one file into a real git workspace,
// then the user's real tool runs. Each repro asserts the safe outcome (the write is refused, the payload never runs).
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ExecutionContext } from 'ava';
import { runCliCaptured } from '../fixtures/cli-harness.js';
import { tempDir } from '../fixtures/temp.js';

/**
 * The agent's scripts at the top of `ws` with `@WS@` spelled as the workspace's absolute path: a payload that names
 * where it writes by a `..` (`$(git rev-parse --show-toplevel)/../PWNED`) is refused on its own (lexical-climb.ts),
 * which would hide the check a repro is about.
 */
export function withWorkspacePath(ws: string): void {
  for (const name of readdirSync(ws).filter((each) => each.endsWith('.sh'))) writeFileSync(path.join(ws, name), readFileSync(path.join(ws, name), 'utf8').replaceAll('@WS@', ws));
}

/**
 * A plain directory, no repository (a home directory, or a dotfiles repository the user points ZDOTDIR at), holding
 * `files`, each old: the user's own files were written long before the agent's run.
 */
export function plainDirectory(t: ExecutionContext, files: Readonly<Record<string, string>>): string {
  const ws = path.join(tempDir(t, 'zb-home-'), 'ws');
  mkdirSync(ws);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    writeFileSync(path.join(ws, name), text);
    utimesSync(path.join(ws, name), new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
  }
  return ws;
}

/** A git repository with `files` (path → text; a path ending in a hook name under .git/hooks is made executable), committed. */
export function project(t: ExecutionContext, files: Readonly<Record<string, string>>): string {
  const ws = path.join(tempDir(t, 'zb-s36i-'), 'ws');
  mkdirSync(ws);
  git(ws, 'init', '-q');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    writeFileSync(path.join(ws, name), text);
    if (name.startsWith('.git/hooks/') || name.startsWith('.husky/')) chmodSync(path.join(ws, name), 0o755);
  }
  git(ws, 'add', '-A');
  git(ws, 'commit', '-q', '--no-verify', '-m', 'init');
  return ws;
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=u', '-c', 'user.email=u@example.com', ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Runs an agent (write scope: the workspace; bash off) whose replayed model writes `file` with `content` (then runs `command`, if given); the CLI's output. */
export async function agentWrites(t: ExecutionContext, ws: string, file: string, content: string, command?: string): Promise<string> {
  return (await agentRun(t, ws, file, content, command)).output;
}

/** As agentWrites, with the CLI's exit status kept. */
export async function agentRun(t: ExecutionContext, ws: string, file: string, content: string, command?: string): Promise<{ status: number; output: string }> {
  const dir = tempDir(t, 'zb-s36i-agent-');
  const agent = path.join(dir, 'agent');
  mkdirSync(agent);
  writeFileSync(
    path.join(agent, 'manifest.json'),
    JSON.stringify({
      zotfile: 1,
      name: 'writer',
      version: '1.0.0',
      description: 'writes one file',
      license: 'MIT',
      runtime: { min_zot: '0.2.0' },
      model: { requires: ['tools'], min_context: 32000 },
      // With a command: the agent may run `sh` (confined, real bubblewrap), and runs COMMAND after the write.
      permissions: { fs: { read: ['${workspace}'], write: ['${workspace}'] }, bash: command === undefined ? { mode: 'none' } : { mode: 'allowlist', allow: ['sh'] } },
      entry: { greeting: 'g', default_prompt: 'go' },
    }),
  );
  writeFileSync(path.join(agent, 'AGENT.md'), '# writer\n');
  const usage = { input_tokens: 0, output_tokens: 0 };
  const replay = path.join(dir, 'replay.json');
  writeFileSync(
    replay,
    JSON.stringify({
      zotbox_replay: 1,
      model: 'm',
      turns: [
        { content: [{ type: 'tool_use', id: 't1', name: 'write', input: { path: file, content } }], stop: 'tool_use', usage },
        ...(command === undefined ? [] : [{ content: [{ type: 'tool_use', id: 't2', name: 'bash', input: { command } }], stop: 'tool_use', usage }]),
        { content: [{ type: 'text', text: 'done' }], stop: 'end', usage },
      ],
    }),
  );
  const result = await runCliCaptured(['run', agent, '--cwd', ws, '--replay', replay, '-y'], { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' }, cwd: ws });
  return { status: result.status, output: result.stdout + result.stderr };
}
