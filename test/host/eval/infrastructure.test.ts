// Issue 27 §3: with the model server down (a loopback port that refuses), every
// case is an infrastructure error, not the agent's failure, in the report and in
// JUnit, and after 3 in a row on that endpoint the eval starts no further case and
// says why. The provider's own backoff runs on a clock that never waits, so the
// test takes no time while every retry is still made.
import test from 'ava';
import { createServer } from 'node:net';
import { formatJunit } from '../../../src/host/eval/report/junit.js';
import { formatJsonReport, readEvalReport } from '../../../src/host/eval/report/json-report.js';
import { ModelEndpoints } from '../../../src/host/providers/model-endpoints.js';
import type { EndpointClock } from '../../../src/host/providers/endpoint-clock.js';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { evalIn, evalWorld, leftovers, writeSuite, type EvalWorld } from '../../fixtures/eval-world.js';

/** A loopback port nothing listens on: bound once to learn a free one, then closed, so connecting is refused. */
async function refusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const instant: EndpointClock = { now: () => Date.now(), sleep: () => Promise.resolve() };

function downModel(world: EvalWorld, port: number): string {
  writeFileSync(path.join(world.state, 'models.json'), JSON.stringify({ models: [{ id: 'local', provider: 'openai', base_url: `http://127.0.0.1:${port}/v1`, context_window: 100_000 }] }));
  return `openai http://127.0.0.1:${port}/v1`;
}

test('model server down: cases are errors with the cause, JUnit says <error>, and 3 in a row stop the eval', async (t) => {
  const world = evalWorld(t);
  const endpoint = downModel(world, await refusedPort());
  const suite = writeSuite(world, 's', {
    model: 'local',
    cases: ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id, prompt: 'p', expect: [{ text_contains: 'hello' }] })),
  });
  const endpoints = new ModelEndpoints({ clock: instant });
  t.teardown(() => endpoints.close());
  const stops: string[] = [];
  const report = await evalIn(world, [suite], {
    env: { OPENAI_API_KEY: 'k' },
    maxRuns: 1,
    modelEndpoints: endpoints,
    onProgress: (progress) => {
      if (progress.type === 'eval.stopping') stops.push(progress.reason);
    },
  });
  t.deepEqual(
    report.cases.map((c) => [c.id, c.status]),
    [
      ['a', 'error'],
      ['b', 'error'],
      ['c', 'error'],
      ['d', 'not_run'],
      ['e', 'not_run'],
    ],
  );
  t.is(report.status, 'error');
  t.like(report.totals, { cases: 5, passed: 0, failed: 0, errors: 3, not_run: 2 });
  const fault = report.cases[0]?.runs[0]?.infrastructure;
  t.is(fault?.code, 'ZB_PROVIDER_FAILED');
  t.is(fault?.endpoint, endpoint);
  t.regex(fault?.message ?? '', /ECONNREFUSED/);
  t.regex(report.cases[3]?.not_run_reason ?? '', new RegExp(`^3 runs in a row ended on an infrastructure error at ${endpoint.replaceAll('.', '\\.')} \\(the last: ZB_PROVIDER_FAILED: .*ECONNREFUSED`));
  t.deepEqual(stops, [report.cases[3]?.not_run_reason]);

  const junit = formatJunit(report);
  t.is((junit.match(/<error /g) ?? []).length, 3);
  t.false(junit.includes('<failure'), 'a broken server is not a broken agent');
  t.regex(junit, /<testsuites name="zotbox eval" tests="5" failures="0" errors="3" skipped="2"/);
  t.regex(junit, /<error message="infrastructure error at openai http:\/\/127\.0\.0\.1:\d+\/v1: ZB_PROVIDER_FAILED: [^"]*ECONNREFUSED/);

  // The report reads back: its error cases follow from their runs.
  const file = path.join(world.root, 'report.json');
  writeFileSync(file, formatJsonReport(report));
  t.is(readEvalReport(file).status, 'error');
  t.deepEqual(leftovers(world), []);
});

test('a case whose other run failed on its own is a failure, not an error, even with an infrastructure error beside it', async (t) => {
  const world = evalWorld(t);
  downModel(world, await refusedPort());
  const suite = writeSuite(world, 's', { model: 'local', cases: [{ id: 'a', prompt: 'p', expect: [{ text_contains: 'hello' }] }] });
  const endpoints = new ModelEndpoints({ clock: instant });
  t.teardown(() => endpoints.close());
  const report = await evalIn(world, [suite], { env: { OPENAI_API_KEY: 'k' }, modelEndpoints: endpoints, maxInfraErrors: 0 });
  const errored = report.cases[0]!;
  t.is(errored.status, 'error');
  // The same case with one run the agent failed by itself: even if the errored run had passed, 1 of 2 is under threshold 1.
  const agentFailure = { ...errored.runs[0]!, repeat: 2, infrastructure: undefined, error: null, status: 'completed' as const };
  const { caseStatusOf } = await import('../../../src/host/eval/infrastructure.js');
  t.is(caseStatusOf([errored.runs[0]!, agentFailure], 1), 'failed');
  t.is(caseStatusOf([errored.runs[0]!, { ...agentFailure, passed: true, expectations: [{ kind: 'status', passed: true, reason: 'ok' }] }], 1), 'error');
  t.is(caseStatusOf([errored.runs[0]!, { ...agentFailure, passed: true, expectations: [{ kind: 'status', passed: true, reason: 'ok' }] }], 0.5), 'passed');
});
