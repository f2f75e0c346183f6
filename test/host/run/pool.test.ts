// The pool: runs spread over its workers (threads or processes) and interleave
// on each; a worker that dies fails the tasks on that worker and no other, and
// the pool replaces it. Awaits messages and exits, never the clock.
import test from 'ava';
import { readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { AgentPool, PROCESS_IDS_FOR_TESTS, RUN_TASK, WORKER_FILE_FOR_TESTS } from '../../../src/host/run/pool.js';
import { POOL_KINDS } from '../../fixtures/pool-kinds.js';

const PLACEMENT_WORKER = new URL('../../fixtures/placement-worker.js', import.meta.url);

interface Placed {
  readonly worker: string;
  readonly control: MessagePort;
  readonly outcome: Promise<unknown>;
}

/** Starts a placement task and resolves once it reports the worker it landed on. */
async function place(pool: AgentPool): Promise<Placed> {
  const channel = new MessageChannel();
  const reported = new Promise<string>((resolve) => channel.port1.once('message', (message: { worker: string }) => resolve(message.worker)));
  const outcome = pool[RUN_TASK]({ gatePort: channel.port2 } as never);
  outcome.catch(() => undefined); // inspected by the test below
  return { worker: await reported, control: channel.port1, outcome };
}

for (const kind of POOL_KINDS) {
  test(`${kind.name}: tasks spread over every worker and several run at once on each; a worker that exits fails only the tasks on it, and the pool replaces it`, async (t) => {
    const pool = new AgentPool({ ...kind.options(2), [WORKER_FILE_FOR_TESTS]: PLACEMENT_WORKER } as never);
    t.teardown(() => pool.close());
    const placed = await Promise.all(Array.from({ length: 6 }, () => place(pool)));
    const workers = [...new Set(placed.map((p) => p.worker))];
    t.is(workers.length, 2, 'both workers took tasks');
    const [victim] = workers;
    const onVictim = placed.filter((p) => p.worker === victim);
    const elsewhere = placed.filter((p) => p.worker !== victim);
    t.true(onVictim.length >= 2 && elsewhere.length >= 2, `tasks interleave on each worker (${onVictim.length} and ${elsewhere.length})`);
    onVictim[0]!.control.postMessage('exit');
    // piscina's own error for a thread (run-end.ts names it ZB_WORKER_CRASHED); the pool's for a process.
    const crashed = kind.name === 'threads' ? undefined : ({ code: 'ZB_WORKER_CRASHED' } as never);
    for (const task of onVictim) await t.throwsAsync(task.outcome, crashed, 'a task on the worker that exited fails');
    for (const task of elsewhere) task.control.postMessage('end');
    t.deepEqual(
      await Promise.all(elsewhere.map((task) => task.outcome)),
      elsewhere.map((task) => task.worker),
      'the tasks on the other worker end normally',
    );
    for (const task of placed) task.control.close();
    const after = await place(pool);
    after.control.postMessage('end');
    t.is(await after.outcome, after.worker, 'the pool runs tasks again after losing a worker');
  });
}

/** The node process a pool process runs: the launched process itself, or its descendant inside bubblewrap. */
function nodeProcess(pid: number): number {
  const node = realpathSync(process.execPath);
  const queue = [pid];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    let exe = '';
    try {
      exe = readlinkSync(`/proc/${next}/exe`);
    } catch {
      // a bubblewrap process whose exe link we may not read: look below it
    }
    if (exe === node) return next;
    for (const task of readdirSync(`/proc/${next}/task`)) {
      const children = readFileSync(`/proc/${next}/task/${task}/children`, 'utf8').trim();
      if (children !== '') queue.push(...children.split(' ').map(Number));
    }
  }
  throw new Error(`no node process below ${pid}`);
}

