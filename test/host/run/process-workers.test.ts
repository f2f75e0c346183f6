// The host side of the process transport: a pool process that breaks the frame
// protocol is ended, its runs fail with ZB_WORKER_CRASHED, and the pool starts a
// new process for the next run. Awaits outcomes, never the clock.
import test from 'ava';
import { AgentPool, RUN_TASK, WORKER_FILE_FOR_TESTS } from '../../../src/host/run/pool.js';
import { POOL_KINDS } from '../../fixtures/pool-kinds.js';

const ROGUE_WORKER = new URL('../../fixtures/rogue-process-worker.js', import.meta.url);

for (const kind of POOL_KINDS.filter((k) => k.name !== 'threads')) {
  for (const order of ['oversize', 'malformed']) {
    test(`${kind.name}: a process that sends a ${order} frame is ended, its run fails with ZB_WORKER_CRASHED, and the next run gets a new process`, async (t) => {
      const pool = new AgentPool({ ...kind.options(1), [WORKER_FILE_FOR_TESTS]: ROGUE_WORKER } as never);
      t.teardown(() => pool.close());
      const failed = await t.throwsAsync(pool[RUN_TASK]({ prompts: [order] } as never), { code: 'ZB_WORKER_CRASHED' } as never);
      t.regex(failed.message, /frame/u, 'the reason names the frame');
      t.is(await pool[RUN_TASK]({ prompts: ['work'] } as never), 'fine' as never);
    });
  }
}
