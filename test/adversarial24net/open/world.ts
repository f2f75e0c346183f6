// A whole `zotbox run` of an agent that lists permissions.net.allow, with replayed
// bash calls, real bubblewrap and the real proxy, in this process (review of issue
// 24 §1, briefed without the feature's tests), so the test can see the host's own
// memory while a command runs. Upstreams are loopback servers the test runs,
// listed by literal address and port (no resolver needed).
import type { ExecutionContext } from 'ava';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCliCaptured, type CliResult } from '../../fixtures/cli-harness.js';
import { tempDir } from '../../fixtures/temp.js';

export interface World {
  readonly root: string;
  /** The workspace (the agent reads and writes it). */
  readonly ws: string;
}

export function world(t: ExecutionContext): World {
  const root = realpathSync(tempDir(t, 'zb-open24net-'));
  const ws = path.join(root, 'ws');
  mkdirSync(ws);
  return { root, ws };
}

/**
 * Runs an agent with `netAllow`, read and write scopes over the workspace and `allow` as its bash allowlist,
 * replaying `commands`: `zotbox run AGENT go --replay FILE -y --cwd WS --no-session --json`, default confinement.
 */
export async function replay(w: World, netAllow: readonly string[], commands: readonly string[], allow: readonly string[]): Promise<CliResult> {
  const agent = path.join(w.root, 'agent');
  mkdirSync(agent, { recursive: true });
  writeFileSync(
    path.join(agent, 'manifest.json'),
    JSON.stringify({
      zotfile: 1,
      name: 'net-helper',
      version: '0.1.0',
      description: 'Uses the network.',
      license: 'MIT',
      runtime: { min_zot: '0.2.0' },
      model: { requires: ['tools'], min_context: 64000 },
      permissions: { fs: { read: ['${workspace}'], write: ['${workspace}'] }, bash: { mode: 'allowlist', allow }, net: { allow: netAllow } },
    }),
  );
  writeFileSync(path.join(agent, 'AGENT.md'), 'You use the network.\n');
  const usage = { input_tokens: 0, output_tokens: 0 };
  const turns = [
    ...commands.map((command, i) => ({ content: [{ type: 'tool_use', id: `t${i}`, name: 'bash', input: { command } }], stop: 'tool_use', usage })),
    { content: [{ type: 'text', text: 'done' }], stop: 'end', usage },
  ];
  const file = path.join(w.root, 'replay.json');
  writeFileSync(file, JSON.stringify({ zotbox_replay: 1, model: 'claude-sonnet-4-5', turns }));
  return runCliCaptured(['run', agent, 'go', '--replay', file, '-y', '--cwd', w.ws, '--no-session', '--json'], { env: { ZOTBOX_HOME: path.join(w.root, 'state') } });
}

/** The events of a --json run of one type, in order. */
export function events(result: CliResult, type: string): Record<string, unknown>[] {
  return result.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((event) => event.type === type);
}
