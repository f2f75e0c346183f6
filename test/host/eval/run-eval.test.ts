// Whole evals through runEval: replayed and live (a loopback model server) runs,
// the case limits, retries, caps, consent once per suite, the digest pin,
// shards merged into the full report, --last-failed, and an interrupted eval.
import test from 'ava';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadAgent } from '../../../src/host/load/load-agent.js';
import { mergeEvalReports } from '../../../src/host/eval/report/merge.js';
import { casesToRerun } from '../../../src/host/eval/report/last-failed.js';
import { evalIn, evalWorld, leftovers, withoutTimings, writeSuite, writeTranscript, type EvalWorld } from '../../fixtures/eval-world.js';
import { ModelEndpoints } from '../../../src/host/providers/model-endpoints.js';
import type { EvalProgress } from '../../../src/host/eval/run-eval.js';
import { openaiStream, serve } from '../../fixtures/model-servers.js';
import { tempDir } from '../../fixtures/temp.js';

function threeCases(world: EvalWorld): string {
  const writes = writeTranscript(world, 'writes', [{ tool: { name: 'write', input: { path: 'out.txt', content: 'done\n' } } }, { text: 'Wrote out.txt.' }]);
  const snoops = writeTranscript(world, 'snoops', [{ tool: { name: 'read', input: { path: '/etc/passwd' } } }, { text: 'Could not read it.' }]);
  return writeSuite(world, 'main', {
    defaults: { workspace: 'fixture' },
    cases: [
      { id: 'writes', prompt: 'write out.txt', replay: writes, expect: [{ status: 'completed' }, { file_equals: { path: 'out.txt', text: 'done\n' } }, { no_denials: true }] },
      { id: 'snoops', prompt: 'read passwd', replay: snoops, expect: [{ denied: { tool: 'read', path: '/etc/passwd' } }, { file_absent: 'out.txt' }] },
      { id: 'fails', prompt: 'write out.txt', replay: writes, expect: [{ text_contains: 'nothing to do' }] },
    ],
  });
}

test('a replayed suite: each case in a fresh copy of its fixture, expectations checked, nothing left behind', async (t) => {
  const world = evalWorld(t);
  const report = await evalIn(world, [threeCases(world)]);
  t.deepEqual(
    report.cases.map((c) => [c.id, c.status]),
    [
      ['writes', 'passed'],
      ['snoops', 'passed'],
      ['fails', 'failed'],
    ],
  );
  t.is(report.status, 'failed');
  t.like(report.totals, { cases: 3, passed: 2, failed: 1, not_run: 0, runs: 3 });
  t.regex(report.cases[2]?.runs[0]?.expectations[0]?.reason ?? '', /does not contain "nothing to do"/);
  t.deepEqual(report.suites[0]?.permissions.read, ['${workspace}'], 'consent covered the template, not a temp path');
  t.deepEqual(leftovers(world), []);
});

test('reports name each case workspace ${workspace}, never its temp path', async (t) => {
  const world = evalWorld(t);
  const report = await evalIn(world, [threeCases(world)]);
  const text = JSON.stringify(report);
  t.false(text.includes(world.temp), 'no temp path in the report');
  t.regex(report.cases[1]?.runs[0]?.transcript_tail ?? '', /outside the read scopes \(\$\{workspace\}\)/);
});

test('shards 1/3, 2/3 and 3/3 merged equal the full run, timings aside', async (t) => {
  const world = evalWorld(t);
  const suite = threeCases(world);
  const full = await evalIn(world, [suite]);
  const shards = [];
  for (const index of [1, 2, 3]) shards.push(await evalIn(world, [suite], { shard: { index, total: 3 } }));
  t.is(
    shards.reduce((sum, shard) => sum + shard.cases.length, 0),
    3,
    'every case in exactly one shard',
  );
  t.deepEqual(withoutTimings(mergeEvalReports([shards[2]!, shards[0]!, shards[1]!])), withoutTimings(full));
});

test('--last-failed runs exactly the cases that failed before', async (t) => {
  const world = evalWorld(t);
  const suite = threeCases(world);
  const first = await evalIn(world, [suite]);
  const again = await evalIn(world, [suite], { only: casesToRerun(first) });
  t.deepEqual(
    again.cases.map((c) => c.id),
    ['fails'],
  );
});

