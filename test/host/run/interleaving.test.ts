// Runs in flight are bounded by the pool's maxRuns, not by its threads (issue 11):
// each worker interleaves many agent loops. No test here waits on the clock: the
// fixture model holds every request until the test has seen what it waits for.
import test from 'ava';
import type { ServerResponse } from 'node:http';
import { executeRun } from '../../../src/host/run/execute-run.js';
import { AgentPool } from '../../../src/host/run/pool.js';
import type { RunEvent } from '../../../src/host/run/run-events.js';
import { prepareRun } from '../../../src/host/run/run-plan.js';
import { ModelEndpoints } from '../../../src/host/providers/model-endpoints.js';
import { agentFixture, openaiStream, run, serve } from '../../fixtures/model-servers.js';
import { POOL_KINDS } from '../../fixtures/pool-kinds.js';

/** A loopback OpenAI-format model that holds requests; `answer` releases one with a final text. */
async function holdingModel(t: Parameters<typeof agentFixture>[0]) {
  const held: { prompt: string; res: ServerResponse }[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  let answered = 0;
  let peak = 0;
  const server = await serve(t, (body: { messages: { role: string; content: unknown }[] }, _req, res) => {
    const user = body.messages.find((m) => m.role === 'user');
    held.push({ prompt: typeof user?.content === 'string' ? user.content : JSON.stringify(user?.content), res });
    peak = Math.max(peak, held.length - answered);
    for (const waiter of waiters.filter((w) => held.length >= w.count)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  });
  return {
    base: server.base,
    held,
    /** Resolves once `count` requests have arrived in all. */
    arrived: (count: number) => (server.requests.length >= count ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ count, resolve }))),
    answer: (index: number, text: string) => {
      answered++;
      openaiStream(held[index]!.res, { text }, index);
    },
    /** The most requests the model held unanswered at once. */
    peakHeld: () => peak,
  };
}