for (const kind of POOL_KINDS.filter((k) => k.name !== 'threads')) {
  test(`${kind.name}: a pool process has no environment and holds no file, directory or socket but its own pipes`, async (t) => {
    const pool = new AgentPool({ ...kind.options(1), [WORKER_FILE_FOR_TESTS]: PLACEMENT_WORKER } as never);
    t.teardown(() => pool.close());
    const held = await place(pool); // the process is up and running a task
    const [launched] = pool[PROCESS_IDS_FOR_TESTS]();
    const node = nodeProcess(launched!);
    const environ = readFileSync(`/proc/${node}/environ`, 'utf8')
      .split('\0')
      .filter((entry) => entry !== '');
    // bubblewrap sets PWD itself (to the sandbox's /); nothing of the host's environment is there.
    t.deepEqual(environ, kind.name === 'processes' ? [] : ['PWD=/']);
    const links = readdirSync(`/proc/${node}/fd`).map((fd) => ({ fd: Number(fd), target: readlinkSync(`/proc/${node}/fd/${fd}`) }));
    const stdio = links.filter((link) => link.fd <= 2);
    t.deepEqual(
      stdio.map((link) => link.target.replace(/\d+/u, 'N')),
      ['socket:[N]', 'socket:[N]', 'socket:[N]'],
      'stdin, stdout and stderr are the pipes to the host',
    );
    // Above 2 only Node's own event loop (epoll, eventfds, pipes whose both ends it holds itself), and /dev/null where
    // the host had inherited descriptors without close-on-exec (inherited-descriptors.ts lays it over them).
    const rest = links.filter((link) => link.fd > 2).map((link) => link.target);
    const pipes = rest.filter((target) => target.startsWith('pipe:'));
    t.deepEqual(
      rest.filter((target) => !target.startsWith('anon_inode:') && !target.startsWith('pipe:') && target !== '/dev/null'),
      [],
      `no file, directory or socket: ${rest.join(', ')}`,
    );
    for (const pipe of new Set(pipes)) t.is(pipes.filter((p) => p === pipe).length, 2, `both ends of ${pipe} are the process's own`);
    held.control.postMessage('end');
    await held.outcome;
    held.control.close();
  });

  test(`${kind.name}: a SIGKILLed pool process fails only its own tasks; the tasks on the other complete, and the pool replaces it`, async (t) => {
    const pool = new AgentPool({ ...kind.options(2), [WORKER_FILE_FOR_TESTS]: PLACEMENT_WORKER } as never);
    t.teardown(() => pool.close());
    const placed = await Promise.all(Array.from({ length: 4 }, () => place(pool)));
    const pids = pool[PROCESS_IDS_FOR_TESTS]();
    t.is(pids.length, 2);
    process.kill(nodeProcess(pids[0]!), 'SIGKILL');
    // A killed process reads nothing more: only the tasks on the other one can end.
    for (const task of placed) task.control.postMessage('end');
    const settled = await Promise.allSettled(placed.map((task) => task.outcome));
    const byWorker = new Map<string, string[]>();
    settled.forEach((outcome, index) => {
      const { worker } = placed[index]!;
      const seen = outcome.status === 'fulfilled' ? (outcome.value === worker ? 'completed' : 'wrong answer') : (outcome.reason as { code?: string }).code;
      byWorker.set(worker, [...(byWorker.get(worker) ?? []), String(seen)]);
    });
    const groups = [...byWorker.values()].map((outcomes) => [...new Set(outcomes)].join(',')).sort();
    t.deepEqual(groups, ['ZB_WORKER_CRASHED', 'completed'], 'every task on the killed process failed, every task on the other completed');
    for (const task of placed) task.control.close();
    const after = await place(pool);
    after.control.postMessage('end');
    t.is(await after.outcome, after.worker, 'the pool runs tasks again');
    t.is(pool[PROCESS_IDS_FOR_TESTS]().length, 2, 'with a new process in place of the killed one');
  });
}

test('processes in bubblewrap: a pool process has no network, its own pid namespace, no root, and of the file system only what Node and zotbox need', async (t) => {
  const kind = POOL_KINDS.find((k) => k.name === 'processes in bubblewrap')!;
  const pool = new AgentPool({ ...kind.options(1), [WORKER_FILE_FOR_TESTS]: new URL('../../fixtures/sandbox-report-worker.js', import.meta.url) } as never);
  t.teardown(() => pool.close());
  const report = (await pool[RUN_TASK]({} as never)) as unknown as { interfaces: string[]; root: string[]; pid: number; uid: number };
  t.deepEqual(report.interfaces, ['lo'], 'a network namespace of its own: loopback only');
  t.true(report.pid < 10, `a pid namespace of its own (pid ${report.pid})`);
  t.is(report.uid, 65534, 'nobody, not the user');
  // Top-level entries: /proc, /dev, and the first component of each read-only bind (node, its libraries, zotbox's code).
  const allowed = new Set(['proc', 'dev', 'etc', 'lib', 'lib64', 'usr', ...[process.execPath, import.meta.dirname].map((p) => realpathSync(p).split('/')[1]!)]);
  t.deepEqual(
    report.root.filter((entry) => !allowed.has(entry)),
    [],
    `nothing else at / (${report.root.join(', ')})`,
  );
  // Unless zotbox's own code lies below one of them (a copy in /tmp), none of these is there.
  const codeTop = realpathSync(import.meta.dirname).split('/')[1];
  for (const absent of ['home', 'tmp', 'root'].filter((entry) => entry !== codeTop)) t.false(report.root.includes(absent), `no /${absent}`);
});
