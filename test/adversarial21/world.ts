// Shared fixtures for the issue-21 adversarial review: a real git repository as
// the workspace, an attacker agent whose tool calls are replayed, and the real
// CLI run in-process with default confinement (bubblewrap).
import type { ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { scopeLockWaits } from '../../src/host/executors/confine/scope-lock.js';
import { runCliCaptured, type CliResult } from '../fixtures/cli-harness.js';
import { tempDir } from '../fixtures/temp.js';

export interface ReplayedCall {
  readonly tool: 'read' | 'write' | 'edit' | 'bash';
  readonly input: Record<string, unknown>;
}

export interface World {
  readonly root: string;
  readonly workspace: string;
  readonly home: string;
  /** Where a planted program leaves its mark: it must never exist. */
  readonly mark: string;
  /** The user's own git, unconfined, in the workspace. */
  git(...args: string[]): string;
}

export function makeWorld(t: ExecutionContext): World {
  const root = tempDir(t, 'zb-adv21-');
  const workspace = path.join(root, 'ws');
  const home = path.join(root, 'state');
  mkdirSync(workspace);
  mkdirSync(home);
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: workspace,
      encoding: 'utf8',
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: root, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'u', GIT_AUTHOR_EMAIL: 'u@x', GIT_COMMITTER_NAME: 'u', GIT_COMMITTER_EMAIL: 'u@x' },
    });
  git('init', '-q', '-b', 'main', '.');
  return { root, workspace, home, mark: path.join(root, 'PWNED'), git };
}

export type BashPermission = { readonly mode: 'none' } | { readonly mode: 'ask' } | { readonly mode: 'allowlist'; readonly allow: readonly string[] };

/** Runs an agent with read and write on the workspace, the given bash permission, and these replayed calls. */
export async function runAttack(world: World, bash: BashPermission, calls: readonly ReplayedCall[], extra: readonly string[] = [], workspace = world.workspace): Promise<CliResult> {
  const agent = path.join(world.root, `agent-${Math.random().toString(36).slice(2)}`);
  mkdirSync(agent);
  writeFileSync(
    path.join(agent, 'manifest.json'),
    JSON.stringify({
      zotfile: 1,
      name: 'attacker',
      version: '1.0.0',
      description: 'Replays an attack.',
      license: 'MIT',
      runtime: { min_zot: '0.2.0' },
      model: { requires: ['tools'] },
      permissions: { fs: { read: ['${workspace}'], write: ['${workspace}'] }, bash },
    }),
  );
  writeFileSync(path.join(agent, 'AGENT.md'), 'Replays an attack.\n');
  const usage = { input_tokens: 0, output_tokens: 0 };
  const turns = [
    ...calls.map((call, index) => ({ content: [{ type: 'tool_use', id: `toolu_${index}`, name: call.tool, input: call.input }], stop: 'tool_use', usage })),
    { content: [{ type: 'text', text: 'done' }], stop: 'end', usage },
  ];
  const replay = path.join(agent, 'replay.json');
  writeFileSync(replay, JSON.stringify({ zotbox_replay: 1, model: 'claude-sonnet-4-5', turns }));
  return runCliCaptured(['run', agent, 'go', '--replay', replay, '-y', '--cwd', workspace, '--json', ...extra], {
    env: { ZOTBOX_HOME: world.home, PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: world.root },
    cwd: workspace,
  });
}

/** Writes each file with the write tool alone (no bash); returns those that exist afterwards. */
export async function writeAll(world: World, files: readonly string[], content: string): Promise<string[]> {
  await runAttack(
    world,
    { mode: 'none' },
    files.map((file) => ({ tool: 'write' as const, input: { path: file, content } })),
  );
  return files.filter((file) => existsSync(path.join(world.workspace, file)));
}

/**
 * Resolves when a call waits for the holder of the write scope `root` (zotbox orders calls in overlapping write
 * scopes: scope-lock.ts), seen through the lock's test seam. A test of two runs races it with the second run's
 * command starting, so that it neither hangs when zotbox orders the runs nor passes without trying the interleaving.
 */
export function waitsFor(root: string): Promise<'waits'> {
  const { dev, ino } = lstatSync(root, { bigint: true });
  return new Promise((resolve) => {
    const listener = (name: string) => {
      if (!name.includes(`-at-${dev}-${ino}-`)) return;
      scopeLockWaits.delete(listener);
      resolve('waits');
    };
    scopeLockWaits.add(listener);
  });
}
