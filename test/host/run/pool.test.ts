// The pool: runs spread over its threads and interleave on each; a worker that
// dies fails the tasks on that worker and no other. Awaits messages, never the clock.
import test from 'ava';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { AgentPool, RUN_TASK, WORKER_FILE_FOR_TESTS } from '../../../src/host/run/pool.js';

const PLACEMENT_WORKER = new URL('../../fixtures/placement-worker.js', import.meta.url);

interface Placed {
  readonly thread: number;
  readonly control: MessagePort;
  readonly outcome: Promise<unknown>;
}

/** Starts a placement task and resolves once it reports the thread it landed on. */
async function place(pool: AgentPool): Promise<Placed> {
  const channel = new MessageChannel();
  const reported = new Promise<number>((resolve) => channel.port1.once('message', (message: { threadId: number }) => resolve(message.threadId)));
  const outcome = pool[RUN_TASK]({ gatePort: channel.port2 } as never);
  outcome.catch(() => undefined); // inspected by the test below
  return { thread: await reported, control: channel.port1, outcome };
}

test('tasks spread over every thread and several run at once on each; a worker that exits fails only the tasks on that worker', async (t) => {
  const pool = new AgentPool({ maxThreads: 2, [WORKER_FILE_FOR_TESTS]: PLACEMENT_WORKER } as never);
  t.teardown(() => pool.close());
  const placed = await Promise.all(Array.from({ length: 6 }, () => place(pool)));
  const threads = [...new Set(placed.map((p) => p.thread))];
  t.is(threads.length, 2, 'both threads took tasks');
  const [victimThread] = threads;
  const onVictim = placed.filter((p) => p.thread === victimThread);
  const elsewhere = placed.filter((p) => p.thread !== victimThread);
  t.true(onVictim.length >= 2 && elsewhere.length >= 2, `tasks interleave on each thread (${onVictim.length} and ${elsewhere.length})`);
  onVictim[0]!.control.postMessage('exit');
  for (const task of onVictim) await t.throwsAsync(task.outcome, undefined, 'a task on the worker that exited fails');
  for (const task of elsewhere) task.control.postMessage('end');
  t.deepEqual(
    await Promise.all(elsewhere.map((task) => task.outcome)),
    elsewhere.map((task) => task.thread),
    'the tasks on the other worker end normally',
  );
  for (const task of placed) task.control.close();
});
