import test from 'ava';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { AgentPool } from '../../src/host/pool.js';
import { runAgent, skillDescription, type RunAgentOptions } from '../../src/host/run-agent.js';
import type { RunEvent } from '../../src/host/run-events.js';
import { EXAMPLES_DIR } from '../fixtures/paths.js';
import { tempDir } from '../fixtures/temp.js';

const base = (t: Parameters<typeof tempDir>[0]): RunAgentOptions => ({
  reference: path.join(EXAMPLES_DIR, 'code-reviewer'),
  cwd: path.join(EXAMPLES_DIR, 'workspaces', 'sample-project'),
  replayFile: path.join(EXAMPLES_DIR, 'transcripts', 'code-reviewer.json'),
  yes: true,
  env: {},
  stateDirectory: tempDir(t, 'zb-runs-'),
  confine: 'off',
});

async function collect(options: RunAgentOptions): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of runAgent(options)) events.push(event);
  return events;
}

const end = (events: RunEvent[]) => events.at(-1) as RunEvent & { type: 'run.end' };

test('a crashing run fails alone: runs beside it on the same pool complete, and the pool keeps working', async (t) => {
  const pool = new AgentPool({ maxThreads: 2, maxOldGenerationSizeMb: 64 });
  t.teardown(() => pool.close());
  const runs = await Promise.all([
    collect({ ...base(t), pool }),
    collect({ ...base(t), pool, crashForTest: 'throw' }),
    collect({ ...base(t), pool }),
    collect({ ...base(t), pool, crashForTest: 'exit' }),
    collect({ ...base(t), pool, crashForTest: 'oom' }),
    collect({ ...base(t), pool }),
  ]);
  t.deepEqual(runs.map((events) => end(events).status), ['completed', 'failed', 'completed', 'failed', 'failed', 'completed']);
  for (const crashed of [runs[1]!, runs[3]!, runs[4]!]) t.is(end(crashed).error!.code, 'ZB_WORKER_CRASHED', end(crashed).error!.message);
  t.is(end(await collect({ ...base(t), pool })).status, 'completed', 'the pool replaced its workers');
});

test('a transcript with too few turns ends the run as failed, with the reason', async (t) => {
  const short = path.join(tempDir(t, 'zb-replay-'), 'short.json');
  writeFileSync(short, JSON.stringify({ zotbox_replay: 1, model: 'x', turns: [{ content: [{ type: 'tool_use', id: 't1', name: 'read', input: { path: 'README.md' } }], stop: 'tool_use', usage: { input_tokens: 1, output_tokens: 1 } }] }));
  const events = await collect({ ...base(t), replayFile: short });
  t.like(end(events), { status: 'failed', error: { code: 'ZB_REPLAY_EXHAUSTED' } });
});

test('an invalid transcript is refused before anything runs', async (t) => {
  const bad = path.join(tempDir(t, 'zb-replay-'), 'bad.json');
  writeFileSync(bad, JSON.stringify({ zotbox_replay: 1, model: 'x', turns: [{ content: 'nope' }] }));
  await t.throwsAsync(collect({ ...base(t), replayFile: bad }), { code: 'ZB_REPLAY_INVALID' } as never);
});

test('--max-turns stops a run that keeps calling tools', async (t) => {
  const events = await collect({ ...base(t), maxTurns: 1 });
  t.like(end(events), { status: 'max_turns', turns: 1 });
});

test('the prompt comes from the command line, else entry.default_prompt, else it is an error', async (t) => {
  await t.throwsAsync(
    collect({ ...base(t), reference: path.join(EXAMPLES_DIR, 'repo-maintainer'), confine: 'off' }),
    { code: 'ZB_RUN_NO_PROMPT' } as never,
  );
  t.is(skillDescription('---\nname: x\ndescription: Does things.\n---\nbody'), 'Does things.');
});
