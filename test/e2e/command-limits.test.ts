// Whole runs with command limits (issue 24 §5): run.start says which limits are in
// force and how; a fork bomb's call ends with ZB_COMMAND_LIMIT, which the model reads
// and the run goes on; a neighbour run on the same pool stays responsive meanwhile;
// the CLI can lower a limit and is refused when it would raise one; consent binds the
// ceiling.
import test, { type ExecutionContext } from 'ava';
import { watch, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { runAgent, type RunAgentOptions } from '../../src/host/run/run-agent.js';
import type { RunEvent } from '../../src/host/run/run-events.js';
import { runCliCaptured } from '../fixtures/cli-harness.js';
import { tempDir } from '../fixtures/temp.js';

const usage = { input_tokens: 1, output_tokens: 1 };
// Each level waits for the two it starts: the tree only grows until forks are refused.
const FORK_BOMB = 'bomb() { bomb | bomb; }; bomb';

interface Agent {
  readonly root: string;
  readonly agent: string;
  readonly ws: string;
  readonly transcript: string;
  readonly options: RunAgentOptions & { reference: string; cwd: string };
}

/** An agent with bash in ask mode and `limits`, whose replayed model runs `commands`, one per turn, then answers. */
function agentRunning(t: ExecutionContext, commands: readonly string[], limits: Record<string, number> = {}): Agent {
  const root = realpathSync(tempDir(t, 'zb-limits-run-'));
  const agent = path.join(root, 'agent');
  const ws = path.join(root, 'ws');
  mkdirSync(agent);
  mkdirSync(ws);
  writeFileSync(
    path.join(agent, 'manifest.json'),
    JSON.stringify({ zotfile: 1, name: 'bounded', version: '1.0.0', permissions: { fs: { read: ['${workspace}'], write: ['${workspace}'] }, bash: { mode: 'ask' }, limits } }),
  );
  const transcript = path.join(root, 'run.json');
  writeFileSync(
    transcript,
    JSON.stringify({
      zotbox_replay: 1,
      model: 'replay',
      turns: [
        ...commands.map((command, index) => ({ content: [{ type: 'tool_use', id: `t${index + 1}`, name: 'bash', input: { command } }], stop: 'tool_use', usage })),
        { content: [{ type: 'text', text: 'All done.' }], stop: 'end', usage },
      ],
    }),
  );
  return { root, agent, ws, transcript, options: { reference: agent, cwd: ws, replayFile: transcript, prompt: 'go', yes: true, env: {}, stateDirectory: path.join(root, 'state') } };
}

/** An agent whose entry.pre is `pre`, in bash ask mode, with `limits`. */
function agentStartingWith(t: ExecutionContext, pre: string, limits: Record<string, number>): RunAgentOptions & { reference: string; cwd: string } {
  const { agent, options } = agentRunning(t, []);
  writeFileSync(
    path.join(agent, 'manifest.json'),
    JSON.stringify({ zotfile: 1, name: 'bounded', version: '1.0.0', permissions: { fs: { read: ['${workspace}'] }, bash: { mode: 'ask' }, limits }, entry: { pre } }),
  );
  return options;
}

/** The run's events, each with the moment it arrived. */
async function collect(options: RunAgentOptions): Promise<{ event: RunEvent; at: number }[]> {
  const events: { event: RunEvent; at: number }[] = [];
  for await (const event of runAgent(options)) events.push({ event, at: performance.now() });
  return events;
}

const startOf = (events: readonly { event: RunEvent }[]) => events[0]!.event as RunEvent & { type: 'run.start' };
const resultsOf = (events: readonly { event: RunEvent }[]) => events.map((e) => e.event).filter((e): e is RunEvent & { type: 'tool.result' } => e.type === 'tool.result');

test('run.start names the limits in force and their mechanism; a fork bomb ends its call with ZB_COMMAND_LIMIT and the run goes on', async (t) => {
  const { options } = agentRunning(t, [FORK_BOMB, 'echo still here'], { processes: 200 });
  const events = await collect(options);
  t.like(startOf(events).limits, { processes: 200, memory_mib: 4096, cpu_seconds: 3600, file_size_mib: 4096 });
  t.not(startOf(events).limits?.enforcement, 'rlimit');
  t.regex(startOf(events).limits?.description ?? '', /^a cgroup v[12] per command: at most 200 processes/);
  const [bomb, after] = resultsOf(events);
  // The result leads with the limit, so the model and the event's 200-character summary both show it.
  t.regex(bomb?.summary ?? '', /^\{"limit":\{"code":"ZB_COMMAND_LIMIT","limit":"processes","value":200,/);
  t.regex(after?.summary ?? '', /still here/);
  t.like(events.at(-1)?.event, { type: 'run.end', status: 'completed' });
});

test('a neighbour run on the same pool stays responsive while fork bombs are contained next to it', async (t) => {
  const bombs = 6;
  const started = 'bombing';
  const bomber = agentRunning(t, [`touch ${started}; ${FORK_BOMB}`, ...Array.from({ length: bombs - 1 }, () => FORK_BOMB)], { processes: 1024 });
  const neighbour = agentRunning(
    t,
    Array.from({ length: 6 }, (_, index) => `echo call ${index}`),
  );
  // The neighbour starts once the first bomb is going off: its calls run beside the bombs that follow.
  const bombing = new Promise<void>((resolve) => {
    const watcher = watch(bomber.ws, (_event, name) => {
      if (name !== started) return;
      watcher.close();
      resolve();
    });
  });
  const bomberRun = collect(bomber.options);
  await bombing;
  const neighbourEvents = await collect(neighbour.options);
  const bomberEvents = await bomberRun;
  for (const result of resultsOf(bomberEvents)) t.regex(result.summary, /^\{"limit":\{"code":"ZB_COMMAND_LIMIT","limit":"processes"/);
  t.like(neighbourEvents.at(-1)?.event, { type: 'run.end', status: 'completed' });
  // Each neighbour call's latency, from its tool.call event to its tool.result event.
  const latencies = neighbourEvents
    .filter((e) => e.event.type === 'tool.call')
    .map((call) => {
      const id = (call.event as RunEvent & { type: 'tool.call' }).id;
      const result = neighbourEvents.find((e) => e.event.type === 'tool.result' && e.event.id === id);
      return (result?.at ?? Number.POSITIVE_INFINITY) - call.at;
    });
  t.is(latencies.length, 6);
  t.log(`neighbour call latencies: ${latencies.map(Math.round).join(', ')} ms`);
  // A confined call takes well under a second here; an uncontained bomb leaves no process to start it with at all.
  const BOUND_MS = 10_000;
  for (const latency of latencies) t.true(latency < BOUND_MS, `a neighbour call took ${Math.round(latency)} ms (bound ${BOUND_MS} ms): ${latencies.map(Math.round).join(', ')}`);
});

test('zotbox run --limit-processes lowers the limit; a value above the manifest ceiling is refused with ZB_COMMAND_LIMIT_RAISED', async (t) => {
  const { agent, ws, transcript, root } = agentRunning(t, ['echo hi'], { processes: 200 });
  const base = ['run', agent, 'go', '--cwd', ws, '--replay', transcript, '-y', '--no-session', '--json'];
  const env = { ZOTBOX_HOME: path.join(root, 'state') };
  const lowered = await runCliCaptured([...base, '--limit-processes', '100', '--limit-memory', '512'], { env });
  t.is(lowered.status, 0, lowered.stderr);
  const start = JSON.parse(lowered.stdout.split('\n')[0]!) as RunEvent & { type: 'run.start' };
  t.like(start.limits, { processes: 100, memory_mib: 512, cpu_seconds: 3600 });
  // The receipt and consent bind the ceiling, not the lowered value.
  t.like(start.permissions, { confinement: 'bubblewrap' });
  const raised = await runCliCaptured([...base, '--limit-processes', '201'], { env });
  t.is(raised.status, 2);
  t.regex(raised.stderr, /ZB_COMMAND_LIMIT_RAISED/);
  t.is(raised.stdout, '');
});

test('entry.pre runs under the same limits: a fork bomb there stops the run with ZB_RUN_PRE_FAILED naming ZB_COMMAND_LIMIT', async (t) => {
  const events = await collect(agentStartingWith(t, `!${FORK_BOMB}`, { processes: 100 }));
  const end = events.at(-1)?.event as RunEvent & { type: 'run.end' };
  t.like(end, { type: 'run.end', status: 'failed', error: { code: 'ZB_RUN_PRE_FAILED' } });
  t.regex(end.error?.message ?? '', /^entry\.pre: "bomb\(\) \{ bomb \| bomb; \}; bomb" was stopped \(ZB_COMMAND_LIMIT\): the command reached its process limit \(100 processes\)/);
});
