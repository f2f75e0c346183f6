// `zotbox sessions list|show|rm`, and --continue staying in its workspace, driven
// through the CLI with a replayed one-turn agent (issue 13).
import test, { type ExecutionContext } from 'ava';
import { existsSync, mkdirSync, readdirSync, realpathSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { agentSessionsDirectory } from '../../src/host/consent/agent-directory.js';
import type { RunEvent } from '../../src/host/run/run-events.js';
import { runCliCaptured } from '../fixtures/cli-harness.js';
import { tempDir } from '../fixtures/temp.js';

interface World {
  readonly agent: string;
  readonly transcript: string;
  readonly repoA: string;
  readonly repoB: string;
  readonly env: Record<string, string>;
  readonly sessions: string;
}

function world(t: ExecutionContext): World {
  const root = realpathSync(tempDir(t, 'zb-sessions-cli-'));
  const agent = path.join(root, 'helper');
  mkdirSync(agent);
  writeFileSync(path.join(agent, 'manifest.json'), JSON.stringify({ zotfile: 1, name: 'helper', version: '1.0.0', permissions: { fs: { read: ['${workspace}'] } } }));
  writeFileSync(path.join(agent, 'AGENT.md'), 'You help.');
  const transcript = path.join(root, 'hello.json');
  writeFileSync(transcript, JSON.stringify({ zotbox_replay: 1, model: 'replay', turns: [{ content: [{ type: 'text', text: 'Hello.' }], stop: 'end', usage: { input_tokens: 1, output_tokens: 1 } }] }));
  const repoA = path.join(root, 'repo-a');
  const repoB = path.join(root, 'repo-b');
  mkdirSync(repoA);
  mkdirSync(repoB);
  const state = path.join(root, 'state');
  return { agent, transcript, repoA, repoB, env: { ZOTBOX_HOME: state }, sessions: agentSessionsDirectory(state, { name: 'helper', source: { kind: 'local', path: agent } }) };
}

async function run(w: World, workspace: string, prompt: string, ...flags: string[]): Promise<RunEvent & { type: 'run.start' }> {
  const result = await runCliCaptured(['run', w.agent, prompt, '--cwd', workspace, '--replay', w.transcript, '-y', '--confine', 'off', '--json', ...flags], { env: w.env });
  if (result.status !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout.split('\n')[0]!) as RunEvent & { type: 'run.start' };
}

test('--continue continues the session of this workspace, though another workspace has a newer one', async (t) => {
  const w = world(t);
  const inA = await run(w, w.repoA, 'about repo a');
  const inB = await run(w, w.repoB, 'about repo b');
  const continued = await run(w, w.repoA, 'more about a', '--continue');
  t.like(continued.session, { id: inA.session!.id, continued: true });
  t.not(continued.session!.id, inB.session!.id);
  const shown = await runCliCaptured(['sessions', 'show', inA.session!.id], { env: w.env });
  t.regex(shown.stdout, /about repo a[\s\S]*more about a/);
  t.notRegex(shown.stdout, /about repo b/);
});

test('sessions list shows id, agent, messages, created, last written, first prompt and workspace; --json the same as fields', async (t) => {
  const w = world(t);
  const inA = await run(w, w.repoA, 'one');
  const inB = await run(w, w.repoB, 'two');
  const listed = await runCliCaptured(['sessions', 'list'], { env: w.env });
  t.is(listed.status, 0, listed.stderr);
  const lines = listed.stdout.trim().split('\n');
  t.is(lines.length, 2);
  const [first, second] = [inA, inB].sort((a, b) => (a.session!.id < b.session!.id ? -1 : 1));
  const line = (id: string, prompt: string, workspace: string) => new RegExp(`^${id} {2}helper {2}2 messages {2}created \\S+Z {2}last \\S+Z {2}"${prompt}" {2}${workspace} {2}from ${w.agent}$`);
  const promptOf = (id: string) => (id === inA.session!.id ? 'one' : 'two');
  t.regex(lines[0]!, line(first!.session!.id, promptOf(first!.session!.id), first!.workspace));
  t.regex(lines[1]!, line(second!.session!.id, promptOf(second!.session!.id), second!.workspace));
  const json = JSON.parse((await runCliCaptured(['sessions', 'list', 'helper', '--json'], { env: w.env })).stdout) as Record<string, unknown>[];
  t.like(
    json.find((s) => s['id'] === inA.session!.id),
    { agent: 'helper', source: w.agent, workspace: w.repoA, messages: 2, first_prompt: 'one', problem: null, file: inA.session!.file },
  );
  t.deepEqual(JSON.parse((await runCliCaptured(['sessions', 'list', 'nobody', '--json'], { env: w.env })).stdout), []);
});

test('a session from before workspaces were recorded is listed as such, skipped by --continue and reached by --resume', async (t) => {
  const w = world(t);
  await run(w, w.repoA, 'first'); // creates the sessions directory
  const id = '20250101T000000Z-0123abcd';
  const message = { role: 'user', content: [{ type: 'text', text: 'old words' }] };
  writeFileSync(
    path.join(w.sessions, `${id}.jsonl`),
    `${JSON.stringify({ type: 'session', version: 1, id, agent: 'helper', created_at: '2025-01-01T00:00:00.000Z' })}\n${JSON.stringify({ type: 'message', message })}\n${JSON.stringify({ type: 'message', message: { role: 'assistant', content: [{ type: 'text', text: 'old answer' }] } })}\n`,
  );
  const listed = await runCliCaptured(['sessions', 'list'], { env: w.env });
  t.regex(listed.stdout, new RegExp(`^${id} {2}helper {2}2 messages .*\\(no workspace recorded\\) {2}from ${w.agent}$`, 'm'));
  t.regex((await runCliCaptured(['sessions', 'show', id], { env: w.env })).stdout, /workspace: \(not recorded[^\n]*\n[\s\S]*── user\nold words\n\n── assistant\nold answer\n/);
  await t.throwsAsync(run(w, w.repoB, 'in b', '--continue'), { message: /ZB_SESSION_NOT_FOUND.*no session to continue in the workspace/ });
  const resumed = await run(w, w.repoB, 'again', '--resume', id);
  t.like(resumed.session, { id, continued: true });
});

test('sessions show prints the conversation readably, tool calls included; --json prints the stored lines', async (t) => {
  const w = world(t);
  const started = await run(w, w.repoA, 'hello there');
  const id = started.session!.id;
  const shown = await runCliCaptured(['sessions', 'show', id], { env: w.env });
  t.is(shown.status, 0, shown.stderr);
  t.is(shown.stdout, `session ${id} of helper, created ${shown.stdout.split('created ')[1]!.split('\n')[0]!}\nworkspace: ${w.repoA}\n2 messages\n\n── user\nhello there\n\n── assistant\nHello.\n`);
  const raw = (await runCliCaptured(['sessions', 'show', id, '--json'], { env: w.env })).stdout.trim().split('\n');
  t.like(JSON.parse(raw[0]!), { type: 'session', version: 2, id, agent: 'helper', workspace: w.repoA });
  t.like(JSON.parse(raw[1]!), { type: 'message', message: { role: 'user' } });
  t.is(raw.length, 3);
});

test('sessions show escapes control characters from the session file', async (t) => {
  const w = world(t);
  const started = await run(w, w.repoA, 'color \u001b[31mred\u001b]52;c;aGk=\u0007');
  const shown = await runCliCaptured(['sessions', 'show', started.session!.id], { env: w.env });
  t.false(shown.stdout.includes('\u001b'));
  t.true(shown.stdout.includes('color \\u001b[31mred'), shown.stdout);
});

test('sessions list previews a long or multi-line first prompt on one line, cut with an ellipsis', async (t) => {
  const w = world(t);
  await run(w, w.repoA, `Review this\nproject ${'carefully '.repeat(10)}`);
  const listed = await runCliCaptured(['sessions', 'list'], { env: w.env });
  t.regex(listed.stdout, /last \S+Z {2}"Review this project carefully carefully [a-z ]*…" {2}/);
  t.is(listed.stdout.trim().split('\n').length, 1);
});

test("sessions show renders text as text: a tool result's lines are lines, never \\u000a", async (t) => {
  const w = world(t);
  const started = await run(w, w.repoA, 'first');
  const id = '20250101T000000Z-0fedcba9';
  const result = JSON.stringify({ path: '/p/notes.txt', size: 14, binary: false, content: 'line one\nline two', startLine: 1, endLine: 2, totalLines: 2, truncated: false }, null, 1);
  const lines = [
    { type: 'session', version: 2, id, agent: 'helper', created_at: '2025-01-01T00:00:00.000Z', workspace: w.repoA },
    { type: 'message', message: { role: 'user', content: [{ type: 'text', text: 'read it\r\nplease' }] } },
    { type: 'message', message: { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'read', input: { path: 'notes.txt' } }] } },
    { type: 'message', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: result, is_error: false }] } },
  ];
  writeFileSync(path.join(path.dirname(started.session!.file), `${id}.jsonl`), lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
  const shown = await runCliCaptured(['sessions', 'show', id], { env: w.env });
  t.is(shown.status, 0, shown.stderr);
  t.false(shown.stdout.includes('\\u000'), shown.stdout);
  t.true(shown.stdout.includes('── user\nread it\nplease\n'), shown.stdout);
  t.true(shown.stdout.includes('← result:\n    /p/notes.txt:\n    line one\n    line two\n'), shown.stdout);
});

