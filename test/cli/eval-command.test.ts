// `zotbox eval` on the command line: exit statuses, reporters (JUnit that parses,
// JSON, Markdown, GitHub), shards and `eval merge`, --last-failed, usage errors,
// and SIGTERM on a real process: runs cancelled, workspaces removed, a partial
// report marked interrupted.
import test from 'ava';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import type { EvalReport } from '../../src/host/eval/eval-report.js';
import { runCliCaptured } from '../fixtures/cli-harness.js';
import { evalWorld, withoutTimings, writeSuite, writeTranscript, type EvalWorld } from '../fixtures/eval-world.js';
import { BIN } from '../fixtures/paths.js';
import { openaiStream, serve } from '../fixtures/model-servers.js';
import { sampleReport, sampleRun } from '../fixtures/eval-reports.js';
import { computeTotals } from '../../src/host/eval/report/totals.js';
import { formatJsonReport } from '../../src/host/eval/report/json-report.js';

function suiteOf(world: EvalWorld): string {
  const writes = writeTranscript(world, 'writes', [{ tool: { name: 'write', input: { path: 'out.txt', content: 'done\n' } } }, { text: 'Wrote out.txt.' }]);
  const snoops = writeTranscript(world, 'snoops', [{ tool: { name: 'read', input: { path: '/etc/passwd' } } }, { text: 'Could not read it.' }]);
  return writeSuite(world, 'main', {
    defaults: { workspace: 'fixture' },
    cases: [
      { id: 'writes', prompt: 'write', replay: writes, expect: [{ file_equals: { path: 'out.txt', text: 'done\n' } }] },
      { id: 'snoops', prompt: 'read', replay: snoops, expect: [{ denied: { tool: 'read', path: '/etc/passwd' } }] },
      { id: 'fails', prompt: 'write', replay: writes, expect: [{ text_contains: 'nothing to do' }, { no_denials: true }] },
      { id: 'also-passes', prompt: 'write', replay: writes, expect: [{ status: 'completed' }] },
    ],
  });
}

const env = (world: EvalWorld, more: Record<string, string> = {}) => ({ ZOTBOX_HOME: world.state, ZOTBOX_AGENT_CONSENT: '1', ...more });
const readReport = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as EvalReport;

test('exit 1 when a case fails; JUnit parses with the right counts; JSON and Markdown written', async (t) => {
  const world = evalWorld(t);
  const out = path.join(world.root, 'out');
  const result = await runCliCaptured(['eval', suiteOf(world), '--confine', 'off', '--reporter', `line,junit=${out}/junit.xml,json=${out}/report.json,markdown=${out}/summary.md`], {
    env: env(world),
    cwd: world.root,
  });
  t.is(result.status, 1, result.stderr);
  t.regex(result.stdout, /✘ main\/fails/);
  t.regex(result.stdout, /FAILED: 3 passed, 1 failed, 0 errors \(infrastructure\), 0 not run · 4 runs/);
  const junit = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(readFileSync(path.join(out, 'junit.xml'), 'utf8')) as {
    testsuites: { tests: string; failures: string; errors: string; skipped: string; testsuite: { name: string; testcase: { name: string; failure?: { message: string } }[] } };
  };
  t.like(junit.testsuites, { tests: '4', failures: '1', errors: '0', skipped: '0' });
  t.is(junit.testsuites.testsuite.name, 'main');
  const failed = junit.testsuites.testsuite.testcase.filter((c) => c.failure !== undefined);
  t.deepEqual(
    failed.map((c) => c.name),
    ['fails'],
  );
  t.regex(failed[0]?.failure?.message ?? '', /text_contains/);
  t.is(readReport(path.join(out, 'report.json')).totals.failed, 1);
  t.regex(readFileSync(path.join(out, 'summary.md'), 'utf8'), /fails/);
});

test('exit 0 when every case passes', async (t) => {
  const world = evalWorld(t);
  const result = await runCliCaptured(['eval', suiteOf(world), '--grep', 'main/(writes|snoops)$', '--confine', 'off', '--reporter', 'line'], { env: env(world), cwd: world.root });
  t.is(result.status, 0, result.stdout + result.stderr);
  t.regex(result.stdout, /PASSED: 2 passed, 0 failed/);
});