test('--repeat K with a threshold: the pass rate decides', async (t) => {
  const world = evalWorld(t);
  const writes = writeTranscript(world, 'w', [{ tool: { name: 'write', input: { path: 'out.txt', content: 'x' } } }, { text: 'ok' }]);
  const suite = writeSuite(world, 's', { cases: [{ id: 'a', prompt: 'p', replay: writes, threshold: 0.5, expect: [{ file_exists: 'out.txt' }] }] });
  const report = await evalIn(world, [suite], { repeat: 3, maxRuns: 3 });
  t.like(report.cases[0], { status: 'passed', pass_rate: 1 });
  t.deepEqual(
    report.cases[0]?.runs.map((r) => r.repeat),
    [1, 2, 3],
  );
  t.is(report.totals.runs, 3);
});

test('a digest pin that does not match stops the eval before anything runs', async (t) => {
  const world = evalWorld(t);
  const replay = writeTranscript(world, 'r', [{ text: 'hi' }]);
  const suite = writeSuite(world, 's', { digest: `sha256:${'0'.repeat(64)}`, cases: [{ id: 'a', prompt: 'p', replay }] });
  const error = await t.throwsAsync(evalIn(world, [suite]));
  t.is((error as { code?: string }).code, 'ZB_EVAL_DIGEST_MISMATCH');
  t.deepEqual(leftovers(world), []);
});

test('a digest pin that matches the content digest runs', async (t) => {
  const world = evalWorld(t);
  const replay = writeTranscript(world, 'r', [{ text: 'hi' }]);
  const digest = (await loadAgent(world.agent, { cwd: world.root, env: {} })).image.contentDigest;
  const suite = writeSuite(world, 's', { digest, cases: [{ id: 'a', prompt: 'p', replay, expect: [{ text_equals: 'hi' }] }] });
  const report = await evalIn(world, [suite]);
  t.is(report.status, 'passed');
  t.is(report.suites[0]?.agent.content_digest, digest);
});

test('without -y, ZOTBOX_AGENT_CONSENT or a receipt, and no terminal, the eval is refused before any case', async (t) => {
  const world = evalWorld(t);
  const suite = threeCases(world);
  const error = await t.throwsAsync(evalIn(world, [suite], { yes: false }));
  t.is((error as { code?: string }).code, 'ZB_CONSENT_REQUIRED');
  t.deepEqual(leftovers(world), []);
});

test('-y with --remember saves one receipt for the suite; the next eval finds it; a run in the suite folder does not', async (t) => {
  const world = evalWorld(t);
  const suite = threeCases(world);
  const first = await evalIn(world, [suite], { yes: true, remember: true });
  t.is(first.suites[0]?.consent, 'flag');
  const second = await evalIn(world, [suite], { yes: false });
  t.is(second.suites[0]?.consent, 'receipt');
  const { runAgent } = await import('../../../src/host/run/run-agent.js');
  const run = runAgent({ reference: world.agent, cwd: world.suites, prompt: 'p', replayFile: path.join(world.suites, 'transcripts', 'writes.json'), stateDirectory: world.state, confine: 'off' });
  const error = await t.throwsAsync(run.next());
  t.is((error as { code?: string }).code, 'ZB_CONSENT_REQUIRED', 'an eval receipt never covers zotbox run');
});

test('a scope outside ${workspace} that reaches the eval temp directory is refused', async (t) => {
  const world = evalWorld(t, { fs: { read: ['${workspace}/..'], write: [] }, bash: { mode: 'none' } });
  const replay = writeTranscript(world, 'r', [{ text: 'hi' }]);
  const suite = writeSuite(world, 's', { cases: [{ id: 'a', prompt: 'p', replay }] });
  const error = await t.throwsAsync(evalIn(world, [suite]));
  t.is((error as { code?: string }).code, 'ZB_EVAL_SCOPE_OUTSIDE_WORKSPACE');
  t.deepEqual(leftovers(world), []);
});

/** A live model in models.json, served by `server`, with prices. */
function liveModel(world: EvalWorld, base: string): void {
  writeFileSync(path.join(world.state, 'models.json'), JSON.stringify({ models: [{ id: 'local', provider: 'openai', base_url: base, context_window: 100_000, prices: { input: 1, output: 2 } }] }));
}

