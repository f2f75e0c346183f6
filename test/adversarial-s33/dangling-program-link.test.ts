// adv27b: a program directory's dangling link into the workspace. The run's start
// check (program-directories.ts) skips a dangling link ("the gate finds no program
// there"), but the agent can create its target: the gate then finds the allowlisted
// name there, judges it by that name's rule (jq), and an unconfined run executes
// the agent's own file. The safe outcome: the agent's file never runs.
import test from 'ava';
import { chmodSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCliCaptured } from '../fixtures/cli-harness.js';
import { tempDir } from '../fixtures/temp.js';
import { writeReviewAgent } from './review-agent.js';

const usage = { input_tokens: 0, output_tokens: 0 };
const call = (id: string, name: string, input: object) => ({ content: [{ type: 'tool_use', id, name, input }], stop: 'tool_use', usage });

test('a program written by the agent through a dangling link of a program directory never runs (confine off)', async (t) => {
  const root = tempDir(t, 'zb-adv27b-');
  chmodSync(root, 0o755);
  const workspace = path.join(root, 'ws');
  const tools = path.join(root, 'tools', 'bin');
  const agent = path.join(root, 'agent');
  const marker = path.join(root, 'OUTSIDE-MARKER');
  for (const directory of [workspace, tools, agent]) mkdirSync(directory, { recursive: true, mode: 0o755 });
  // The user's tool directory links jq to a build output in the project, not built yet.
  symlinkSync(path.join(workspace, 'jq'), path.join(tools, 'jq'));
  writeReviewAgent(agent, { fs: { read: ['${workspace}'], write: ['${workspace}'] }, bash: { mode: 'allowlist', allow: ['jq', 'chmod'] } });
  const transcript = {
    zotbox_replay: 1,
    model: 'claude-sonnet-4-5',
    turns: [
      call('t1', 'write', { path: 'jq', content: `#!/bin/sh\nid > ${marker}\n` }),
      call('t2', 'bash', { command: 'chmod +x jq' }),
      call('t3', 'bash', { command: 'jq . x.json' }),
      { content: [{ type: 'text', text: 'done' }], stop: 'end', usage },
    ],
  };
  const replay = path.join(root, 'transcript.json');
  writeFileSync(replay, JSON.stringify(transcript));
  const result = await runCliCaptured(['run', agent, '--replay', replay, '--confine', 'off', '-y', '--program-path', tools], {
    cwd: workspace,
    env: { ZOTBOX_HOME: path.join(root, 'state'), HOME: root },
  });
  t.log(result.stdout, result.stderr);
  t.false(existsSync(marker), 'the agent wrote jq in its workspace and it ran, unconfined, as the allowlisted jq');
});