async function collect(events: AsyncGenerator<RunEvent>): Promise<RunEvent[]> {
  const all: RunEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

const env = (base: string) => ({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${base}/v1` });

for (const kind of POOL_KINDS) {
  test(`${kind.name}: 50 runs on a 2-worker pool are all in flight at once: a model that answers only once 50 requests wait lets all complete`, async (t) => {
    const fixture = agentFixture(t);
    const model = await holdingModel(t);
    const pool = new AgentPool(kind.options(2));
    t.teardown(() => pool.close());
    const runs = Array.from({ length: 50 }, (_, i) =>
      run({
        reference: fixture.agent,
        cwd: fixture.ws,
        prompt: `task ${i}`,
        yes: true,
        env: env(model.base),
        stateDirectory: fixture.state,
        confine: 'off',
        model: 'gpt-4.1',
        modelConcurrency: 50,
        pool,
      }),
    );
    // On a pool whose runs serialize on threads, at most 2 requests ever wait, and this never resolves.
    await model.arrived(50);
    for (let i = 0; i < 50; i++) model.answer(i, `done ${i}`);
    const ends = (await Promise.all(runs)).map((events) => events.at(-1));
    t.is(ends.filter((end) => end?.type === 'run.end' && end.status === 'completed').length, 50);
    t.deepEqual(model.held.map((h) => h.prompt).sort(), Array.from({ length: 50 }, (_, i) => `task ${i}`).sort());
  });
}

for (const kind of POOL_KINDS) {
  test(`${kind.name}: beyond maxRuns, runs wait in the order they started, and a finished run lets exactly the next one in`, async (t) => {
    const fixture = agentFixture(t);
    const model = await holdingModel(t);
    const pool = new AgentPool(kind.options(2, { maxRuns: 3 }));
    t.teardown(() => pool.close());
    // Prepared once, then started one after another: the order they start in is the order executeRun is called
    // (six runAgent calls would each load and prepare concurrently, and could reach the pool in any order).
    const plan = await prepareRun({ reference: fixture.agent, cwd: fixture.ws, yes: true, env: env(model.base), stateDirectory: fixture.state, confine: 'off', model: 'gpt-4.1' });
    const runs = Array.from({ length: 6 }, (_, i) => collect(executeRun(plan, { prompt: `task ${i}`, pool })));
    await model.arrived(3);
    t.deepEqual(pool.load, { inFlight: 3, queued: 3 });
    t.is(model.held.length, 3, 'three runs in flight; the other three wait for a slot');
    model.answer(1, 'done 1');
    await model.arrived(4);
    t.is(model.held[3]!.prompt, 'task 3', 'the first run that waited is the first let in');
    t.deepEqual(pool.load, { inFlight: 3, queued: 2 });
    model.answer(0, 'done 0');
    model.answer(2, 'done 2');
    await model.arrived(6);
    t.deepEqual(
      model.held
        .slice(4)
        .map((h) => h.prompt)
        .sort(),
      ['task 4', 'task 5'],
    );
    for (let i = 3; i < 6; i++) model.answer(i, `done ${i}`);
    const statuses = (await Promise.all(runs)).map((events) => events.at(-1)).map((end) => (end?.type === 'run.end' ? end.status : end?.type));
    t.deepEqual(statuses, Array(6).fill('completed'));
    t.deepEqual(pool.load, { inFlight: 0, queued: 0 });
  });
}

for (const kind of POOL_KINDS) {
  test(`${kind.name}: a run cancelled while it waits for a slot takes none, starts nothing, and the queue moves on`, async (t) => {
    const fixture = agentFixture(t);
    const model = await holdingModel(t);
    const pool = new AgentPool(kind.options(1, { maxRuns: 1 }));
    t.teardown(() => pool.close());
    const plan = await prepareRun({ reference: fixture.agent, cwd: fixture.ws, yes: true, env: env(model.base), stateDirectory: fixture.state, confine: 'off', model: 'gpt-4.1' });
    const first = collect(executeRun(plan, { prompt: 'first', pool }));
    await model.arrived(1);
    const controller = new AbortController();
    const waiting = executeRun(plan, { prompt: 'cancelled while waiting', pool, signal: controller.signal });
    // The generator queues for a slot within this call, and says so first.
    const queued = await waiting.next();
    t.like(queued.value, { type: 'run.queued', reason: 'pool', ahead: 0, limit: 1 });
    t.deepEqual(pool.load, { inFlight: 1, queued: 1 });
    const waitingStep = waiting.next();
    const third = collect(executeRun(plan, { prompt: 'third', pool }));
    controller.abort();
    await t.throwsAsync(waitingStep, { code: 'ZB_GATE_CANCELLED' } as never);
    model.answer(0, 'done first');
    await model.arrived(2);
    t.is(model.held[1]!.prompt, 'third');
    model.answer(1, 'done third');
    t.like((await first).at(-1), { type: 'run.end', status: 'completed' });
    t.like((await third).at(-1), { type: 'run.end', status: 'completed' });
    t.is(model.held.length, 2, 'the cancelled run never asked the model');
  });
}

for (const kind of POOL_KINDS) {
  test(`${kind.name}: a caller that stops reading at run.queued takes no slot: the next run in line gets it`, async (t) => {
    const fixture = agentFixture(t);
    const model = await holdingModel(t);
    const pool = new AgentPool(kind.options(1, { maxRuns: 1 }));
    t.teardown(() => pool.close());
    const plan = await prepareRun({ reference: fixture.agent, cwd: fixture.ws, yes: true, env: env(model.base), stateDirectory: fixture.state, confine: 'off', model: 'gpt-4.1' });
    const first = collect(executeRun(plan, { prompt: 'first', pool }));
    await model.arrived(1);
    const left = executeRun(plan, { prompt: 'left at run.queued', pool });
    t.like((await left.next()).value, { type: 'run.queued', reason: 'pool', ahead: 0, limit: 1 });
    const third = collect(executeRun(plan, { prompt: 'third', pool }));
    t.deepEqual(pool.load, { inFlight: 1, queued: 2 });
    await left.return(undefined);
    t.deepEqual(pool.load, { inFlight: 1, queued: 1 });
    model.answer(0, 'done first');
    await model.arrived(2);
    t.is(model.held[1]!.prompt, 'third');
    model.answer(1, 'done third');
    t.like((await first).at(-1), { type: 'run.end', status: 'completed' });
    const thirdEvents = await third;
    t.like(thirdEvents[0], { type: 'run.queued', reason: 'pool', ahead: 1, limit: 1 });
    t.like(thirdEvents.at(-1), { type: 'run.end', status: 'completed' });
  });
}

for (const kind of POOL_KINDS) {
  test(`${kind.name}: runs that wait for their model endpoint say so with run.queued, naming the endpoint`, async (t) => {
    const fixture = agentFixture(t);
    const model = await holdingModel(t);
    const pool = new AgentPool(kind.options(1));
    t.teardown(() => pool.close());
    const endpoints = new ModelEndpoints();
    t.teardown(() => endpoints.close());
    const plan = await prepareRun({
      reference: fixture.agent,
      cwd: fixture.ws,
      yes: true,
      env: env(model.base),
      stateDirectory: fixture.state,
      confine: 'off',
      model: 'gpt-4.1',
      modelEndpoints: endpoints,
      modelConcurrency: 1,
    });
    let seen = 0;
    let bothQueued!: () => void;
    const queuedTwice = new Promise<void>((resolve) => (bothQueued = resolve));
    const runs = [0, 1, 2].map(async (i) => {
      const events: RunEvent[] = [];
      for await (const event of executeRun(plan, { prompt: `task ${i}`, pool })) {
        events.push(event);
        if (event.type === 'run.queued' && ++seen === 2) bothQueued();
      }
      return events;
    });
    // The model answers nothing until both other runs wait for the endpoint's one slot.
    await Promise.all([model.arrived(1), queuedTwice]);
    for (let i = 0; i < 3; i++) {
      await model.arrived(i + 1);
      model.answer(i, `answer ${i}`);
    }
    const results = await Promise.all(runs);
    const host = new URL(model.base).host;
    const queued = results.map((events) => events.filter((event) => event.type === 'run.queued'));
    t.deepEqual(queued.map((events) => events.length).sort(), [0, 1, 1], 'the first run to ask waits for none; the other two wait once each');
    t.deepEqual(
      queued
        .flat()
        .map((event) => ({ reason: event.reason, endpoint: event.endpoint, limit: event.limit, ahead: event.ahead }))
        .sort((a, b) => a.ahead - b.ahead),
      [
        { reason: 'endpoint', endpoint: host, limit: 1, ahead: 0 },
        { reason: 'endpoint', endpoint: host, limit: 1, ahead: 1 },
      ],
    );
    for (const events of results) t.like(events.at(-1), { type: 'run.end', status: 'completed' });
  });
}

for (const kind of POOL_KINDS) {
  test(`${kind.name}: one prepared plan runs many times at once: each run has its own run id, session and answer`, async (t) => {
    const fixture = agentFixture(t);
    const model = await holdingModel(t);
    const pool = new AgentPool(kind.options(2));
    t.teardown(() => pool.close());
    const plan = await prepareRun({ reference: fixture.agent, cwd: fixture.ws, yes: true, env: env(model.base), stateDirectory: fixture.state, confine: 'off', model: 'gpt-4.1' });
    const runs = [0, 1, 2].map((i) => collect(executeRun(plan, { prompt: `task ${i}`, pool })));
    await model.arrived(3);
    for (let i = 0; i < 3; i++) model.answer(i, `answer to ${model.held[i]!.prompt}`);
    const results = await Promise.all(runs);
    const starts = results.map((events) => events[0] as RunEvent & { type: 'run.start' });
    t.is(new Set(starts.map((s) => s.run_id)).size, 3);
    t.is(new Set(starts.map((s) => s.session?.file)).size, 3);
    t.deepEqual(
      results.map((events) => events.at(-1)).map((end) => (end?.type === 'run.end' ? end.final_text : '')),
      ['answer to task 0', 'answer to task 1', 'answer to task 2'],
    );
  });
}

for (const kind of POOL_KINDS) {
  test(`${kind.name}: modelConcurrency bounds the model requests of all runs on the endpoint: with 2, five runs in flight send two requests at a time`, async (t) => {
    const fixture = agentFixture(t);
    const model = await holdingModel(t);
    const pool = new AgentPool(kind.options(2));
    t.teardown(() => pool.close());
    const endpoints = new ModelEndpoints();
    t.teardown(() => endpoints.close());
    const plan = await prepareRun({
      reference: fixture.agent,
      cwd: fixture.ws,
      yes: true,
      env: env(model.base),
      stateDirectory: fixture.state,
      confine: 'off',
      model: 'gpt-4.1',
      modelConcurrency: 2,
      modelEndpoints: endpoints,
    });
    const [endpoint] = endpoints.list();
    t.is(endpoint?.limiter.limit, 2, 'the plan configured its endpoint in the registry it was given');
    const runs = [0, 1, 2, 3, 4].map((i) => collect(executeRun(plan, { prompt: `task ${i}`, pool })));
    await model.arrived(2);
    t.is(endpoint?.limiter.held, 2);
    t.deepEqual(pool.load, { inFlight: 5, queued: 0 }, 'all five runs are in flight; their model requests wait for the endpoint');
    t.is(model.held.length, 2);
    model.answer(0, 'done');
    await model.arrived(3);
    t.is(model.held.length, 3, 'one finished request lets exactly one more in');
    model.answer(1, 'done');
    await model.arrived(4);
    model.answer(2, 'done');
    await model.arrived(5);
    t.is(model.held.length, 5);
    model.answer(3, 'done');
    model.answer(4, 'done');
    const statuses = (await Promise.all(runs)).map((events) => events.at(-1)).map((end) => (end?.type === 'run.end' ? end.status : end?.type));
    t.deepEqual(statuses, Array(5).fill('completed'));
    t.is(model.peakHeld(), 2, 'never more than two requests waited at the model at once');
  });
}

test('maxRuns and maxThreads and processes must be whole numbers of at least 1', (t) => {
  t.throws(() => new AgentPool({ maxRuns: 0 }), { code: 'ZB_OPTION_INVALID' } as never);
  t.throws(() => new AgentPool({ maxRuns: 1.5 }), { code: 'ZB_OPTION_INVALID' } as never);
  t.throws(() => new AgentPool({ maxThreads: 0 }), { code: 'ZB_OPTION_INVALID' } as never);
  t.throws(() => new AgentPool({ processes: 0 }), { code: 'ZB_OPTION_INVALID' } as never);
  t.throws(() => new AgentPool({ processes: 2.5 }), { code: 'ZB_OPTION_INVALID' } as never);
});
