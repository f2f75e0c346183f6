// zotbox run, offline: a pool worker runs the agent loop against a recorded
// transcript; every tool call crosses the gate to the real executors.
import test from 'ava';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { RunEventSchema, type RunEvent } from '../../src/host/run/run-events.js';
import { runCliCaptured } from '../fixtures/cli-harness.js';
import { EXAMPLES_DIR } from '../fixtures/paths.js';
import { tempDir } from '../fixtures/temp.js';

const reviewer = path.join(EXAMPLES_DIR, 'code-reviewer');
const workspace = path.join(EXAMPLES_DIR, 'workspaces', 'sample-project');
const transcript = path.join(EXAMPLES_DIR, 'transcripts', 'code-reviewer.json');

test('a replayed run emits schema-valid events: allowed and denied calls, then the final answer', async (t) => {
  const result = await runCliCaptured(['run', reviewer, '--cwd', workspace, '--replay', transcript, '-y', '--json'], { env: { ZOTBOX_HOME: tempDir(t, 'zb-run-') } });
  t.is(result.status, 0, result.stderr);
  const events = result.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as RunEvent);
  for (const event of events) t.true(RunEventSchema.safeParse(event).success, JSON.stringify(event));
  t.is(events[0]!.type, 'run.start');
  t.like(events.at(-1), { type: 'run.end', status: 'completed', turns: 3 });
  const decisions = events.filter((e): e is RunEvent & { type: 'gate.decision' } => e.type === 'gate.decision');
  t.true(decisions.some((d) => d.allowed && d.tool === 'read' && d.canonical_path === path.join(workspace, 'parse-port.js')));
  t.true(decisions.some((d) => !d.allowed && d.code === 'ZB_POLICY_PATH_OUTSIDE_SCOPE'));
  t.true(
    events.some((e) => e.type === 'tool.result' && !e.ok),
    'the denial reaches the model as a tool error',
  );
  t.like(
    events.find((e) => e.type === 'run.start'),
    { consent: 'flag', permissions: { bash: { mode: 'none' } } },
  );
});

test('--print prints only the final answer', async (t) => {
  const result = await runCliCaptured(['run', reviewer, '--cwd', workspace, '--replay', transcript, '-y', '--print'], { env: { ZOTBOX_HOME: tempDir(t, 'zb-run-') } });
  t.is(result.status, 0, result.stderr);
  t.regex(result.stdout, /^That file is outside the workspace/);
  t.notRegex(result.stdout, /→ read/);
});

test('without consent and without a terminal, nothing runs', async (t) => {
  const result = await runCliCaptured(['run', reviewer, '--cwd', workspace, '--replay', transcript], { env: { ZOTBOX_HOME: tempDir(t, 'zb-run-') } });
  t.is(result.status, 1);
  t.regex(result.stderr, /ZB_CONSENT_REQUIRED/);
});

test('without keys a live model is refused with what is missing; bad flags are usage errors', async (t) => {
  const env = { ZOTBOX_HOME: tempDir(t, 'zb-run-') };
  t.regex((await runCliCaptured(['run', reviewer, '--model', 'claude-sonnet-4-5', '-y'], { env })).stderr, /ZB_PROVIDER_AUTH.*ANTHROPIC_API_KEY/);
  t.regex((await runCliCaptured(['run', reviewer, '-y'], { env })).stderr, /ZB_MODEL_UNAVAILABLE.*ANTHROPIC_API_KEY or OPENAI_API_KEY/);
  t.regex((await runCliCaptured(['run', reviewer, '--model', 'my-llm', '-y'], { env })).stderr, /ZB_MODEL_UNAVAILABLE.*models\.json/);
  t.is((await runCliCaptured(['run', reviewer, '--confine', 'sometimes'], { env })).status, 2);
  t.is((await runCliCaptured(['run', reviewer, '--max-turns', '0'], { env })).status, 2);
  t.is((await runCliCaptured(['run', reviewer, '--worker-memory', 'lots'], { env })).status, 2);
  for (const bad of ['0', '2.5', 'many']) {
    const result = await runCliCaptured(['run', reviewer, '--model-concurrency', bad], { env });
    t.is(result.status, 2, bad);
    t.regex(result.stderr, /ZB_CLI_USAGE.*--model-concurrency takes a positive whole number/, bad);
  }
});

test('--model-concurrency N is accepted by zotbox run', async (t) => {
  const result = await runCliCaptured(['run', reviewer, '--cwd', workspace, '--replay', transcript, '-y', '--print', '--model-concurrency', '2'], { env: { ZOTBOX_HOME: tempDir(t, 'zb-run-') } });
  t.is(result.status, 0, result.stderr);
});

/** A transcript whose second turn's tool input nests `levels` objects, written as text: JSON.stringify itself overflows on it. */
function deepInputTranscript(directory: string, levels: number): string {
  const usage = '"usage":{"input_tokens":1,"output_tokens":1}';
  const deep = '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
  const turns = [
    `{"content":[{"type":"tool_use","id":"t1","name":"read","input":{"path":"parse-port.js"}}],"stop":"tool_use",${usage}}`,
    `{"content":[{"type":"tool_use","id":"t2","name":"read","input":{"path":"parse-port.js","deep":${deep}}}],"stop":"tool_use",${usage}}`,
    `{"content":[{"type":"text","text":"done"}],"stop":"end",${usage}}`,
  ];
  const file = path.join(directory, 'deep.json');
  writeFileSync(file, `{"zotbox_replay":1,"model":"replay","turns":[${turns.join(',')}]}`);
  return file;
}

test('a replayed model turn with a 5,000-deep tool input ends the run as an invalid message, never as an internal bug', async (t) => {
  const directory = tempDir(t, 'zb-deep-');
  const record = path.join(directory, 'recorded.json');
  const result = await runCliCaptured(['run', reviewer, '--cwd', workspace, '--replay', deepInputTranscript(directory, 5000), '--record', record, '-y', '--json'], {
    env: { ZOTBOX_HOME: path.join(directory, 'home') },
  });
  t.notRegex(result.stdout + result.stderr, /ZB_INTERNAL_BUG|ZB_WORKER_CRASHED/);
  const events = result.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as RunEvent);
  for (const event of events) t.true(RunEventSchema.safeParse(event).success, JSON.stringify(event));
  t.true(
    events.some((e) => e.type === 'gate.decision' && e.allowed && e.tool === 'read'),
    'the turn before it ran',
  );
  t.like(events.at(-1), { type: 'run.end', status: 'failed', error: { code: 'ZB_GATE_INVALID_MESSAGE' } });
  t.regex((events.at(-1) as RunEvent & { type: 'run.end' }).error!.message, /more than 64 levels/);
  t.is(events.filter((e) => e.type === 'gate.decision').length, 1, 'the deep call never reached the gate');
  t.true(existsSync(record), 'the turns before it were recorded');
});
