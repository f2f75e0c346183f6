// Cost prints one way on every surface (issue 27 §6), each checked on real output:
// the run summary, the eval list and line reporters, the Markdown and HTML reports,
// the --max-cost message, and `zotbox models list`. The format itself is pinned in
// test/host/models/format-cost.test.ts; here each surface must print exactly it.
import test, { type ExecutionContext } from 'ava';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { progressLine } from '../../src/cli/eval-text.js';
import type { EvalReport } from '../../src/host/eval/eval-report.js';
import { runCliCaptured } from '../fixtures/cli-harness.js';
import { evalWorld, writeSuite, writeTranscript, type EvalWorld } from '../fixtures/eval-world.js';
import { openaiStream, serve } from '../fixtures/model-servers.js';

/**
 * A loopback OpenAI server answering "hello" with 100 tokens in and 20 out, and three models on it:
 * `cheap` (100 in, 200 out per million: $0.0140 a run), `pricey` (10,000 in, 1,725 out: $1.0345) and `free` (no prices).
 */
async function pricedWorld(t: ExecutionContext): Promise<{ world: EvalWorld; env: Record<string, string> }> {
  const world = evalWorld(t);
  const server = await serve(t, (_body, _req, res) => openaiStream(res, { text: 'hello' }, 0));
  const entry = (id: string, prices?: object) => ({ id, provider: 'openai', base_url: `${server.base}/v1`, context_window: 100_000, ...(prices === undefined ? {} : { prices }) });
  writeFileSync(path.join(world.state, 'models.json'), JSON.stringify({ models: [entry('cheap', { input: 100, output: 200 }), entry('pricey', { input: 10_000, output: 1725 }), entry('free')] }));
  return { world, env: { ZOTBOX_HOME: world.state, ZOTBOX_AGENT_CONSENT: '1', OPENAI_API_KEY: 'k' } };
}

const lastLine = (text: string) => text.trimEnd().split('\n').at(-1) ?? '';

test('run summary: the cost of a priced run, two decimals from $1, "no price" for a replay', async (t) => {
  const { world, env } = await pricedWorld(t);
  const run = (...more: string[]) => runCliCaptured(['run', world.agent, 'hi', '--cwd', world.suites, '-y', '--no-session', '--confine', 'off', ...more], { env, cwd: world.root });
  const cheap = await run('--model', 'cheap');
  t.is(cheap.status, 0, cheap.stderr);
  t.regex(lastLine(cheap.stdout), / · \$0\.0140$/);
  const pricey = await run('--model', 'pricey');
  t.regex(lastLine(pricey.stdout), / · \$1\.03$/);
  const replay = await run('--replay', path.join(world.suites, writeTranscript(world, 'r', [{ text: 'hello' }])));
  t.regex(lastLine(replay.stdout), / · no price$/);
});

test('eval list, Markdown and HTML reports, and the --max-cost message print the one format', async (t) => {
  const { world, env } = await pricedWorld(t);
  const suite = writeSuite(world, 's', {
    model: 'cheap',
    cases: [
      { id: 'a', prompt: 'p', expect: [{ text_contains: 'hello' }] },
      { id: 'b', prompt: 'p' },
    ],
  });
  const out = path.join(world.root, 'out');
  const result = await runCliCaptured(['eval', suite, '--max-runs', '1', '--max-cost', '0.01', '--confine', 'off', '--reporter', `list,json=${out}/r.json,markdown=${out}/r.md,html=${out}/r.html`], {
    env,
    cwd: world.root,
  });
  t.is(result.status, 1, result.stdout + result.stderr);
  const report = JSON.parse(readFileSync(path.join(out, 'r.json'), 'utf8')) as EvalReport;
  t.is(report.cases[0]?.runs[0]?.cost_usd, 0.014);
  const cap = 'the --max-cost cap of $0.0100 was reached ($0.0140 spent)';
  t.is(report.cases[1]?.not_run_reason, cap);
  // list: the case's row, the totals line, and the reason b did not run.
  t.regex(result.stdout, /^✔ s\/a +passed +1\/1 +1 +120 +\$0\.0140$/m);
  t.regex(result.stdout, /^FAILED: .* · 120 tokens · \$0\.0140 · /m);
  t.true(result.stdout.includes(cap), result.stdout);
  const markdown = readFileSync(path.join(out, 'r.md'), 'utf8');
  // Markdown escapes "$" (two on a line are math on GitHub), as it does "(" and ")": GitHub shows "$0.0140".
  t.true(markdown.includes('| a | ✅ passed | 1/1 (threshold 100%) | 1 | 120 | \\$0.0140 |'), markdown);
  t.regex(markdown, /out · \\\$0\.0140 · /);
  t.true(markdown.includes(cap.replace(/[()$]/g, '\\$&')), markdown);
  const html = readFileSync(path.join(out, 'r.html'), 'utf8');
  t.regex(html, /<td>120<\/td><td>\$0\.0140<\/td>/);
  t.regex(html, /tokens<\/span><span>\$0\.0140<\/span>/);
  t.regex(html, /<h4>Usage and cost<\/h4><p>[^<]* · \$0\.0140<\/p>/);
});

