// Shared set-up for the s33d review's repros: a throwaway agent, a replayed model
// whose tool calls are given as data, and the real CLI run in-process.
import type { ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type CliResult, runCliCaptured } from '../fixtures/cli-harness.js';
import { tempDir } from '../fixtures/temp.js';

export type Call = { write: string; content: string } | { bash: string };

export interface World {
  readonly root: string;
  readonly workspace: string;
  readonly state: string;
  /** Runs the agent with `cwd` (default: the workspace) as its workspace. */
  run(calls: readonly Call[], options?: { bash?: 'ask' | 'none'; write?: readonly string[]; confine?: 'off'; cwd?: string }): Promise<CliResult>;
}

export function makeWorld(t: ExecutionContext): World {
  const root = tempDir(t, 'zb-s33d-');
  const workspace = path.join(root, 'ws');
  const state = path.join(root, 'state');
  mkdirSync(workspace);
  let runs = 0;
  const run: World['run'] = async (calls, options = {}) => {
    runs += 1;
    const agent = path.join(root, `agent${runs}`);
    mkdirSync(agent);
    const bash = options.bash ?? 'none';
    writeFileSync(
      path.join(agent, 'manifest.json'),
      JSON.stringify({
        zotfile: 1,
        name: 'adv',
        version: '0.1.0',
        description: 'adversary',
        license: 'MIT',
        runtime: { min_zot: '0.2.0' },
        model: { requires: ['tools'], min_context: 64000 },
        permissions: { fs: { read: ['${workspace}'], write: options.write ?? ['${workspace}'] }, bash: { mode: bash } },
      }),
    );
    writeFileSync(path.join(agent, 'AGENT.md'), 'You are adv.\n');
    const usage = { input_tokens: 0, output_tokens: 0 };
    const turns = calls.map((call, i) => ({
      content: [
        'write' in call
          ? { type: 'tool_use', id: `t${i}`, name: 'write', input: { path: call.write, content: call.content } }
          : { type: 'tool_use', id: `t${i}`, name: 'bash', input: { command: call.bash } },
      ],
      stop: 'tool_use',
      usage,
    }));
    turns.push({ content: [{ type: 'text', text: 'done' } as never], stop: 'end', usage });
    const replay = path.join(root, `replay${runs}.json`);
    writeFileSync(replay, JSON.stringify({ zotbox_replay: 1, model: 'claude-sonnet-4-5', turns }));
    const cwd = options.cwd ?? workspace;
    const argv = ['run', agent, 'go', '--cwd', cwd, '--replay', replay, '-y', ...(options.confine === 'off' ? ['--confine', 'off'] : [])];
    return runCliCaptured(argv, { env: { ZOTBOX_HOME: state, PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: path.join(root, 'home') }, cwd });
  };
  return { root, workspace, state, run };
}

/** The user's own shell: a program run unconfined in the workspace, with a home of its own. */
export function userRuns(world: World, file: string, args: readonly string[], env: Record<string, string> = {}, cwd = world.workspace): string {
  const home = path.join(world.root, 'home');
  mkdirSync(home, { recursive: true });
  return execFileSync(file, args, {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, XDG_DATA_HOME: path.join(home, 'data'), XDG_CONFIG_HOME: path.join(home, 'config'), ...env },
  });
}
