// Whole `zotbox run`s with replayed tool calls and real bubblewrap, each in its own
// process (the real CLI, `node bin/zotbox.js`), as a user's runs are (review of
// issue 25, briefed without the tests). Each .open.ts file here states by hand what
// must not happen; on the code it was written against, it happens.
import type { ExecutionContext } from 'ava';
import { spawn } from 'node:child_process';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../../fixtures/temp.js';

/** bin/zotbox.js of this checkout (dist/test/adversarial25/open/world.js is four levels below the root). */
const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../bin/zotbox.js');

export interface World {
  readonly root: string;
  /** The temp directory the zotbox processes use (their TMPDIR): where they extract the package. */
  readonly tmp: string;
  /** The state directory (ZOTBOX_HOME). */
  readonly state: string;
}

export function world(t: ExecutionContext): World {
  const root = realpathSync(tempDir(t, 'zb-open25-'));
  const tmp = path.join(root, 'tmp');
  mkdirSync(tmp);
  return { root, tmp, state: path.join(root, 'state') };
}

export interface Agent {
  readonly name: string;
  readonly read: readonly string[];
  readonly write: readonly string[];
  readonly allow?: readonly string[];
  /** Package files by name ("skills/pdf/SKILL.md"); mode 0755 when the name ends in .py. */
  readonly files?: Readonly<Record<string, string>>;
}

/** Writes the agent's folder under the world and returns it. */
export function agentDir(w: World, agent: Agent): string {
  const dir = path.join(w.root, `agent-${agent.name}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'manifest.json'),
    JSON.stringify({
      zotfile: 1,
      name: agent.name,
      version: '0.1.0',
      description: 'An agent.',
      license: 'MIT',
      runtime: { min_zot: '0.2.0' },
      model: { requires: ['tools'], min_context: 64000 },
      permissions: { fs: { read: agent.read, write: agent.write }, bash: { mode: 'allowlist', allow: agent.allow ?? ['python3', 'ls', 'cat'] } },
    }),
  );
  writeFileSync(path.join(dir, 'AGENT.md'), 'You help.\n');
  for (const [name, content] of Object.entries(agent.files ?? {})) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content, { mode: name.endsWith('.py') ? 0o755 : 0o644 });
  }
  return dir;
}

export type ToolCall = { readonly name: 'bash'; readonly input: { readonly command: string } } | { readonly name: 'write' | 'edit' | 'read'; readonly input: Record<string, string> };

export function replayFile(w: World, label: string, calls: readonly ToolCall[]): string {
  const usage = { input_tokens: 0, output_tokens: 0 };
  const turns = [
    ...calls.map((call, i) => ({ content: [{ type: 'tool_use', id: `t${i}`, name: call.name, input: call.input }], stop: 'tool_use', usage })),
    { content: [{ type: 'text', text: 'done' }], stop: 'end', usage },
  ];
  const file = path.join(w.root, `replay-${label}.json`);
  writeFileSync(file, JSON.stringify({ zotbox_replay: 1, model: 'claude-sonnet-4-5', turns }));
  return file;
}

export interface Ran {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The run's events (--json), one object a line. */
  readonly events: readonly Record<string, unknown>[];
}

/**
 * `zotbox run AGENT go --replay FILE -y --cwd WS --no-session --json` in a process of its own, default confinement
 * (real bubblewrap), with TMPDIR and ZOTBOX_HOME from the world. `signal` (optional) is sent to the process.
 */
export function runAgent(w: World, agent: string, replay: string, ws: string, extraEnv: Readonly<Record<string, string>> = {}): { readonly done: Promise<Ran>; readonly pid: number } {
  const child = spawn(process.execPath, [CLI, 'run', agent, 'go', '--replay', replay, '-y', '--cwd', ws, '--no-session', '--json'], {
    env: { PATH: '/usr/bin:/bin', TMPDIR: w.tmp, ZOTBOX_HOME: w.state, ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const done = new Promise<Ran>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (status) => {
      const events = stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      resolve({ status, stdout, stderr, events });
    });
  });
  return { done, pid: child.pid! };
}

/** The tool.result events of a run, in order. */
export function results(ran: Ran): Record<string, unknown>[] {
  return ran.events.filter((event) => event['type'] === 'tool.result');
}
