// Sessions end to end, through a loopback Anthropic server: a run records its
// conversation, --continue / --resume send it back to the model with the new
// prompt, a run that failed mid-turn continues from its last complete exchange,
// and --no-session records nothing.
import test from 'ava';
import { existsSync, readdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { RunEvent } from '../../src/host/run/run-events.js';
import { readSession } from '../../src/host/run/sessions.js';
import { SCRIPT, agentFixture, anthropicStream, run, serve } from '../fixtures/model-servers.js';
import { runCliCaptured } from '../fixtures/cli-harness.js';
import { agentSessionsDirectory } from '../../src/host/consent/agent-directory.js';

/** The writer agent's own sessions directory (by name and source, issue 21). */
const writerSessions = (state: string, agent: string) => agentSessionsDirectory(state, { name: 'writer', source: { kind: 'local', path: realpathSync(agent) } });

type Start = RunEvent & { type: 'run.start' };
const start = (events: RunEvent[]) => events.find((e): e is Start => e.type === 'run.start')!;
const texts = (messages: { content: { type: string; text?: string }[] }[]) => messages.map((m) => m.content.map((b) => b.text ?? b.type).join('+'));

test('a run records its session; --continue sends the whole conversation back with the new prompt', async (t) => {
  const { agent, ws, state } = agentFixture(t);
  const steps = [...SCRIPT, { text: 'Still done.' }, { text: 'Third answer.' }];
  let count = 0;
  const server = await serve(t, (_body, _req, res) => anthropicStream(res, steps[count++]!, count));
  const env = { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.base };
  const base = { reference: agent, cwd: ws, yes: true, env, stateDirectory: state, confine: 'off' as const, model: 'claude-sonnet-4-5' };

  const first = await run({ ...base, prompt: 'Write some notes.' });
  const session = start(first).session!;
  t.like(session, { continued: false });
  t.is(path.dirname(session.file), writerSessions(state, agent));
  t.is(readSession(session.file).messages.length, 8, 'user, then 4 answers and 3 tool results');

  const second = await run({ ...base, prompt: 'And now?', session: 'continue' });
  t.like(start(second).session, { id: session.id, file: session.file, continued: true });
  t.like(second.at(-1), { type: 'run.end', status: 'completed', final_text: 'Still done.' });
  const sent = server.requests[4]!.body.messages;
  t.is(sent.length, 9);
  t.deepEqual(sent[0], { role: 'user', content: [{ type: 'text', text: 'Write some notes.' }] });
  t.deepEqual(sent.at(-1), { role: 'user', content: [{ type: 'text', text: 'And now?' }] });
  t.is(readSession(session.file).messages.length, 10);

  // --resume by id through the CLI reaches the same session.
  const cli = await runCliCaptured(['run', agent, 'Third?', '--resume', session.id, '-y', '--confine', 'off', '--model', 'claude-sonnet-4-5', '--json'], {
    env: { ...env, ZOTBOX_HOME: state },
    cwd: ws,
  });
  t.is(cli.status, 0, cli.stderr);
  t.is(server.requests[5]!.body.messages.length, 11);
  t.is(readSession(session.file).messages.length, 12);
});

test('a run that fails mid-turn keeps its complete turns; continuing drops only the turn in flight', async (t) => {
  const { agent, ws, state } = agentFixture(t);
  let count = 0;
  const server = await serve(t, (_body, _req, res) => {
    count++;
    if (count === 1) anthropicStream(res, SCRIPT[0]!, count);
    else if (count === 2) res.writeHead(401).end('{"error":"key revoked"}');
    else anthropicStream(res, { text: 'Picking up again.' }, count);
  });
  const base = { reference: agent, cwd: ws, yes: true, env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.base }, stateDirectory: state, confine: 'off' as const, model: 'claude-sonnet-4-5' };
  const failed = await run({ ...base, prompt: 'Write some notes.' });
  t.like(failed.at(-1), { type: 'run.end', status: 'failed', error: { code: 'ZB_PROVIDER_AUTH' } });
  const file = start(failed).session!.file;
  t.deepEqual(texts(readSession(file).messages as never), ['Write some notes.', 'Writing notes.+tool_use'], 'the answered turn was flushed');

  const resumed = await run({ ...base, prompt: 'Try again.', session: 'continue' });
  t.like(resumed.at(-1), { type: 'run.end', status: 'completed', final_text: 'Picking up again.' });
  t.deepEqual(texts(server.requests[2]!.body.messages), ['Write some notes.', 'Writing notes.', 'Try again.']);
  t.deepEqual(texts(readSession(file).messages as never), ['Write some notes.', 'Writing notes.', 'Try again.', 'Picking up again.']);
});

test('--no-session records nothing; conflicting session flags and unknown sessions are refused before anything runs', async (t) => {
  const { agent, ws, state } = agentFixture(t);
  let count = 0;
  const server = await serve(t, (_body, _req, res) => anthropicStream(res, { text: 'ok' }, ++count));
  const env = { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.base, ZOTBOX_HOME: state };
  const common = ['-y', '--confine', 'off', '--model', 'claude-sonnet-4-5'];
  const none = await runCliCaptured(['run', agent, 'hi', '--no-session', ...common, '--json'], { env, cwd: ws });
  t.is(none.status, 0, none.stderr);
  t.is((JSON.parse(none.stdout.split('\n')[0]!) as { session: unknown }).session, null);
  t.deepEqual(readdirSync(writerSessions(state, agent)), []);

  const conflict = await runCliCaptured(['run', agent, 'hi', '--continue', '--no-session', ...common], { env, cwd: ws });
  t.is(conflict.status, 1);
  t.regex(conflict.stderr, /ZB_SESSION_CONFLICT/);
  const noneYet = await runCliCaptured(['run', agent, 'hi', '--continue', ...common], { env, cwd: ws });
  t.regex(noneYet.stderr, /ZB_SESSION_NOT_FOUND/);
  const badId = await runCliCaptured(['run', agent, 'hi', '--resume', '../../x', ...common], { env, cwd: ws });
  t.regex(badId.stderr, /ZB_SESSION_NOT_FOUND/);
  t.is(count, 1, 'only the --no-session run reached the model');
  t.false(existsSync(path.join(writerSessions(state, agent), 'x.jsonl')));
});
