// Shared set-up for the s36j repros (issue 21, fresh review beyond tool files): a local agent, a
// real git repository, a replayed model and the real CLI in-process. Nothing here is mocked.
import type { ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCliCaptured, type CliResult } from '../fixtures/cli-harness.js';
import { tempDir } from '../fixtures/temp.js';

export type Call = readonly [name: string, input: Record<string, unknown>];

/** An agent directory with the given permissions (bash mode "ask", "none", or an allowlist). */
export function makeAgent(root: string, name: string, bash: Record<string, unknown>): string {
  const dir = path.join(root, `agent-${name}`);
  mkdirSync(dir, { recursive: true });
  const manifest = {
    zotfile: 1,
    name,
    version: '0.1.0',
    description: 'repro agent',
    license: 'MIT',
    runtime: { min_zot: '0.2.0' },
    model: { requires: ['tools'], min_context: 64000 },
    permissions: { fs: { read: ['${workspace}', '${agent_data}'], write: ['${workspace}', '${agent_data}'] }, bash },
  };
  writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  writeFileSync(path.join(dir, 'AGENT.md'), 'Repro agent.\n');
  return dir;
}

/** Runs git as the user would, failing the test on error. */
export function git(cwd: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): string {
  return execFileSync('git', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Runs git as the user would and returns whatever happened (the user's command may fail; what it ran is what counts). */
export function gitMayFail(cwd: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): void {
  try {
    execFileSync('git', args, { cwd, env, stdio: 'ignore' });
  } catch {
    // a failing fetch or status still ran what it ran
  }
}

/** A repository with one commit on main. */
export function makeRepo(dir: string): string {
  mkdirSync(dir, { recursive: true });
  git(dir, ['init', '-q', '-b', 'main']);
  git(dir, ['config', 'user.email', 'user@example.invalid']);
  git(dir, ['config', 'user.name', 'User']);
  writeFileSync(path.join(dir, 'README'), 'hi\n');
  git(dir, ['add', 'README']);
  git(dir, ['commit', '-qm', 'init']);
  return dir;
}

/** A replay transcript that makes the given tool calls one turn each, then ends. */
export function writeReplay(file: string, calls: readonly Call[]): string {
  const usage = { input_tokens: 0, output_tokens: 0 };
  const turns = [
    ...calls.map(([name, input], i) => ({ content: [{ type: 'tool_use', id: `toolu_${i}`, name, input }], stop: 'tool_use', usage })),
    { content: [{ type: 'text', text: 'done' }], stop: 'end', usage },
  ];
  writeFileSync(file, JSON.stringify({ zotbox_replay: 1, model: 'claude-sonnet-4-5', turns }));
  return file;
}

export interface World {
  readonly root: string;
  readonly state: string;
  readonly marker: string;
}

export function makeWorld(t: ExecutionContext): World {
  const root = tempDir(t, 'zb-s36j-');
  return { root, state: path.join(root, 'state'), marker: path.join(root, 'PWNED') };
}

/** `zotbox run AGENT go --cwd WS --replay FILE -y [extra]` with the real CLI and default confinement. */
export function runAgent(world: World, agent: string, workspace: string, calls: readonly Call[], env: Record<string, string> = {}, extra: readonly string[] = []): Promise<CliResult> {
  const replay = writeReplay(path.join(world.root, `replay-${Date.now()}-${Math.random().toString(16).slice(2)}.json`), calls);
  return runCliCaptured(['run', agent, 'go', '--cwd', workspace, '--replay', replay, '-y', '--json', ...extra], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? world.root, ZOTBOX_HOME: world.state, ...env },
    cwd: workspace,
  });
}
