// --max-cost needs prices (issue 27 §6): an eval whose run model or judge model has
// none is refused before any case starts, with ZB_EVAL_COST_UNKNOWN naming each
// such model and the real models.json path; with prices, the cap works; replays
// spend nothing and need none.
import test from 'ava';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { evalIn, evalWorld, leftovers, writeSuite, writeTranscript, type EvalWorld } from '../../fixtures/eval-world.js';
import { openaiStream, serve } from '../../fixtures/model-servers.js';
import type { ZotboxError } from '../../../src/errors.js';

/** Two models on one loopback server: `priced` with prices, `free` without. */
function models(world: EvalWorld, base: string): void {
  const entry = (id: string, prices?: object) => ({ id, provider: 'openai', base_url: base, context_window: 100_000, ...(prices === undefined ? {} : { prices }) });
  writeFileSync(path.join(world.state, 'models.json'), JSON.stringify({ models: [entry('priced', { input: 1, output: 2 }), entry('free'), entry('free-judge')] }));
}

async function world(t: Parameters<typeof evalWorld>[0]): Promise<{ world: EvalWorld; requests: () => number }> {
  const w = evalWorld(t);
  const server = await serve(t, (_body, _req, res) => openaiStream(res, { text: 'hello\n{"pass": true, "reason": "ok"}' }, 0));
  models(w, server.base);
  return { world: w, requests: () => server.requests.length };
}

const env = { OPENAI_API_KEY: 'k' };

test('--max-cost with a priced run model and judge runs, and counts their cost', async (t) => {
  const { world: w } = await world(t);
  const suite = writeSuite(w, 's', { model: 'priced', cases: [{ id: 'a', prompt: 'p', expect: [{ judge: { rubric: 'greets', model: 'priced' } }] }] });
  const report = await evalIn(w, [suite], { env, maxCostUsd: 5 });
  t.is(report.status, 'passed');
  t.true(report.totals.cost_usd > 0);
});

test('--max-cost with a run model without prices is refused before any case, naming the model and the models.json path', async (t) => {
  const { world: w, requests } = await world(t);
  const suite = writeSuite(w, 's', { model: 'free', cases: [{ id: 'a', prompt: 'p' }] });
  const error = await t.throwsAsync<ZotboxError>(evalIn(w, [suite], { env, maxCostUsd: 5 }));
  t.is(error.code, 'ZB_EVAL_COST_UNKNOWN');
  t.deepEqual(error.details, { models: ['free'], modelsFile: path.join(w.state, 'models.json') });
  t.true(error.message.includes(`free (runs suite s)`));
  t.true(error.message.includes(path.join(w.state, 'models.json')));
  t.is(requests(), 0, 'no model request was sent');
  t.deepEqual(leftovers(w), []);
});

test('--max-cost with a judge model without prices is refused, naming it; a replayed run needs no prices', async (t) => {
  const { world: w, requests } = await world(t);
  const replay = writeTranscript(w, 'r', [{ text: 'hello' }]);
  const suite = writeSuite(w, 's', { cases: [{ id: 'a', prompt: 'p', replay, expect: [{ judge: { rubric: 'greets', model: 'free-judge' } }] }] });
  const error = await t.throwsAsync<ZotboxError>(evalIn(w, [suite], { env, maxCostUsd: 5 }));
  t.is(error.code, 'ZB_EVAL_COST_UNKNOWN');
  t.deepEqual(error.details, { models: ['free-judge'], modelsFile: path.join(w.state, 'models.json') });
  t.true(error.message.includes('free-judge (judges suite s)'));
  t.is(requests(), 0);
});

test('--max-cost names every unpriced model at once, run and judge; --model overrides the suite model', async (t) => {
  const { world: w } = await world(t);
  const suite = writeSuite(w, 's', { model: 'priced', cases: [{ id: 'a', prompt: 'p', expect: [{ judge: { rubric: 'greets', model: 'free-judge' } }] }] });
  const error = await t.throwsAsync<ZotboxError>(evalIn(w, [suite], { env, maxCostUsd: 5, model: 'free' }));
  t.deepEqual(error.details, { models: ['free', 'free-judge'], modelsFile: path.join(w.state, 'models.json') });
});

test('without --max-cost an unpriced model runs as before', async (t) => {
  const { world: w } = await world(t);
  const suite = writeSuite(w, 's', { model: 'free', cases: [{ id: 'a', prompt: 'p', expect: [{ text_contains: 'hello' }] }] });
  const report = await evalIn(w, [suite], { env });
  t.is(report.status, 'passed');
  t.is(report.cases[0]?.runs[0]?.cost_usd, null);
});

test('a replayed suite with --max-cost and no judge runs: nothing spends', async (t) => {
  const { world: w } = await world(t);
  const replay = writeTranscript(w, 'r', [{ text: 'hello' }]);
  const suite = writeSuite(w, 's', { cases: [{ id: 'a', prompt: 'p', replay, expect: [{ text_contains: 'hello' }] }] });
  const report = await evalIn(w, [suite], { env, maxCostUsd: 5 });
  t.is(report.status, 'passed');
});
