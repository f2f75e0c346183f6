// Fourth look at program identity (adv27d): a replayed run with --confine off in which
// the agent writes its files through the gate (write tool, chmod, git apply), then runs
// one allowed command; a marker file is written if the agent's code ever runs on the
// host. The safe outcome is the same whichever way a fix goes (deny the last command,
// deny a file it needs, or make it not run the agent's code): no marker. The setup the
// user made (tools, virtualenvs, links outside the workspace) is made here directly.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ExecutionContext } from 'ava';
import { runCliCaptured } from '../fixtures/cli-harness.js';

export interface World {
  /** Outside every scope: where the agent, its transcript and the user's tools live. */
  readonly root: string;
  /** The run's workspace, its only write scope. */
  readonly workspace: string;
  /** The file the agent's code writes when it runs. */
  readonly marker: string;
}

export function world(t: ExecutionContext): World {
  const root = mkdtempSync(path.join(tmpdir(), 'zb-adv27d-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const workspace = path.join(root, 'ws');
  mkdirSync(workspace);
  const agent = path.join(root, 'agent');
  mkdirSync(agent);
  const manifest = {
    zotfile: 1,
    name: 'adv27d-dev',
    version: '0.1.0',
    description: 'An agent that may run a few developer tools.',
    license: 'MIT',
    runtime: { min_zot: '0.2.0' },
    model: { requires: ['tools'], min_context: 8000 },
    permissions: { fs: { read: ['${workspace}'], write: ['${workspace}'] }, bash: { mode: 'allowlist', allow: ['cargo', 'pip', 'jq', 'deno', 'ls', 'chmod', 'git'] } },
  };
  writeFileSync(path.join(agent, 'manifest.json'), JSON.stringify(manifest));
  writeFileSync(path.join(agent, 'AGENT.md'), '# dev\n');
  return { root, workspace, marker: path.join(root, 'marker') };
}

/** The text of a shell script that records that it ran (and with which arguments) in the marker. */
export function markerScript(marker: string): string {
  return `#!/bin/sh\necho "agent code ran: $0 $*" >> ${JSON.stringify(marker)}\n`;
}

/** The user's own executable file (outside the scopes). */
export function userExecutable(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  chmodSync(file, 0o755);
}

/** One tool call of the agent: a file written with the write tool (path relative to the workspace), or a bash command. */
export type Step = { readonly write: string; readonly content: string } | { readonly bash: string };

interface GateDecision {
  readonly type: string;
  readonly id?: number;
  readonly allowed?: boolean;
  readonly reason?: string;
}

/**
 * Runs the agent unconfined on a transcript of `steps`; every step but the last must be allowed (the agent can
 * write what the repro needs), so the repro passes only when the last one is denied or runs nothing of the agent's.
 * Returns the run's events (JSON lines), which hold what each command printed.
 */
export async function runUnconfined(t: ExecutionContext, w: World, steps: readonly Step[], programPath: readonly string[]): Promise<string> {
  const turn = (content: unknown[], stop: string) => ({ content, stop, usage: { input_tokens: 0, output_tokens: 0 } });
  const calls = steps.map((step, index) => {
    const input = 'bash' in step ? { command: step.bash } : { path: path.join(w.workspace, step.write), content: step.content };
    return turn([{ type: 'tool_use', id: `t${index + 1}`, name: 'bash' in step ? 'bash' : 'write', input }], 'tool_use');
  });
  const replay = { zotbox_replay: 1, model: 'adv27d', turns: [...calls, turn([{ type: 'text', text: 'done' }], 'end')] };
  const file = path.join(w.root, 'replay.json');
  writeFileSync(file, JSON.stringify(replay));
  const argv = ['run', path.join(w.root, 'agent'), 'go', '--cwd', w.workspace, '--replay', file, '-y', '--confine', 'off', '--no-session', '--json'];
  for (const directory of programPath) argv.push('--program-path', directory);
  const result = await runCliCaptured(argv, { cwd: w.root });
  const events = result.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as GateDecision);
  const decisions = events.filter((event) => event.type === 'gate.decision');
  t.log(decisions.map((decision) => JSON.stringify(decision)).join('\n'), result.stderr);
  t.is(decisions.length, steps.length, 'every step reached the gate');
  for (const decision of decisions.slice(0, -1)) t.true(decision.allowed, `the agent could do step ${String(decision.id)} (${decision.reason ?? ''})`);
  return result.stdout;
}
