// A whole run with net.allow (issue 24 §1): the gate allows curl to a listed
// host, the sandbox's proxy carries it, and every connection attempt is a
// net.connect event of the call, before its tool.result; a redirect to a host
// not on the list is refused and reported. run.start shows the hosts.
import test from 'ava';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { executeRun } from '../../src/host/run/execute-run.js';
import { prepareRunWithSeams } from '../../src/host/run/run-plan.js';
import type { RunEvent } from '../../src/host/run/run-events.js';
import { tempDir } from '../fixtures/temp.js';

test('a run reaches a listed host through the proxy, and each connection attempt is a net.connect event of its call', async (t) => {
  const server = createServer((req, res) => {
    if (req.url === '/redirect') return void res.writeHead(302, { location: `http://other.test:${(server.address() as AddressInfo).port}/hello` }).end();
    res.end('hello from upstream\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const port = (server.address() as AddressInfo).port;
  const root = realpathSync(tempDir(t, 'zb-net-run-'));
  const agent = path.join(root, 'fetcher');
  const ws = path.join(root, 'ws');
  mkdirSync(agent);
  mkdirSync(ws);
  const hosts = [`upstream.test:${port}`, `127.0.0.1:${port}`];
  writeFileSync(
    path.join(agent, 'manifest.json'),
    JSON.stringify({ zotfile: 1, name: 'fetcher', permissions: { fs: { read: ['${workspace}'] }, bash: { mode: 'allowlist', allow: ['curl'] }, net: { allow: hosts } } }),
  );
  const bash = (id: string, command: string) => ({ content: [{ type: 'tool_use', id, name: 'bash', input: { command } }], stop: 'tool_use', usage: { input_tokens: 1, output_tokens: 1 } });
  const replay = path.join(root, 'replay.json');
  writeFileSync(
    replay,
    JSON.stringify({
      zotbox_replay: 1,
      model: 'replay',
      turns: [
        bash('t1', `curl -sS http://upstream.test:${port}/hello`),
        bash('t2', `curl -sS -f -L http://upstream.test:${port}/redirect`),
        { content: [{ type: 'text', text: 'done' }], stop: 'end', usage: { input_tokens: 1, output_tokens: 1 } },
      ],
    }),
  );
  const resolver = async (host: string) => {
    if (host === 'upstream.test' || host === 'other.test') return ['127.0.0.1'];
    throw new Error(`no such test host ${host}`);
  };
  const plan = await prepareRunWithSeams({ reference: agent, cwd: ws, replayFile: replay, yes: true, stateDirectory: path.join(root, 'state'), env: {} }, { netResolver: resolver });
  const events: RunEvent[] = [];
  for await (const event of executeRun(plan, { prompt: 'fetch', session: 'none' })) events.push(event);
  const start = events.find((e) => e.type === 'run.start');
  t.deepEqual(start?.type === 'run.start' ? start.permissions.net : undefined, hosts);
  const net = events.filter((e) => e.type === 'net.connect' || e.type === 'tool.result');
  t.deepEqual(
    net.map((e) => (e.type === 'net.connect' ? ['net', e.id, e.host, e.allowed] : ['result', e.id])),
    [
      ['net', 1, 'upstream.test', true],
      ['result', 1],
      ['net', 2, 'upstream.test', true],
      ['net', 2, 'other.test', false],
      ['result', 2],
    ],
  );
  const denied = events.find((e) => e.type === 'net.connect' && !e.allowed);
  t.regex(denied?.type === 'net.connect' ? denied.reason : '', /other\.test is not in permissions\.net\.allow/);
  const first = events.find((e) => e.type === 'net.connect');
  t.true(first?.type === 'net.connect' && first.bytes_in > 0 && first.address === '127.0.0.1');
  t.like(events.at(-1), { type: 'run.end', status: 'completed' });
});
