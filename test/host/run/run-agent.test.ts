import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, watch, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ZotboxError } from '../../../src/errors.js';
import { AgentPool, RUN_TASK, WORKER_FILE_FOR_TESTS } from '../../../src/host/run/pool.js';
import { runAgent, type RunAgentOptions } from '../../../src/host/run/run-agent.js';
import { skillDescription } from '../../../src/host/run/run-plan.js';
import type { RunEvent } from '../../../src/host/run/run-events.js';
import { readSession } from '../../../src/host/run/sessions.js';
import { EXAMPLES_DIR } from '../../fixtures/paths.js';
import { POOL_KINDS } from '../../fixtures/pool-kinds.js';
import { tempDir } from '../../fixtures/temp.js';

const base = (t: Parameters<typeof tempDir>[0]): RunAgentOptions & { reference: string; agent?: undefined } => ({
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

const CRASH_WORKER = new URL('../../fixtures/crash-worker.js', import.meta.url);

for (const kind of POOL_KINDS) {
  test(`${kind.name}: a crashing run fails with ZB_WORKER_CRASHED, however it crashed, and the pool replaces its worker and keeps working`, async (t) => {
    for (const how of ['crash:throw', 'crash:exit', 'crash:oom']) {
      const pool = new AgentPool({ ...kind.options(1, { maxOldGenerationSizeMb: 64 }), [WORKER_FILE_FOR_TESTS]: CRASH_WORKER } as never);
      t.teardown(() => pool.close());
      const crashed = await collect({ ...base(t), pool, prompt: how });
      t.like(end(crashed), { status: 'failed', error: { code: 'ZB_WORKER_CRASHED' } }, how);
      t.is(end(await collect({ ...base(t), pool })).status, 'completed', `after ${how}, the pool runs again`);
    }
  });
}

test('the pool offers a library caller no way to run a task of its own: only executeRun reaches its workers', (t) => {
  const pool = new AgentPool({ maxThreads: 1 });
  t.teardown(() => pool.close());
  const surface = Object.getOwnPropertyNames(Object.getPrototypeOf(pool))
    .filter((name) => name !== 'constructor')
    .sort();
  t.deepEqual(surface, ['close', 'load', 'maxRuns', 'wait']);
  t.is((pool as unknown as { run?: unknown }).run, undefined);
});

for (const kind of POOL_KINDS) {
  test(`${kind.name}: a caller that stops reading a finished run's events does not hold the pool: the next run gets the slot`, async (t) => {
    const pool = new AgentPool(kind.options(1, { maxRuns: 1 }));
    t.teardown(() => pool.close());
    const abandoned = runAgent({ ...base(t), pool, session: 'none' });
    const first = await abandoned.next();
    t.is(first.done ? undefined : first.value.type, 'run.start');
    // Never read again: the run goes on to its end in the background, and then lets the next in.
    const next = await collect({ ...base(t), pool, session: 'none' });
    t.is(end(next).status, 'completed');
    await abandoned.return(undefined);
  });
}

test('runAgent takes no crash hook: a library caller cannot crash a shared worker through its options', async (t) => {
  const pool = new AgentPool({ maxThreads: 1 });
  t.teardown(() => pool.close());
  // The option that once existed is ignored by the type and by the run.
  const events = await collect({ ...base(t), pool, ...({ crashForTest: 'exit' } as object) });
  t.is(end(events).status, 'completed');
});

test('a transcript with too few turns ends the run as failed, with the reason', async (t) => {
  const short = path.join(tempDir(t, 'zb-replay-'), 'short.json');
  writeFileSync(
    short,
    JSON.stringify({
      zotbox_replay: 1,
      model: 'x',
      turns: [{ content: [{ type: 'tool_use', id: 't1', name: 'read', input: { path: 'README.md' } }], stop: 'tool_use', usage: { input_tokens: 1, output_tokens: 1 } }],
    }),
  );
  const events = await collect({ ...base(t), replayFile: short });
  // The one recorded turn was completed before the transcript ran out: run.end says so.
  t.like(end(events), { status: 'failed', turns: 1, error: { code: 'ZB_REPLAY_EXHAUSTED' } });
});

/** A transcript file of these turns, each with one token of usage either way. */
function transcript(t: Parameters<typeof tempDir>[0], turns: readonly { content: unknown[]; stop: string }[]): string {
  const file = path.join(tempDir(t, 'zb-replay-'), 'turns.json');
  writeFileSync(file, JSON.stringify({ zotbox_replay: 1, model: 'x', turns: turns.map((turn) => ({ ...turn, usage: { input_tokens: 1, output_tokens: 1 } })) }));
  return file;
}

test('every tool call the model makes is a tool.call event: one refused for its name or its input included', async (t) => {
  const replayFile = transcript(t, [
    {
      content: [
        { type: 'tool_use', id: 't1', name: 'launch_missiles', input: { now: true } },
        { type: 'tool_use', id: 't2', name: 'read', input: { path: 7 } },
        { type: 'tool_use', id: 't3', name: 'read', input: { path: 'README.md' } },
      ],
      stop: 'tool_use',
    },
    { content: [{ type: 'text', text: 'done' }], stop: 'end' },
  ]);
  const events = await collect({ ...base(t), replayFile });
  const calls = events.filter((e) => e.type === 'tool.call');
  t.deepEqual(
    calls.map((e) => [e.id, e.tool, e.input]),
    [
      [1, 'launch_missiles', { now: true }],
      [2, 'read', { path: 7 }],
      [3, 'read', { path: 'README.md' }],
    ],
  );
  const decisions = events.filter((e) => e.type === 'gate.decision');
  t.deepEqual(
    decisions.map((e) => [e.id, e.allowed, e.code]),
    [
      [1, false, 'ZB_GATE_INVALID_MESSAGE'],
      [2, false, 'ZB_GATE_INVALID_MESSAGE'],
      [3, true, undefined],
    ],
  );
  t.deepEqual(
    events.filter((e) => e.type === 'tool.result').map((e) => [e.id, e.ok]),
    [
      [1, false],
      [2, false],
      [3, true],
    ],
  );
  t.like(end(events), { status: 'completed', final_text: 'done', turns: 2 });
});

test('a refusal ends the run as refused, with its text; a content filter as content_filtered', async (t) => {
  const refused = await collect({ ...base(t), replayFile: transcript(t, [{ content: [{ type: 'text', text: 'I will not do that.' }], stop: 'refusal' }]) });
  t.like(end(refused), { status: 'refused', final_text: 'I will not do that.', turns: 1, error: { code: 'ZB_MODEL_REFUSED' } });
  const filtered = await collect({ ...base(t), replayFile: transcript(t, [{ content: [{ type: 'text', text: 'Part' }], stop: 'content_filter' }]) });
  t.like(end(filtered), { status: 'content_filtered', final_text: 'Part', turns: 1, error: { code: 'ZB_MODEL_CONTENT_FILTERED' } });
});

test('usage events carry the cache counts, zero when the turn has none', async (t) => {
  const file = path.join(tempDir(t, 'zb-replay-'), 'cache.json');
  const turn = { content: [{ type: 'text', text: 'hi' }], stop: 'end', usage: { input_tokens: 3, output_tokens: 2, cache_creation_input_tokens: 100, cache_read_input_tokens: 40 } };
  writeFileSync(file, JSON.stringify({ zotbox_replay: 1, model: 'x', turns: [turn] }));
  const cached = await collect({ ...base(t), replayFile: file });
  t.deepEqual(
    cached.filter((e) => e.type === 'usage'),
    [{ type: 'usage', input_tokens: 3, output_tokens: 2, cache_creation_input_tokens: 100, cache_read_input_tokens: 40 }],
  );
  t.like(end(cached), { usage: { input_tokens: 3, output_tokens: 2, cache_creation_input_tokens: 100, cache_read_input_tokens: 40 }, cost_usd: null }, 'a replay costs nothing known');
  const plain = await collect({ ...base(t), replayFile: transcript(t, [{ content: [{ type: 'text', text: 'hi' }], stop: 'end' }]) });
  t.deepEqual(
    plain.filter((e) => e.type === 'usage'),
    [{ type: 'usage', input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }],
  );
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
  await t.throwsAsync(collect({ ...base(t), reference: path.join(EXAMPLES_DIR, 'repo-maintainer'), confine: 'off' }), { code: 'ZB_RUN_NO_PROMPT' } as never);
  t.is(skillDescription('---\nname: x\ndescription: Does things.\n---\nbody'), 'Does things.');
});

/**
 * An agent allowed to run `sleep`, and a transcript that sleeps for `seconds` then answers.
 * With `announce`, the command is `touch started | sleep N`: both start together, so once
 * `started` exists in the workspace, the sleep is running.
 */
function sleeper(t: Parameters<typeof tempDir>[0], seconds: number | string, announce = false): RunAgentOptions & { reference: string; agent?: undefined; cwd: string } {
  const root = realpathSync(tempDir(t, 'zb-sleeper-'));
  const agent = path.join(root, 'agent');
  mkdirSync(agent);
  writeFileSync(
    path.join(agent, 'manifest.json'),
    JSON.stringify({ zotfile: 1, name: 'sleeper', version: '1.0.0', permissions: { fs: { read: ['${workspace}'], write: ['${workspace}'] }, bash: { mode: 'allowlist', allow: ['sleep', 'touch'] } } }),
  );
  writeFileSync(path.join(agent, 'AGENT.md'), 'You wait.');
  const transcript = path.join(root, 'sleep.json');
  const usage = { input_tokens: 1, output_tokens: 1 };
  writeFileSync(
    transcript,
    JSON.stringify({
      zotbox_replay: 1,
      model: 'replay',
      turns: [
        {
          content: [
            { type: 'text', text: 'Waiting.' },
            { type: 'tool_use', id: 't1', name: 'bash', input: { command: `${announce ? 'touch started | ' : ''}sleep ${seconds}` } },
          ],
          stop: 'tool_use',
          usage,
        },
        { content: [{ type: 'text', text: 'Done waiting.' }], stop: 'end', usage },
      ],
    }),
  );
  return { reference: agent, cwd: root, replayFile: transcript, prompt: 'wait', yes: true, env: {}, stateDirectory: tempDir(t, 'zb-cancel-state-'), confine: 'off' }; // beside the workspace (unconfined)
}

/** Sleep lengths unique to this test process: another test run on the machine never owns the process looked for. */
const unique = (seconds: string) => `${seconds}${process.pid}`;

function sleepIsRunning(seconds: number | string): boolean {
  try {
    execFileSync('pgrep', ['-f', `^sleep ${seconds}$`]);
    return true;
  } catch {
    return false;
  }
}

for (const kind of POOL_KINDS) {
  test(`${kind.name}: cancelling a run kills its command and flushes its session; the run beside it on the same worker completes`, async (t) => {
    const pool = new AgentPool(kind.options(1, { maxRuns: 4 }));
    t.teardown(() => pool.close());
    // An hour-long command: the run can only end within the test's time if cancelling kills it.
    const length = unique(`3737.${POOL_KINDS.indexOf(kind)}`); // each kind's own: the three run at once
    const victim = sleeper(t, length, true);
    // Cancel once the command is running: `started` exists.
    const controller = new AbortController();
    const watcher = watch(victim.cwd, (_event, name) => {
      if (name === 'started') controller.abort();
    });
    t.teardown(() => watcher.close());
    const [victimEvents, neighbourEvents] = await Promise.all([collect({ ...victim, pool, signal: controller.signal }), collect({ ...sleeper(t, 0), pool })]);
    t.true(controller.signal.aborted, 'cancelled by the test, once the command had started');
    t.like(end(victimEvents), { status: 'cancelled', error: { code: 'ZB_GATE_CANCELLED' } });
    t.false(sleepIsRunning(length), 'the command was killed');
    t.like(end(neighbourEvents), { status: 'completed', final_text: 'Done waiting.' });
    const session = (victimEvents[0] as RunEvent & { type: 'run.start' }).session!;
    t.is(readSession(session.file).messages.length, 2, 'the prompt and the answered turn were flushed');
  });
}

test('a run whose signal is already aborted stops while loading, before anything runs', async (t) => {
  const length = unique('38.');
  await t.throwsAsync(collect({ ...sleeper(t, length), signal: AbortSignal.abort() }), { code: 'ZB_ARCHIVE_INTERRUPTED' } as never);
  t.false(sleepIsRunning(length));
});

for (const kind of POOL_KINDS) {
  test(`${kind.name}: workers start with an empty environment, the configured memory limit, and without require(esm)`, async (t) => {
    const pool = new AgentPool({ ...kind.options(1, { maxOldGenerationSizeMb: 96 }), [WORKER_FILE_FOR_TESTS]: new URL('../../fixtures/report-worker.js', import.meta.url) } as never);
    t.teardown(() => pool.close());
    const report = (await pool[RUN_TASK]({ gatePort: undefined, modelPort: undefined } as never)) as unknown as { env: Record<string, string>; heapLimitMb: number; execArgv: string[] };
    t.deepEqual(report.env, {});
    t.true(report.execArgv.includes('--no-experimental-require-module'), 'the task is loaded with import(), not require(esm)');
    t.true(report.heapLimitMb >= 96 && report.heapLimitMb < 160, `heap limit ${report.heapLimitMb} MiB`);
  });
}

test('an interactive run reads each next message from readPrompt; a failing reader ends the run with its error', async (t) => {
  const asked: { first: boolean; greeting: string }[] = [];
  const { prompt: _unused, ...chat } = sleeper(t, 0);
  const events = await collect({
    ...chat,
    readPrompt: async (context) => {
      asked.push(context);
      if (asked.length === 1) return 'wait please';
      throw new ZotboxError('ZB_IO_FAILED', 'the terminal went away.');
    },
  });
  t.deepEqual(asked, [
    { first: true, greeting: '' },
    { first: false, greeting: '' },
  ]);
  t.like(end(events), { status: 'failed', final_text: 'Done waiting.', error: { code: 'ZB_IO_FAILED' } });
});

for (const kind of POOL_KINDS) {
  test(`${kind.name}: a run that outgrows its own worker memory limit fails with ZB_WORKER_CRASHED`, async (t) => {
    const pool = new AgentPool({ ...kind.options(1, { maxOldGenerationSizeMb: 32 }), [WORKER_FILE_FOR_TESTS]: CRASH_WORKER } as never);
    t.teardown(() => pool.close());
    const events = await collect({ ...base(t), pool, prompt: 'crash:oom' });
    t.like(end(events), { status: 'failed', error: { code: 'ZB_WORKER_CRASHED' } });
  });
}