test('sessions prune removes the sessions older than --older-than, or empty with --empty, and keeps the rest', async (t) => {
  const w = world(t);
  const old = await run(w, w.repoA, 'old');
  const fresh = await run(w, w.repoA, 'fresh');
  const day = 86_400_000;
  utimesSync(old.session!.file, new Date(Date.now() - 40 * day), new Date(Date.now() - 40 * day));
  const emptyId = '20250101T000000Z-00000000';
  const emptyFile = path.join(path.dirname(fresh.session!.file), `${emptyId}.jsonl`);
  writeFileSync(emptyFile, `${JSON.stringify({ type: 'session', version: 2, id: emptyId, agent: 'helper', created_at: '2025-01-01T00:00:00.000Z', workspace: w.repoA })}\n`);

  t.is((await runCliCaptured(['sessions', 'prune'], { env: w.env })).status, 2, 'no criterion: a usage error');
  t.is((await runCliCaptured(['sessions', 'prune', '--older-than', '30 days'], { env: w.env })).status, 2, 'an age is a number and a unit');
  t.true(existsSync(old.session!.file) && existsSync(emptyFile), 'and nothing was removed');

  const pruned = await runCliCaptured(['sessions', 'prune', '--older-than', '30d'], { env: w.env });
  t.is(pruned.status, 0, pruned.stderr);
  t.regex(pruned.stdout, new RegExp(`^removed ${old.session!.id} {2}helper .*\n1 session removed from `));
  t.false(existsSync(old.session!.file));
  t.true(existsSync(fresh.session!.file) && existsSync(emptyFile));

  const empties = JSON.parse((await runCliCaptured(['sessions', 'prune', '--empty', '--json'], { env: w.env })).stdout) as { removed: { id: string }[] };
  t.deepEqual(
    empties.removed.map((s) => s.id),
    [emptyId],
  );
  t.false(existsSync(emptyFile));
  t.true(existsSync(fresh.session!.file), 'a recent session with messages stays');
});

