// A run's conversation is bounded by its model's context window (issue 11 §3):
// a request that could not fit the window is never sent, and the run says why.
import test from 'ava';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { agentFixture, openaiStream, run, serve } from '../../fixtures/model-servers.js';

test('a model with a 1,000-token window: the request carrying a 10 KB file is not sent, and the run fails with ZB_MODEL_CONTEXT_EXCEEDED', async (t) => {
  const fixture = agentFixture(t);
  writeFileSync(path.join(fixture.ws, 'big.txt'), 'word '.repeat(2_000));
  const server = await serve(t, (_body, _req, res) => openaiStream(res, { tool: { name: 'read', input: { path: 'big.txt' } } }, 1));
  mkdirSync(fixture.state, { recursive: true });
  writeFileSync(path.join(fixture.state, 'models.json'), JSON.stringify({ models: [{ id: 'tiny-window', provider: 'openai', base_url: server.base, context_window: 1_000 }] }));
  const events = await run({
    reference: fixture.agent,
    cwd: fixture.ws,
    prompt: 'read big.txt',
    yes: true,
    env: { OPENAI_API_KEY: 'k' },
    stateDirectory: fixture.state,
    confine: 'off',
    model: 'tiny-window',
  });
  t.like(events.at(-1), { type: 'run.end', status: 'failed', error: { code: 'ZB_MODEL_CONTEXT_EXCEEDED' } });
  t.is(server.requests.length, 1, 'the first request fit; the one with the file was never sent');
  t.true(
    events.some((e) => e.type === 'tool.result' && e.ok),
    'the read itself was allowed and ran',
  );
});
