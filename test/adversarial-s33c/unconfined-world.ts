// Fourth look at program identity (adv27d): a replayed run with --confine off whose one
// bash call is an allowed command, and a marker file that the agent's code writes if it
// ever runs on the host. The safe outcome is the same whichever way a fix goes (deny
// the command, or make it not run the agent's code): the marker is never written.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ExecutionContext } from 'ava';
import { runCliCaptured, type CliResult } from '../fixtures/cli-harness.js';

export interface World {
  /** Outside every scope: where the agent, its transcript and the tools live. */
  readonly root: string;
  /** The run's workspace, its only write scope. */
  readonly workspace: string;
  /** The file the agent's code writes when it runs. */
  readonly marker: string;
}

export function world(t: ExecutionContext): World {
  const root = mkdtempSync(path.join(tmpdir(), 'zb-adv27d-'));
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
    permissions: { fs: { read: ['${workspace}'], write: ['${workspace}'] }, bash: { mode: 'allowlist', allow: ['cargo', 'pip', 'jq', 'ls'] } },
  };
  writeFileSync(path.join(agent, 'manifest.json'), JSON.stringify(manifest));
  writeFileSync(path.join(agent, 'AGENT.md'), '# dev\n');
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  return { root, workspace, marker: path.join(root, 'marker') };
}

/** An executable shell script that records that it ran (and with which arguments) in the marker. */
export function markerScript(file: string, marker: string): void {
  writeFileSync(file, `#!/bin/sh\necho "agent code ran: $0 $*" >> ${JSON.stringify(marker)}\n`);
  chmodSync(file, 0o755);
}

/** Runs the agent unconfined on a transcript whose one tool call is `command`. */
export async function runUnconfined(w: World, command: string, programPath: readonly string[]): Promise<CliResult> {
  const turn = (content: unknown[], stop: string) => ({ content, stop, usage: { input_tokens: 0, output_tokens: 0 } });
  const replay = {
    zotbox_replay: 1,
    model: 'adv27d',
    turns: [turn([{ type: 'tool_use', id: 't1', name: 'bash', input: { command } }], 'tool_use'), turn([{ type: 'text', text: 'done' }], 'end')],
  };
  const file = path.join(w.root, 'replay.json');
  writeFileSync(file, JSON.stringify(replay));
  const argv = ['run', path.join(w.root, 'agent'), 'go', '--cwd', w.workspace, '--replay', file, '-y', '--confine', 'off', '--no-session'];
  for (const directory of programPath) argv.push('--program-path', directory);
  return runCliCaptured(argv, { cwd: w.root });
}