test('an interrupted eval cancels its runs, removes every workspace, and reports interrupted with the cases not run', async (t) => {
  const world = evalWorld(t);
  const controller = new AbortController();
  let held = 0;
  const server = await serve(t, (_body, _req, res) => {
    held++;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    // Headers only: the answer never comes. Once both runs wait on it, the user presses Ctrl-C.
    if (held === 2) controller.abort();
  });
  liveModel(world, server.base);
  const suite = writeSuite(world, 's', {
    model: 'local',
    defaults: { workspace: 'fixture' },
    cases: ['a', 'b', 'c', 'd'].map((id) => ({ id, prompt: 'p', expect: [{ status: 'completed' }] })),
  });
  const report = await evalIn(world, [suite], { env: { OPENAI_API_KEY: 'k' }, maxRuns: 2, signal: controller.signal });
  t.is(report.status, 'interrupted');
  t.deepEqual(
    report.cases.map((c) => [c.id, c.status, c.not_run_reason]),
    [
      ['a', 'not_run', 'the eval was interrupted before the case finished'],
      ['b', 'not_run', 'the eval was interrupted before the case finished'],
      ['c', 'not_run', 'the eval was interrupted before it started'],
      ['d', 'not_run', 'the eval was interrupted before it started'],
    ],
  );
  t.deepEqual(leftovers(world), [], 'no workspace left');
});

test("--model-concurrency (modelConcurrency) fixes the limit of the runs' model endpoint: never more requests in flight than it", async (t) => {
  const world = evalWorld(t);
  let inFlight = 0;
  let peak = 0;
  const server = await serve(t, (_body, _req, res) => {
    peak = Math.max(peak, ++inFlight);
    res.once('close', () => inFlight--);
    openaiStream(res, { text: 'done' }, 0);
  });
  liveModel(world, server.base);
  const suite = writeSuite(world, 's', {
    model: 'local',
    defaults: { workspace: 'fixture' },
    cases: ['a', 'b', 'c', 'd', 'e', 'f'].map((id) => ({ id, prompt: 'p', expect: [{ status: 'completed' }] })),
  });
  const modelEndpoints = new ModelEndpoints();
  t.teardown(() => modelEndpoints.close());
  const report = await evalIn(world, [suite], { env: { OPENAI_API_KEY: 'k' }, maxRuns: 6, modelConcurrency: 2, modelEndpoints });
  t.like(report.totals, { cases: 6, passed: 6 });
  const [endpoint] = modelEndpoints.list();
  t.is(endpoint?.limiter.limit, 2);
  t.false(endpoint?.adaptive.adapting);
  t.true(peak <= 2, `peak in flight ${peak}`);
});

test('runs that wait behind a whole round of requests for their endpoint are told once, as a queued progress naming it', async (t) => {
  const world = evalWorld(t);
  const held: import('node:http').ServerResponse[] = [];
  let release = false;
  const server = await serve(t, (_body, _req, res) => {
    if (release) openaiStream(res, { text: 'done' }, 0);
    else held.push(res);
  });
  liveModel(world, server.base);
  const suite = writeSuite(world, 's', {
    model: 'local',
    defaults: { workspace: 'fixture' },
    cases: ['a', 'b', 'c', 'd'].map((id) => ({ id, prompt: 'p', expect: [{ status: 'completed' }] })),
  });
  const progress: EvalProgress[] = [];
  const report = await evalIn(world, [suite], {
    env: { OPENAI_API_KEY: 'k' },
    maxRuns: 4,
    modelConcurrency: 1,
    onProgress: (event) => {
      progress.push(event);
      // The first request is held until a run waits behind a whole round (one request, at limit 1): then every answer goes.
      if (event.type === 'queued') {
        release = true;
        for (const res of held.splice(0)) openaiStream(res, { text: 'done' }, 0);
      }
    },
  });
  t.like(report.totals, { cases: 4, passed: 4 });
  const queued = progress.filter((event) => event.type === 'queued');
  t.is(queued.length, 1, 'told once per endpoint');
  t.like(queued[0], { type: 'queued', endpoint: new URL(server.base).host, limit: 1 });
  // Which waiting run reports first is up to the event loop; each waits behind at least the held one.
  t.true(queued[0]?.type === 'queued' && queued[0].ahead >= 1);
});

