// A whole `zotbox run` of an agent that lists permissions.env.read, with replayed
// tool calls, real bubblewrap, and the user's environment given to the CLI as its
// own (review of issue 24 §2, briefed without the feature's tests). Each .open.ts
// file here states by hand what must not happen; on the code it was written
// against, it happens.
import type { ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCliCaptured, type CliResult } from '../../fixtures/cli-harness.js';
import { tempDir } from '../../fixtures/temp.js';

export interface World {
  readonly root: string;
  /** The workspace, a git repository with one commit of README.md. */
  readonly ws: string;
}

export function world(t: ExecutionContext): World {
  const root = realpathSync(tempDir(t, 'zb-open24-'));
  const ws = path.join(root, 'ws');
  mkdirSync(ws);
  const git = (args: readonly string[]) => execFileSync('git', args, { cwd: ws, env: { PATH: '/usr/bin:/bin', HOME: root, GIT_CONFIG_NOSYSTEM: '1' } });
  git(['init', '-q', '-b', 'main']);
  writeFileSync(path.join(ws, 'README.md'), 'hello\n');
  git(['add', '-A']);
  git(['-c', 'user.name=u', '-c', 'user.email=u@x', 'commit', '-qm', 'init']);
  return { root, ws };
}

/**
 * Runs an agent reading `envRead` from the user's environment `userEnv`, with read and write scopes over the
 * workspace and `allow` as its bash allowlist, through the real CLI:
 * `zotbox run AGENT go --replay FILE -y --cwd WS --no-session --json`, default confinement.
 */
export async function replay(w: World, envRead: readonly string[], userEnv: Readonly<Record<string, string>>, commands: readonly string[], allow: readonly string[]): Promise<CliResult> {
  const agent = path.join(w.root, 'agent');
  mkdirSync(agent, { recursive: true });
  writeFileSync(
    path.join(agent, 'manifest.json'),
    JSON.stringify({
      zotfile: 1,
      name: 'env-helper',
      version: '0.1.0',
      description: 'Uses a token.',
      license: 'MIT',
      runtime: { min_zot: '0.2.0' },
      model: { requires: ['tools'], min_context: 64000 },
      permissions: { fs: { read: ['${workspace}'], write: ['${workspace}'] }, bash: { mode: 'allowlist', allow }, env: { read: envRead } },
    }),
  );
  writeFileSync(path.join(agent, 'AGENT.md'), 'You use a token.\n');
  const usage = { input_tokens: 0, output_tokens: 0 };
  const turns = [
    ...commands.map((command, i) => ({ content: [{ type: 'tool_use', id: `t${i}`, name: 'bash', input: { command } }], stop: 'tool_use', usage })),
    { content: [{ type: 'text', text: 'done' }], stop: 'end', usage },
  ];
  const file = path.join(w.root, 'replay.json');
  writeFileSync(file, JSON.stringify({ zotbox_replay: 1, model: 'claude-sonnet-4-5', turns }));
  return runCliCaptured(['run', agent, 'go', '--replay', file, '-y', '--cwd', w.ws, '--no-session', '--json'], {
    env: { ZOTBOX_HOME: path.join(w.root, 'state'), ...userEnv },
  });
}

/** The gate.decision events of a --json run, in order. */
export function decisions(result: CliResult): { readonly allowed: boolean; readonly argv?: string[][] }[] {
  return result.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { type: string; allowed: boolean; argv?: string[][] })
    .filter((event) => event.type === 'gate.decision');
}
