// Model requests are taken for at most about 1 ms of each turn of the event loop
// (issue 26, item 2): when many runs' requests arrive in one pass of the loop, the
// loop still turns between them, so the sockets of the requests already taken
// connect and send before the last is built. A turn is counted by a ticker that
// runs once in every check phase; a request's work is made longer than the budget
// by a provider that computes for 2 ms (more on a loaded machine, never less).
import test from 'ava';
import { MessageChannel } from 'node:worker_threads';
import { serveModel } from '../../../src/host/models/model-server.js';
import { takeLoopTurn } from '../../../src/host/models/loop-turns.js';
import type { ModelProvider } from '../../../src/host/providers/provider.js';

/** Counts the turns of the event loop until stopped. */
function loopTurnCounter(): { readonly now: () => number; readonly stop: () => void } {
  let turns = 0;
  let ticking = true;
  const tick = () => {
    turns++;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  return { now: () => turns, stop: () => (ticking = false) };
}

test('callers waiting together are resumed in the order they came', async (t) => {
  const resumed: number[] = [];
  await Promise.all(Array.from({ length: 20 }, (_, caller) => takeLoopTurn().then(() => resumed.push(caller))));
  t.deepEqual(
    resumed,
    Array.from({ length: 20 }, (_, i) => i),
  );
});

test('model requests of 20 runs delivered in one pass of the loop, each longer than the budget, reach the provider in 20 different turns of it', async (t) => {
  const counter = loopTurnCounter();
  const calledInTurn: number[] = [];
  const provider: ModelProvider = {
    model: 'm',
    complete: async () => {
      calledInTurn.push(counter.now());
      const started = performance.now();
      while (performance.now() - started < 2); // a request's own work: building it, checking it, JSON
      return { content: [{ type: 'text', text: 'done' }], stop: 'end', usage: { input_tokens: 1, output_tokens: 1 } };
    },
  };
  const runs = Array.from({ length: 20 }, () => new MessageChannel());
  const servers = runs.map((channel) => serveModel(channel.port1, provider, { onText: () => {}, onTurn: () => {} }, new AbortController().signal));
  const answers = runs.map((channel) => new Promise((resolve) => channel.port2.once('message', resolve)));
  runs.forEach((channel, i) => channel.port2.postMessage({ type: 'model.request', id: i + 1, system: 's', messages: [{ role: 'user', content: [{ type: 'text', text: 'go' }] }], tools: [] }));
  const answered = await Promise.all(answers);
  counter.stop();
  for (const server of servers) server.close();
  for (const channel of runs) channel.port1.close();
  t.true(answered.every((answer) => (answer as { ok?: unknown }).ok === true));
  t.is(new Set(calledInTurn).size, 20, `the provider was called in turns ${calledInTurn.join(', ')}`);
});
