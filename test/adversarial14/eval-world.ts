// A tiny eval world for the issue 14 adversarial tests: an agent folder (its
// scopes and bash allowlist given), a suite folder with replay transcripts the
// test writes (so the "model" is the attacker and every tool call is chosen),
// a private state directory and a private temp directory for the case workspaces.
import type { ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from '../fixtures/temp.js';

export interface EvalWorld {
  readonly root: string;
  readonly agent: string;
  readonly suiteDirectory: string;
  readonly state: string;
  /** Where runEval's tempDirectory points: empty again once the eval ended. */
  readonly temp: string;
}

export interface AgentShape {
  readonly name?: string;
  readonly read?: readonly string[];
  readonly write?: readonly string[];
  readonly bash?: readonly string[];
}

/** A tool call or the final answer of one replayed model turn. */
export type Turn = { readonly tool: string; readonly input: Record<string, unknown> } | { readonly text: string };

export function makeEvalWorld(t: ExecutionContext, shape: AgentShape = {}): EvalWorld {
  const root = tempDir(t, 'zb-adv14-');
  // GNU rm walks with openat, so it removes what a run left deeper than PATH_MAX (the tempDir teardown cannot).
  t.teardown(() => execFileSync('rm', ['-rf', root]));
  // Inside the suite folder: an eval reads no unpinned agent from elsewhere by default (issue 22 §5).
  const agent = path.join(root, 'suite', 'agent');
  const suiteDirectory = path.join(root, 'suite');
  const state = path.join(root, 'state');
  const temp = path.join(root, 'tmp');
  for (const directory of [agent, suiteDirectory, state, temp]) mkdirSync(directory, { recursive: true });
  const bash = shape.bash ?? [];
  const manifest = {
    zotfile: 1,
    name: shape.name ?? 'adv14-agent',
    version: '0.1.0',
    description: 'an agent for adversarial eval tests',
    license: 'MIT',
    runtime: { min_zot: '0.2.0' },
    model: { requires: ['tools'], min_context: 1000 },
    permissions: {
      fs: { read: shape.read ?? ['${workspace}'], write: shape.write ?? ['${workspace}'] },
      bash: bash.length === 0 ? { mode: 'none' } : { mode: 'allowlist', allow: [...bash] },
    },
  };
  writeFileSync(path.join(agent, 'manifest.json'), JSON.stringify(manifest, null, 2));
  writeFileSync(path.join(agent, 'AGENT.md'), 'You do what the transcript says.\n');
  return { root, agent, suiteDirectory, state, temp };
}

/** Writes a replay transcript into the suite folder: one model turn per entry, the last one the answer. */
export function writeTranscript(world: EvalWorld, name: string, turns: readonly Turn[]): string {
  const usage = { input_tokens: 0, output_tokens: 0 };
  const recorded = turns.map((turn, index) =>
    'text' in turn
      ? { content: [{ type: 'text', text: turn.text }], stop: 'end', usage }
      : { content: [{ type: 'tool_use', id: `toolu_${index}`, name: turn.tool, input: turn.input }], stop: 'tool_use', usage },
  );
  const relative = `${name}.json`;
  writeFileSync(path.join(world.suiteDirectory, relative), JSON.stringify({ zotbox_replay: 1, model: 'replay', turns: recorded }));
  return relative;
}

/** Writes a suite file (YAML text given by the test) into the suite folder and returns its path. */
export function writeSuite(world: EvalWorld, name: string, yaml: string): string {
  const file = path.join(world.suiteDirectory, name);
  writeFileSync(file, yaml);
  return file;
}
