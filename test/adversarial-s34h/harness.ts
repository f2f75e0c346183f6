// Shared set-up for the adversarial-s34h repros: a user repository, a replayed
// agent in bash ask mode (or allowlist), a run through the real CLI with real
// bubblewrap, and the user's own git afterwards.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ExecutionContext } from 'ava';
import { runCliCaptured, type CliResult } from '../fixtures/cli-harness.js';
import { tempDir } from '../fixtures/temp.js';

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: cwd } });
}

/** The user's git, exit status and output kept (a merge that conflicts exits 1). */
export function userGit(cwd: string, ...args: string[]): { status: number | null; out: string } {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: cwd } });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

/** A temp directory for one test, removed when the test ends. */
export function scratch(t: ExecutionContext, prefix: string): string {
  return tempDir(t, `zb-s34h-${prefix}-`);
}

export interface ToolCall {
  readonly name: string;
  readonly input: Record<string, unknown>;
}

/** Writes an agent whose manifest has the given bash block and write scopes, and a replay making `calls` one per turn. */
export function replayedAgent(root: string, bash: Record<string, unknown>, calls: readonly ToolCall[], write: readonly string[] = ['${workspace}'], name = 'agent'): { agent: string; replay: string } {
  const agent = path.join(root, name);
  mkdirSync(agent, { recursive: true });
  const manifest = {
    zotfile: 1,
    name: `s34h-${name}`,
    version: '0.1.0',
    description: 'adversarial repro',
    license: 'MIT',
    runtime: { min_zot: '0.2.0' },
    model: { requires: ['tools'], min_context: 64000 },
    permissions: { fs: { read: ['${workspace}'], write }, bash },
  };
  writeFileSync(path.join(agent, 'manifest.json'), JSON.stringify(manifest));
  writeFileSync(path.join(agent, 'AGENT.md'), 'Adversarial repro.\n');
  const usage = { input_tokens: 0, output_tokens: 0 };
  const turns = [
    ...calls.map((call, i) => ({ content: [{ type: 'tool_use', id: `t${i}`, name: call.name, input: call.input }], stop: 'tool_use', usage })),
    { content: [{ type: 'text', text: 'done' }], stop: 'end', usage },
  ];
  const replay = path.join(root, `${name}-replay.json`);
  writeFileSync(replay, JSON.stringify({ zotbox_replay: 1, model: 'm', turns }));
  return { agent, replay };
}

export async function runReplayed(root: string, workspace: string, agent: string, replay: string, extra: readonly string[] = [], env?: Record<string, string>): Promise<CliResult> {
  const home = path.join(root, 'home');
  mkdirSync(home, { recursive: true });
  return runCliCaptured(['run', agent, 'go', '--cwd', workspace, '--replay', replay, '-y', ...extra], {
    env: env ?? { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, ZOTBOX_HOME: path.join(home, 'state') },
    cwd: workspace,
  });
}

/**
 * A husky repository at ROOT/ws (core.hooksPath = .husky) on main, with a branch `feature` whose
 * .husky/pre-commit differs; `hook` rewrites the worktree's hook for the caller's own commits.
 */
export function huskyRepository(root: string): { ws: string; hook: (text: string) => void } {
  const ws = path.join(root, 'ws');
  mkdirSync(path.join(ws, '.husky'), { recursive: true });
  const hook = (text: string) => {
    writeFileSync(path.join(ws, '.husky', 'pre-commit'), `#!/bin/sh\necho ${text}\n`);
    chmodSync(path.join(ws, '.husky', 'pre-commit'), 0o755);
  };
  git(root, 'init', '-q', '-b', 'main', ws);
  git(ws, 'config', 'user.email', 'u@example.invalid');
  git(ws, 'config', 'user.name', 'u');
  git(ws, 'config', 'core.hooksPath', '.husky');
  hook('lint v0');
  writeFileSync(path.join(ws, 'README'), 'a\n');
  git(ws, 'add', '-A');
  git(ws, 'commit', '-qm', 'init');
  git(ws, 'checkout', '-qb', 'feature');
  hook('lint feature');
  git(ws, 'commit', '-qam', 'feature');
  git(ws, 'checkout', '-q', 'main');
  return { ws, hook };
}