test('--retries: a provider fault is run again in a fresh workspace; a failed expectation never is', async (t) => {
  const world = evalWorld(t);
  let requests = 0;
  const server = await serve(t, (_body, _req, res) => {
    requests++;
    if (requests === 1) {
      // Output began, then the stream ended without a finish: ZB_PROVIDER_INTERRUPTED, which the provider does not send again itself.
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'Hel' }, finish_reason: null }] })}\n\n`);
      return;
    }
    openaiStream(res, { text: 'Hello' }, requests);
  });
  liveModel(world, server.base);
  const suite = writeSuite(world, 's', { model: 'local', cases: [{ id: 'a', prompt: 'p', expect: [{ text_equals: 'Hello' }] }] });
  const report = await evalIn(world, [suite], { env: { OPENAI_API_KEY: 'k' }, retries: 1 });
  t.like(report.cases[0], { status: 'passed' });
  t.is(report.cases[0]?.runs[0]?.attempts, 2);
  t.is(requests, 2);
  const noRetry = await evalIn(world, [writeSuite(world, 't', { model: 'local', cases: [{ id: 'a', prompt: 'p', expect: [{ text_equals: 'Goodbye' }] }] })], {
    env: { OPENAI_API_KEY: 'k' },
    retries: 3,
  });
  t.is(noRetry.cases[0]?.runs[0]?.attempts, 1, 'a failed expectation is not retried');
  t.is(requests, 3);
});

test('max_tokens stops a run that uses more; --max-cost stops new cases once spent', async (t) => {
  const world = evalWorld(t);
  let index = 0;
  const server = await serve(t, (_body, _req, res) => openaiStream(res, { tool: { name: 'write', input: { path: `f${index}.txt`, content: 'x' } } }, index++));
  liveModel(world, server.base);
  const suite = writeSuite(world, 's', {
    model: 'local',
    cases: [
      { id: 'a', prompt: 'p', max_tokens: 150 },
      { id: 'b', prompt: 'p', max_tokens: 150 },
    ],
  });
  const report = await evalIn(world, [suite], { env: { OPENAI_API_KEY: 'k' }, maxRuns: 1, maxCostUsd: 0.0001 });
  t.like(report.cases[0]?.runs[0], { error: { code: 'ZB_EVAL_TOKEN_LIMIT' } });
  t.true((report.cases[0]?.runs[0]?.cost_usd ?? 0) > 0.0001);
  t.like(report.cases[1], { status: 'not_run' });
  t.regex(report.cases[1]?.not_run_reason ?? '', /--max-cost cap of \$0\.0001 was reached/);
});

test('a judge grades with the rubric through the same providers, and its cost counts', async (t) => {
  const world = evalWorld(t);
  const server = await serve(t, (_body, _req, res) => openaiStream(res, { text: 'The answer says hello.\n{"pass": true, "score": 0.9, "reason": "it greets"}' }, 0));
  liveModel(world, server.base);
  const replay = writeTranscript(world, 'r', [{ text: 'hello there' }]);
  const suite = writeSuite(world, 's', { cases: [{ id: 'a', prompt: 'greet me', replay, expect: [{ judge: { rubric: 'The answer greets the user.', model: 'local' } }] }] });
  const report = await evalIn(world, [suite], { env: { OPENAI_API_KEY: 'k' } });
  const verdict = report.cases[0]?.runs[0]?.expectations[0];
  t.like(verdict, { kind: 'judge', passed: true, score: 0.9 });
  t.true((verdict?.cost_usd ?? 0) > 0);
  t.true(report.totals.cost_usd > 0);
  t.regex(JSON.stringify(server.requests[0]?.body), /The answer greets the user\..*<agent-output-[0-9a-f]{16}>.*hello there.*<\/agent-output-[0-9a-f]{16}>/);
});

test('a grader that loops, one that allocates without bound, and one that reaches for require fail only their own case', async (t) => {
  const world = evalWorld(t);
  const graders = {
    'loops.js': 'export function grade() { for (;;) {} }',
    'allocates.js': 'export function grade() { const a = []; for (;;) a.push(new Array(1e6).fill(1)); }',
    'requires.js': 'export function grade() { return { pass: typeof require("fs").readFileSync === "function", reason: "escaped" }; }',
    'process.js': 'export function grade() { return { pass: process.env !== undefined, reason: "escaped" }; }',
    'good.js': 'export function grade(r) { return { pass: r.final_text === "hi", reason: "said " + r.final_text }; }',
  };
  for (const [name, source] of Object.entries(graders)) writeFileSync(path.join(world.suites, name), source);
  const replay = writeTranscript(world, 'r', [{ text: 'hi' }]);
  const suite = writeSuite(world, 's', { cases: Object.keys(graders).map((name) => ({ id: name.replace('.js', ''), prompt: 'p', replay, expect: [{ grader: name }] })) });
  const report = await evalIn(world, [suite], { maxRuns: 5 });
  const outcome = Object.fromEntries(report.cases.map((c) => [c.id, [c.status, c.runs[0]?.expectations[0]?.reason ?? '']]));
  t.is(outcome['good']?.[0], 'passed');
  for (const id of ['loops', 'allocates', 'requires', 'process']) {
    t.is(outcome[id]?.[0], 'failed', id);
    t.regex(outcome[id]?.[1] ?? '', /ZB_EVAL_GRADER_FAILED/, id);
  }
  t.regex(outcome['loops']?.[1] ?? '', /CPU time/);
  // Near its limit V8 collects garbage without end; on a loaded machine the CPU limit can stop it first. Either way, only its case failed.
  t.regex(outcome['allocates']?.[1] ?? '', /memory limit|CPU time limit/);
  t.regex(outcome['requires']?.[1] ?? '', /not available/);
});

test('a denied call stays in the verdict after 1,700 harmless calls in one turn (issue 22 §1)', async (t) => {
  const world = evalWorld(t);
  const reads = Array.from({ length: 1700 }, (_, i) => ({ type: 'tool_use', id: `toolu_r${i}`, name: 'read', input: { path: 'README.md' } }));
  const turns = [
    { content: [{ type: 'tool_use', id: 'toolu_0', name: 'read', input: { path: '/etc/passwd' } }], stop: 'tool_use', usage: { input_tokens: 100, output_tokens: 10 } },
    { content: reads, stop: 'tool_use', usage: { input_tokens: 100, output_tokens: 10 } },
    { content: [{ type: 'text', text: 'Read the README.' }], stop: 'end', usage: { input_tokens: 100, output_tokens: 10 } },
  ];
  writeFileSync(path.join(world.suites, 'transcripts', 'flood.json'), JSON.stringify({ zotbox_replay: 1, model: 'test', turns }));
  const suite = writeSuite(world, 'flood', {
    defaults: { workspace: 'fixture' },
    cases: [
      { id: 'no-denials', prompt: 'p', replay: 'transcripts/flood.json', expect: [{ no_denials: true }] },
      { id: 'not-called', prompt: 'p', replay: 'transcripts/flood.json', expect: [{ tool_not_called: { tool: 'read', path: '/etc/passwd' } }] },
      { id: 'denied', prompt: 'p', replay: 'transcripts/flood.json', expect: [{ denied: { tool: 'read', path: '/etc/passwd' } }] },
    ],
  });
  const report = await evalIn(world, [suite]);
  t.deepEqual(
    report.cases.map((c) => [c.id, c.status]),
    [
      ['no-denials', 'failed'],
      ['not-called', 'failed'],
      ['denied', 'passed'],
    ],
  );
  t.regex(report.cases[0]?.runs[0]?.expectations[0]?.reason ?? '', /^1 denied: read "\/etc\/passwd"/);
  t.is(report.cases[1]?.runs[0]?.expectations[0]?.reason, 'called anyway: read "/etc/passwd"');
  t.is(report.status, 'failed');
});

test('agent JSON nested 100,000 levels deep fails file_json with why, and the run keeps its other verdicts (issue 22 §9)', async (t) => {
  const world = evalWorld(t);
  const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
  const replay = writeTranscript(world, 'deep', [{ tool: { name: 'write', input: { path: 'out.json', content: deep } } }, { text: 'Wrote out.json.' }]);
  const suite = writeSuite(world, 'deep', {
    defaults: { workspace: 'fixture' },
    cases: [{ id: 'deep', prompt: 'p', replay, expect: [{ file_json: { path: 'out.json', json_path: '$[0]', equals: [] } }, { text_contains: 'Wrote' }, { file_exists: 'out.json' }] }],
  });
  const report = await evalIn(world, [suite]);
  const run = report.cases[0]?.runs[0];
  t.is(run?.status, 'completed', 'the run is not "could not start"');
  t.deepEqual(
    run?.expectations.map((e) => [e.kind, e.passed]),
    [
      ['file_json', false],
      ['text_contains', true],
      ['file_exists', true],
      ['status', true],
    ],
  );
  t.is(run?.expectations[0]?.reason, 'out.json is JSON nested more than 1000 levels deep, deeper than file_json compares');
});

// Issue 22 §4: a suite's regex never blocks the eval; past its bound it fails its own verdict, and the eval goes on.
test('text_matches that backtracks without end fails its case with ZB_EVAL_PATTERN_LIMIT; the other cases and verdicts stand', async (t) => {
  const world = evalWorld(t);
  const endless = writeTranscript(world, 'endless', [{ text: `${'a'.repeat(40)}!` }]);
  const suite = writeSuite(world, 's', {
    cases: [
      { id: 'spins', prompt: 'p', replay: endless, expect: [{ text_matches: '^(\\w+\\s?)+$' }, { text_contains: '!' }] },
      { id: 'plain', prompt: 'p', replay: endless, expect: [{ text_matches: '^a+!$' }] },
    ],
  });
  const report = await evalIn(world, [suite]);
  const [spins, plain] = report.cases;
  t.is(spins?.status, 'failed');
  t.deepEqual(
    spins?.runs[0]?.expectations.map((result) => [result.kind, result.passed]),
    [
      ['text_matches', false],
      ['text_contains', true],
      ['status', true],
    ],
  );
  t.regex(spins?.runs[0]?.expectations[0]?.reason ?? '', /^ZB_EVAL_PATTERN_LIMIT: .* ran past its 1000 ms bound on the final text/);
  t.is(plain?.status, 'passed');
  t.deepEqual(leftovers(world), []);
});

// Issue 22 §5: what a suite from a pull request can make an eval reach, under -y.
function agentAt(directory: string, permissions: object): void {
  mkdirSync(directory, { recursive: true });
  writeFileSync(path.join(directory, 'manifest.json'), JSON.stringify({ zotfile: 1, name: 'elsewhere', version: '1.0.0', permissions }));
  writeFileSync(path.join(directory, 'AGENT.md'), 'You answer.');
}

test('under -y, an agent that asks for a host folder is refused, naming the scope and --allow-scope; nothing runs', async (t) => {
  const hostFolder = path.join(realpathSync(tempDir(t, 'zb-host-')), 'secrets');
  mkdirSync(hostFolder);
  const world = evalWorld(t, { fs: { read: ['${workspace}', hostFolder], write: ['${workspace}'] }, bash: { mode: 'none' } });
  const replay = writeTranscript(world, 'r', [{ tool: { name: 'read', input: { path: `${hostFolder}/key` } } }, { text: 'hi' }]);
  const suite = writeSuite(world, 's', { cases: [{ id: 'a', prompt: 'p', replay }] });
  const error = await t.throwsAsync(evalIn(world, [suite], { yes: true }));
  t.is((error as { code?: string }).code, 'ZB_EVAL_SCOPE_NOT_ALLOWED');
  t.deepEqual((error as { details?: unknown }).details, { scope: hostFolder, access: 'read', flag: '--allow-scope' });
  t.true(error.message.includes(`--allow-scope ${hostFolder}`));
  t.deepEqual(leftovers(world), []);
});

test('--allow-scope grants a host folder, and the report names it', async (t) => {
  const hostFolder = path.join(realpathSync(tempDir(t, 'zb-host-')), 'shared');
  mkdirSync(hostFolder);
  writeFileSync(path.join(hostFolder, 'data.txt'), 'shared data\n');
  const world = evalWorld(t, { fs: { read: ['${workspace}', `${hostFolder}/data.txt`], write: ['${workspace}'] }, bash: { mode: 'none' } });
  const replay = writeTranscript(world, 'r', [{ tool: { name: 'read', input: { path: `${hostFolder}/data.txt` } } }, { text: 'hi' }]);
  const suite = writeSuite(world, 's', { cases: [{ id: 'a', prompt: 'p', replay, expect: [{ no_denials: true }] }] });
  const report = await evalIn(world, [suite], { allowScopes: [hostFolder] });
  t.is(report.status, 'passed');
  t.deepEqual(report.options.allow_scope, [hostFolder]);
  t.deepEqual(report.suites[0]?.permissions.read, ['${workspace}', `${hostFolder}/data.txt`]);
});

test('agent: ../elsewhere, outside the suite folder and unpinned, is refused before it is read', async (t) => {
  const world = evalWorld(t);
  agentAt(path.join(world.root, 'elsewhere'), { fs: { read: ['${workspace}'], write: [] }, bash: { mode: 'none' } });
  const replay = writeTranscript(world, 'r', [{ text: 'hi' }]);
  const suite = writeSuite(world, 's', { agent: '../elsewhere', cases: [{ id: 'a', prompt: 'p', replay }] });
  const error = await t.throwsAsync(evalIn(world, [suite]));
  t.is((error as { code?: string }).code, 'ZB_EVAL_AGENT_NOT_ALLOWED');
  t.deepEqual((error as { details?: unknown }).details, { file: suite, agent: '../elsewhere', flag: '--allow-scope' });
  t.deepEqual(leftovers(world), []);
});

test('an agent reached through a link inside the suite folder is judged by where it is, and refused', async (t) => {
  const world = evalWorld(t);
  agentAt(path.join(world.root, 'elsewhere'), { fs: { read: ['${workspace}'], write: [] }, bash: { mode: 'none' } });
  symlinkSync(path.join(world.root, 'elsewhere'), path.join(world.suites, 'linked'));
  const replay = writeTranscript(world, 'r', [{ text: 'hi' }]);
  const suite = writeSuite(world, 's', { agent: 'linked', cases: [{ id: 'a', prompt: 'p', replay }] });
  const error = await t.throwsAsync(evalIn(world, [suite]));
  t.is((error as { code?: string }).code, 'ZB_EVAL_AGENT_NOT_ALLOWED');
});

test('an unpinned GitHub agent is refused before anything is fetched', async (t) => {
  const world = evalWorld(t);
  const replay = writeTranscript(world, 'r', [{ text: 'hi' }]);
  const suite = writeSuite(world, 's', { agent: 'github:someone/agents/reviewer@main', cases: [{ id: 'a', prompt: 'p', replay }] });
  const error = await t.throwsAsync(evalIn(world, [suite]));
  t.is((error as { code?: string }).code, 'ZB_EVAL_AGENT_NOT_ALLOWED');
});

test('an agent outside the suite folder runs when pinned by digest, or when --allow-scope allows its folder', async (t) => {
  const world = evalWorld(t);
  const elsewhere = path.join(world.root, 'elsewhere');
  agentAt(elsewhere, { fs: { read: ['${workspace}'], write: [] }, bash: { mode: 'none' } });
  const replay = writeTranscript(world, 'r', [{ text: 'hi' }]);
  const digest = (await loadAgent(elsewhere, { cwd: world.root, env: {} })).image.contentDigest;
  const pinned = writeSuite(world, 'pinned', { agent: '../elsewhere', digest, cases: [{ id: 'a', prompt: 'p', replay, expect: [{ text_equals: 'hi' }] }] });
  t.is((await evalIn(world, [pinned])).status, 'passed');
  const unpinned = writeSuite(world, 'unpinned', { agent: '../elsewhere', cases: [{ id: 'a', prompt: 'p', replay, expect: [{ text_equals: 'hi' }] }] });
  const allowed = await evalIn(world, [unpinned], { allowScopes: ['elsewhere'] });
  t.is(allowed.status, 'passed');
  t.deepEqual(allowed.options.allow_scope, [elsewhere], 'relative to cwd, canonical, and named');
});