test('exit 2 for a suite error, with the code on stderr, and nothing ran', async (t) => {
  const world = evalWorld(t);
  writeFileSync(path.join(world.suites, 'bad.yaml'), 'zotbox_eval: 1\nagent: agent\ncases: [{ id: a, prompt: p, expect: [{ text_startswith: x }] }]\n');
  const result = await runCliCaptured(['eval', path.join(world.suites, 'bad.yaml')], { env: env(world), cwd: world.root });
  t.is(result.status, 2);
  t.regex(result.stderr, /ZB_EVAL_SUITE_INVALID/);
  t.is(result.stdout, '');
});

test('-y does not grant a host folder a suite asks for: exit 2, naming the scope and --allow-scope; with the flag it runs and every reporter names it (issue 22 §5)', async (t) => {
  const world = evalWorld(t, { fs: { read: ['${workspace}', '/usr/share'], write: ['${workspace}'] }, bash: { mode: 'none' } });
  const suite = suiteOf(world);
  const refused = await runCliCaptured(['eval', suite, '-y', '--confine', 'off', '--reporter', 'line'], { env: { ZOTBOX_HOME: world.state }, cwd: world.root });
  t.is(refused.status, 2, refused.stdout);
  t.regex(refused.stderr, /ZB_EVAL_SCOPE_NOT_ALLOWED.*read scope \/usr\/share.*--allow-scope \/usr\/share/);
  const markdown = path.join(world.root, 'out', 'summary.md');
  const report = path.join(world.root, 'out', 'report.json');
  const allowed = await runCliCaptured(['eval', suite, '-y', '--grep', 'main/writes$', '--allow-scope', '/usr/share', '--confine', 'off', '--reporter', `line,json=${report},markdown=${markdown}`], {
    env: { ZOTBOX_HOME: world.state },
    cwd: world.root,
  });
  t.is(allowed.status, 0, allowed.stdout + allowed.stderr);
  t.regex(allowed.stdout, /^Allowed beyond each case's workspace \(--allow-scope\): \/usr\/share$/m);
  t.deepEqual(readReport(report).options.allow_scope, ['/usr/share']);
  t.regex(readFileSync(markdown, 'utf8'), /Allowed beyond each case's workspace \(--allow-scope\):\*\* \/usr\/share/);
});

const usage = test.macro(async (t, args: string[], code: string, message: RegExp) => {
  const world = evalWorld(t);
  const result = await runCliCaptured(['eval', suiteOf(world), ...args], { env: env(world), cwd: world.root });
  t.is(result.status, 2);
  t.regex(result.stderr, new RegExp(code));
  t.regex(result.stderr, message);
});
test('an unknown reporter', usage, ['--reporter', 'tap'], 'ZB_CLI_USAGE', /unknown reporter "tap"/);
test('a file reporter without its file', usage, ['--reporter', 'junit'], 'ZB_CLI_USAGE', /junit=PATH/);
test('list and line together', usage, ['--reporter', 'list,line'], 'ZB_CLI_USAGE', /at most one of list and line/);
test('--max-runs 0', usage, ['--max-runs', '0'], 'ZB_CLI_USAGE', /--max-runs takes a whole number of at least 1/);
test('--processes 0', usage, ['--processes', '0'], 'ZB_CLI_USAGE', /--processes takes a whole number of at least 1/);
test('--model-concurrency 0', usage, ['--model-concurrency', '0'], 'ZB_CLI_USAGE', /--model-concurrency takes a whole number of at least 1/);
test('--max-cost that is no amount', usage, ['--max-cost', '1e3'], 'ZB_CLI_USAGE', /--max-cost/);
test('--shard 4/3', usage, ['--shard', '4/3'], 'ZB_EVAL_SHARD_INVALID', /--shard/);
test('--grep that is no regular expression', usage, ['--grep', '('], 'ZB_CLI_USAGE', /--grep/);

test('--processes N runs the cases on pool processes, in bubblewrap or (with --confine off) not, with the results of worker threads', async (t) => {
  const world = evalWorld(t);
  const suite = suiteOf(world);
  const outcome = async (args: string[]) => {
    const result = await runCliCaptured(['eval', suite, '--reporter', 'line', ...args], { env: env(world), cwd: world.root });
    const lines = result.stdout
      .split('\n')
      .filter((line) => /^[✔✘]/u.test(line))
      .map((line) => line.split('  ')[0])
      .sort();
    return { status: result.status, lines };
  };
  const threads = await outcome(['--confine', 'off']);
  t.true(threads.lines.length > 0, 'the suite has cases');
  t.deepEqual(await outcome(['--confine', 'off', '--processes', '2']), threads);
  t.deepEqual(await outcome(['--processes', '1']), threads);
});

test('shards from --shard and ZOTBOX_SHARD, merged by `eval merge`, equal the whole run; merge renders its reporters', async (t) => {
  const world = evalWorld(t);
  const suite = suiteOf(world);
  const out = path.join(world.root, 'out');
  const whole = await runCliCaptured(['eval', suite, '--confine', 'off', '--reporter', `json=${out}/whole.json`], { env: env(world), cwd: world.root });
  t.is(whole.status, 1);
  for (const index of [1, 2, 3]) {
    const args = index === 2 ? [] : ['--shard', `${index}/3`];
    const shardEnv: Record<string, string> = index === 2 ? { ZOTBOX_SHARD: '2/3' } : {};
    await runCliCaptured(['eval', suite, ...args, '--confine', 'off', '--reporter', `json=${out}/shard-${index}.json`], { env: env(world, shardEnv), cwd: world.root });
    t.deepEqual(readReport(path.join(out, `shard-${index}.json`)).shard, { index, total: 3 });
  }
  const merged = await runCliCaptured(['eval', 'merge', `${out}/shard-3.json`, `${out}/shard-1.json`, `${out}/shard-2.json`, '--reporter', `line,json=${out}/merged.json,junit=${out}/merged.xml`], {
    env: {},
    cwd: world.root,
  });
  t.is(merged.status, 1, merged.stderr);
  t.regex(merged.stdout, /FAILED: 3 passed, 1 failed, 0 errors \(infrastructure\), 0 not run/);
  t.regex(merged.stdout, /^✘ main\/fails {2}0\/1 .*text_contains: final text does not contain "nothing to do"/m, 'merge with the line reporter names the failing case');
  t.deepEqual(withoutTimings(readReport(path.join(out, 'merged.json'))), withoutTimings(readReport(path.join(out, 'whole.json'))));
});

test('merge refuses a set of shards with one missing', async (t) => {
  const world = evalWorld(t);
  const suite = suiteOf(world);
  const out = path.join(world.root, 'out');
  for (const index of [1, 3]) await runCliCaptured(['eval', suite, '--shard', `${index}/3`, '--confine', 'off', '--reporter', `json=${out}/s${index}.json`], { env: env(world), cwd: world.root });
  const merged = await runCliCaptured(['eval', 'merge', `${out}/s1.json`, `${out}/s3.json`], { env: {}, cwd: world.root });
  t.is(merged.status, 2);
  t.regex(merged.stderr, /ZB_EVAL_MERGE_MISMATCH/);
});

test('--last-failed REPORT reruns exactly the failures', async (t) => {
  const world = evalWorld(t);
  const suite = suiteOf(world);
  const out = path.join(world.root, 'out');
  await runCliCaptured(['eval', suite, '--confine', 'off', '--reporter', `json=${out}/first.json`], { env: env(world), cwd: world.root });
  const again = await runCliCaptured(['eval', suite, '--last-failed', `${out}/first.json`, '--confine', 'off', '--reporter', `line,json=${out}/again.json`], { env: env(world), cwd: world.root });
  t.is(again.status, 1);
  t.deepEqual(
    readReport(path.join(out, 'again.json')).cases.map((c) => c.id),
    ['fails'],
  );
});

test('under GitHub Actions: ::error annotations on stdout and the summary appended to $GITHUB_STEP_SUMMARY', async (t) => {
  const world = evalWorld(t);
  const summary = path.join(world.root, 'step-summary.md');
  writeFileSync(summary, 'earlier step\n');
  const result = await runCliCaptured(['eval', suiteOf(world), '--confine', 'off', '--reporter', 'line'], {
    env: env(world, { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary }),
    cwd: world.root,
  });
  t.is(result.status, 1);
  const annotations = result.stdout.split('\n').filter((line) => line.startsWith('::'));
  t.is(annotations.length, 1);
  t.regex(annotations[0] ?? '', /^::error .*main \/ fails/);
  const written = readFileSync(summary, 'utf8');
  t.true(written.startsWith('earlier step\n'), 'appended, never truncated');
  t.regex(written, /fails/);
});

test('SIGTERM stops a real eval cleanly: exit 143 (128 + 15), no workspace left, a report marked interrupted', async (t) => {
  const world = evalWorld(t);
  const arrived: (() => void)[] = [];
  let requests = 0;
  const server = await serve(t, (_body, _req, res) => {
    requests++;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    arrived.shift()?.();
  });
  writeFileSync(path.join(world.state, 'models.json'), JSON.stringify({ models: [{ id: 'local', provider: 'openai', base_url: server.base, context_window: 100_000 }] }));
  const suite = writeSuite(world, 's', { model: 'local', cases: ['a', 'b'].map((id) => ({ id, prompt: 'p' })) });
  const tmp = path.join(world.root, 'process-tmp');
  mkdirSync(tmp);
  const report = path.join(world.root, 'out', 'report.json');
  const firstRequest = new Promise<void>((resolve) => arrived.push(resolve));
  const child = spawn(process.execPath, [BIN, 'eval', suite, '--max-runs', '1', '--confine', 'off', '--reporter', `line,json=${report}`], {
    env: { PATH: process.env['PATH'] ?? '', TMPDIR: tmp, ...env(world, { OPENAI_API_KEY: 'k' }) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await firstRequest;
  child.kill('SIGTERM');
  t.is(await exited, 143, stderr);
  t.is(requests, 1, 'the second case never started');
  const written = readReport(report);
  t.is(written.status, 'interrupted');
  t.deepEqual(
    written.cases.map((c) => c.status),
    ['not_run', 'not_run'],
  );
  t.deepEqual(readdirSync(tmp), [], 'every workspace removed');
});

test('SIGINT stops a real eval within its spinning command pattern (issue 22 §4): exit 130, no workspace left', async (t) => {
  const world = evalWorld(t);
  let requests = 0;
  let secondRequest: () => void = () => undefined;
  const asked = new Promise<void>((resolve) => (secondRequest = resolve));
  const server = await serve(t, (_body, _req, res) => {
    requests++;
    // First answer: a bash call whose command the suite's matcher backtracks on without end. The gate denies it
    // (no bash) and the run asks again: that second request is held open, the run waits on it, the matcher spins.
    if (requests === 1) openaiStream(res, { tool: { name: 'bash', input: { command: `${'a'.repeat(40)}!` } } }, 0);
    else {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      secondRequest();
    }
  });
  writeFileSync(path.join(world.state, 'models.json'), JSON.stringify({ models: [{ id: 'local', provider: 'openai', base_url: server.base, context_window: 100_000 }] }));
  const suite = writeSuite(world, 's', {
    model: 'local',
    cases: [{ id: 'spins', prompt: 'p', expect: [{ tool_not_called: { tool: 'bash', command: '^(\\w+\\s?)+$' } }, { text_matches: '^(\\w+\\s?)+$' }] }],
  });
  const tmp = path.join(world.root, 'process-tmp');
  mkdirSync(tmp);
  const child = spawn(process.execPath, [BIN, 'eval', suite, '--confine', 'off', '--reporter', 'line'], {
    env: { PATH: process.env['PATH'] ?? '', TMPDIR: tmp, ...env(world, { OPENAI_API_KEY: 'k' }) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // Before issue 22 §4 the matcher ran on the main thread as the call was decided: the second request never came.
  await asked;
  child.kill('SIGINT');
  t.is(await exited, 130, stderr);
  t.deepEqual(readdirSync(tmp), [], 'every workspace removed');
});

/** A one-shard report whose one case met the model server down: status error, as the eval writes it. */
function erroredShard(): EvalReport {
  const report = sampleReport();
  const run = sampleRun(1, {
    passed: false,
    status: 'failed',
    error: { code: 'ZB_PROVIDER_FAILED', message: 'openai: cannot reach http://127.0.0.1:9/v1/chat/completions: connect ECONNREFUSED 127.0.0.1:9.' },
    expectations: [{ kind: 'text_contains', passed: false, reason: 'final text does not contain "hello"; it was ""' }],
    infrastructure: { code: 'ZB_PROVIDER_FAILED', message: 'openai: cannot reach http://127.0.0.1:9/v1/chat/completions: connect ECONNREFUSED 127.0.0.1:9.', endpoint: 'openai http://127.0.0.1:9/v1' },
  });
  const cases = [{ suite: 'refactor', id: 'down', index: 0, line: 12, status: 'error' as const, not_run_reason: null, threshold: 1, pass_rate: 0, runs: [run] }];
  return {
    ...report,
    status: 'error',
    shard: { index: 1, total: 1 },
    options: { ...report.options, repeat: 1 },
    suites: [{ ...report.suites[0]!, cases: 1 }],
    cases,
    totals: computeTotals(cases),
  };
}

test('issue 27 §3: merge of an infrastructure error exits 3; line names the case with its cause first; annotations carry its line', async (t) => {
  const world = evalWorld(t);
  const file = path.join(world.root, 'shard-1.json');
  writeFileSync(file, formatJsonReport(erroredShard()));
  const merged = await runCliCaptured(['eval', 'merge', file, '--reporter', 'line,github'], { env: {}, cwd: world.root });
  t.is(merged.status, 3, merged.stderr);
  t.regex(merged.stdout, /^! refactor\/down {2}0\/1 .* {2}infrastructure error at openai http:\/\/127\.0\.0\.1:9\/v1: ZB_PROVIDER_FAILED: .*ECONNREFUSED/m);
  t.regex(merged.stdout, /^ERROR: 0 passed, 0 failed, 1 errors \(infrastructure\), 0 not run/m);
  t.regex(
    merged.stdout,
    /^::error file=evals\/refactor\.yaml,line=12,title=refactor \/ down errored \(infrastructure\)::0 of 1 runs passed \(threshold 100%25\)\.%0Arepeat 1: infrastructure error at openai http:\/\/127\.0\.0\.1:9\/v1: ZB_PROVIDER_FAILED: [^%]*%0Arepeat 1: text_contains: /m,
  );
  const list = await runCliCaptured(['eval', 'merge', file], { env: {}, cwd: world.root });
  t.is(list.status, 3);
  t.regex(list.stdout, /! refactor\/down: infrastructure error at openai/, 'the list reporter names it with its cause too');
});

test('--max-cost with a model without prices: exit 2 before any case, naming the model and the real models.json path (issue 27 §6)', async (t) => {
  const world = evalWorld(t);
  const file = path.join(world.state, 'models.json');
  writeFileSync(file, JSON.stringify({ models: [{ id: 'local', provider: 'openai', base_url: 'http://127.0.0.1:9/v1', context_window: 100_000 }] }));
  const suite = writeSuite(world, 's', { model: 'local', cases: [{ id: 'a', prompt: 'p' }] });
  const result = await runCliCaptured(['eval', suite, '--max-cost', '2', '--confine', 'off', '--reporter', 'line'], { env: env(world, { OPENAI_API_KEY: 'k' }), cwd: world.root });
  t.is(result.status, 2, result.stdout + result.stderr);
  t.regex(result.stderr, /ZB_EVAL_COST_UNKNOWN/);
  t.true(result.stderr.includes(`local (runs suite s)`), result.stderr);
  t.true(result.stderr.includes(file), result.stderr);
  t.is(result.stdout, '');
});