test('sessions rm removes one session by id; a second rm, an unknown id or a path is refused and removes nothing', async (t) => {
  const w = world(t);
  const keep = await run(w, w.repoA, 'keep');
  const gone = await run(w, w.repoA, 'remove');
  const removed = await runCliCaptured(['sessions', 'rm', gone.session!.id], { env: w.env });
  t.is(removed.status, 0, removed.stderr);
  t.is(removed.stdout, `removed session ${gone.session!.id} of helper from ${w.agent}\n`);
  t.false(existsSync(gone.session!.file));
  const again = await runCliCaptured(['sessions', 'rm', gone.session!.id], { env: w.env });
  t.is(again.status, 1);
  t.regex(again.stderr, /ZB_SESSION_NOT_FOUND/);
  for (const trick of ['../../state/receipt', `${keep.session!.id}/../${keep.session!.id}`, `../helper/${keep.session!.id}`, '', 'latest', `${keep.session!.id}.jsonl`]) {
    const result = await runCliCaptured(['sessions', 'rm', trick], { env: w.env });
    t.is(result.status, 1, trick);
    t.regex(result.stderr, /ZB_SESSION_NOT_FOUND.*is not a session id/, trick);
  }
  const otherAgent = await runCliCaptured(['sessions', 'rm', keep.session!.id, '--agent', '../x'], { env: w.env });
  t.is(otherAgent.status, 2);
  t.regex(otherAgent.stderr, /ZB_OPTION_INVALID/);
  t.deepEqual(readdirSync(w.sessions), [`${keep.session!.id}.jsonl`]);
});

test('sessions: a state directory that is a file is ZB_IO_FAILED; a bad action, NAME or missing id is a usage error', async (t) => {
  const root = tempDir(t, 'zb-sessions-cli-');
  const file = path.join(root, 'a-file');
  writeFileSync(file, 'x');
  for (const args of [
    ['sessions', 'list'],
    ['sessions', 'show', '20250101T000000Z-0123abcd'],
    ['sessions', 'rm', '20250101T000000Z-0123abcd'],
  ]) {
    const result = await runCliCaptured(args, { env: { ZOTBOX_HOME: file } });
    t.is(result.status, 1, args.join(' '));
    t.regex(result.stderr, /ZB_IO_FAILED.*is not a directory/, args.join(' '));
  }
  const env = { ZOTBOX_HOME: path.join(root, 'state') };
  t.is((await runCliCaptured(['sessions', 'list'], { env })).stdout, `no sessions in ${path.join(root, 'state')}\n`);
  t.is((await runCliCaptured(['sessions', 'purge'], { env })).status, 2);
  t.is((await runCliCaptured(['sessions', 'show'], { env })).status, 2);
  t.is((await runCliCaptured(['sessions', 'list', '../..'], { env })).status, 2);
  t.is((await runCliCaptured(['sessions', 'list', '--agent', 'helper'], { env })).status, 2);
});