test('eval line reporter and reports of an unpriced eval say "no price", never $0', async (t) => {
  const { world, env } = await pricedWorld(t);
  const replay = writeTranscript(world, 'r', [{ text: 'hello' }]);
  const suite = writeSuite(world, 's', { cases: [{ id: 'a', prompt: 'p', replay, expect: [{ text_contains: 'hello' }] }] });
  const out = path.join(world.root, 'out');
  const result = await runCliCaptured(['eval', suite, '--confine', 'off', '--reporter', `line,markdown=${out}/r.md,html=${out}/r.html`], { env, cwd: world.root });
  t.is(result.status, 0, result.stdout + result.stderr);
  t.regex(lastLine(result.stdout), /^PASSED: .* tokens · no price · /);
  const markdown = readFileSync(path.join(out, 'r.md'), 'utf8');
  t.regex(markdown, /\| no price \|$/m);
  t.regex(markdown, /out · no price · /);
  const html = readFileSync(path.join(out, 'r.html'), 'utf8');
  t.regex(html, /tokens<\/span><span>no price<\/span>/);
  t.false(/\$0\.0000/.test(result.stdout + markdown + html), 'no $0 for an unknown cost');
});

test('eval progress line: the cost of the runs ended so far', (t) => {
  const counts = { done: 2, total: 3, passed: 2, failed: 0, errors: 0, elapsedMs: 1500 };
  t.is(progressLine({ ...counts, costs: [0.007, 0.007] }), '2/3 cases · 2 passed · 0 failed · 1.5 s · $0.0140');
  t.is(progressLine({ ...counts, costs: [0.007, null] }), '2/3 cases · 2 passed · 0 failed · 1.5 s · $0.0070 + no price');
});

test('models list: prices per million tokens in the one format, "no price" for a model without', async (t) => {
  const { world, env } = await pricedWorld(t);
  const result = await runCliCaptured(['models', 'list'], { env, cwd: world.root });
  t.is(result.status, 0, result.stderr);
  t.regex(result.stdout, /^ID {2}PROVIDER {2}CONTEXT {2}CAPABILITIES {2}BASE_URL {2}KEY {2}PRICE_PER_MTOK {2}SOURCE$/m);
  t.regex(result.stdout, /^claude-sonnet-4-5 .* {2}\$3\.00 in\/\$15\.00 out {2}built in$/m);
  t.regex(result.stdout, /^gpt-4\.1-mini .* {2}\$0\.4000 in\/\$1\.60 out {2}built in$/m);
  t.regex(result.stdout, /^free .*OPENAI_API_KEY set {2}no price {2}\//m);
  const json = JSON.parse((await runCliCaptured(['models', 'list', '--json'], { env, cwd: world.root })).stdout) as { models: { id: string; prices: unknown }[] };
  t.deepEqual(json.models.find((m) => m.id === 'cheap')?.prices, { input: 100, output: 200, cache_write: 100, cache_read: 100 });
  t.is(json.models.find((m) => m.id === 'free')?.prices, null);
});
