// Sessions on disk: a JSONL transcript appended and fsynced per turn, read back
// strictly except for a torn last line, and trimmed to its last complete
// exchange before a run continues it.
import test from 'ava';
import { appendFileSync, readFileSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ChatMessage } from '../../../src/policy/model-protocol.js';
import { planSession } from '../../../src/host/run/run-session.js';
import { latestSessionFile } from '../../../src/host/run/session-catalog.js';
import { SessionWriter, historyForContinuation, newSessionId, readSession, readSessionHeader, sessionFileFor } from '../../../src/host/run/sessions.js';
import { tempDir } from '../../fixtures/temp.js';

const user = (text: string): ChatMessage => ({ role: 'user', content: [{ type: 'text', text }] });
const answer = (text: string): ChatMessage => ({ role: 'assistant', content: [{ type: 'text', text }] });
const callTool = (id: string, text?: string): ChatMessage => ({
  role: 'assistant',
  content: [...(text === undefined ? [] : [{ type: 'text' as const, text }]), { type: 'tool_use', id, name: 'read', input: { path: 'a' } }],
});
const result = (id: string): ChatMessage => ({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'x', is_error: false }] });

const WS = '/home/u/proj';

function newSession(dir: string, agent = 'writer', workspace = WS): { file: string; writer: SessionWriter } {
  const id = newSessionId();
  const file = sessionFileFor(dir, id);
  return { file, writer: SessionWriter.create(file, { id, agent, created_at: new Date().toISOString(), workspace }) };
}

/** A session as zotbox before issue 13 wrote it: a version 1 header, without a workspace. */
function versionOneSession(dir: string, messages: readonly ChatMessage[]): string {
  const id = newSessionId();
  const file = sessionFileFor(dir, id);
  const lines = [{ type: 'session', version: 1, id, agent: 'writer', created_at: '2026-01-01T00:00:00.000Z' }, ...messages.map((message) => ({ type: 'message', message }))];
  writeFileSync(file, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
  return file;
}

test('a session is a header line and one line per message, appended as the conversation grows (mode 0600)', (t) => {
  const dir = tempDir(t);
  const { file, writer } = newSession(dir);
  writer.sync([user('hi'), answer('hello')]);
  writer.sync([user('hi'), answer('hello'), user('more'), answer('sure')]);
  writer.sync([user('hi')]); // a shorter view never rewrites what is recorded
  writer.close();
  const lines = readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as { message?: { content: { text?: string }[] } });
  t.like(lines[0], { type: 'session', version: 2, agent: 'writer', workspace: WS });
  t.deepEqual(
    lines.slice(1).map((line) => line.message!.content[0]!.text),
    ['hi', 'hello', 'more', 'sure'],
  );
  t.is(statSync(file).mode & 0o777, 0o600);
  t.deepEqual(readSession(file).messages, [user('hi'), answer('hello'), user('more'), answer('sure')]);
});

test('session ids sort by creation time and are checked before they become paths', (t) => {
  t.regex(newSessionId(new Date('2026-11-30T17:12:00.123Z')), /^20261130T171200Z-[0-9a-f]{8}$/);
  for (const bad of ['../../etc/passwd', '20261130T171200Z-1a2b3c4d/../x', '', 'latest']) {
    t.throws(() => sessionFileFor('/s', bad), { code: 'ZB_SESSION_NOT_FOUND' } as never, bad);
  }
});

test('a torn last line (a crash mid-append) is dropped on reading and cut before the next append', (t) => {
  const dir = tempDir(t);
  const { file, writer } = newSession(dir);
  writer.sync([user('hi'), answer('hello')]);
  writer.close();
  appendFileSync(file, '{"type":"message","message":{"role":"user","con');
  t.is(readSession(file).messages.length, 2);
  const again = SessionWriter.append(file, 2);
  again.sync([user('hi'), answer('hello'), user('next'), answer('ok')]);
  again.close();
  t.deepEqual(
    readSession(file).messages.map((m) => (m.content[0] as { text: string }).text),
    ['hi', 'hello', 'next', 'ok'],
  );
});

test('a line whose tool input nests deeper than the model port allows is ZB_SESSION_INVALID, not a crash', (t) => {
  const dir = tempDir(t);
  const { file, writer } = newSession(dir);
  writer.sync([user('hi'), answer('hello')]);
  writer.close();
  const lines = readFileSync(file, 'utf8').split('\n');
  // Written as text: JSON.stringify itself overflows on 5,000 levels.
  const deep = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000);
  const deepCall = `{"type":"message","message":{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"read","input":{"path":${deep}}}]}}`;
  writeFileSync(file, [lines[0], lines[1], deepCall, lines[2], ''].join('\n'));
  t.throws(() => readSession(file), { code: 'ZB_SESSION_INVALID', message: /line 3 is nested too deeply/ } as never);
});

test('a bad line before the last, a bad header or an empty file is ZB_SESSION_INVALID', (t) => {
  const dir = tempDir(t);
  const { file, writer } = newSession(dir);
  writer.sync([user('hi'), answer('hello')]);
  writer.close();
  const lines = readFileSync(file, 'utf8').split('\n');
  writeFileSync(file, [lines[0], '{"type":"message","message":{"role":"system","content":[]}}', lines[2], ''].join('\n'));
  t.throws(() => readSession(file), { code: 'ZB_SESSION_INVALID', message: /line 2/ } as never);
  writeFileSync(file, `{"type":"nope"}\n${lines[1]!}\n`);
  t.throws(() => readSession(file), { code: 'ZB_SESSION_INVALID', message: /header/ } as never);
  writeFileSync(file, '');
  t.throws(() => readSession(file), { code: 'ZB_SESSION_INVALID' } as never);
  t.throws(() => readSession(path.join(dir, 'missing.jsonl')), { code: 'ZB_SESSION_NOT_FOUND' } as never);
});

test('continuing keeps complete exchanges and drops the unanswered tail the model APIs would reject', (t) => {
  t.deepEqual(historyForContinuation([user('a'), answer('b')]), [user('a'), answer('b')]);
  // Tool results the model never answered, then the call they belong to: cut; its text stays.
  t.deepEqual(historyForContinuation([user('a'), answer('b'), user('c'), callTool('t1', 'looking'), result('t1')]), [user('a'), answer('b'), user('c'), answer('looking')]);
  // A call without text goes entirely, and so does the user turn it answered.
  t.deepEqual(historyForContinuation([user('a'), answer('b'), user('c'), callTool('t1')]), [user('a'), answer('b')]);
  t.deepEqual(historyForContinuation([user('a')]), []);
  t.deepEqual(historyForContinuation([]), []);
});

test('--continue picks the most recently written session; with none it says how to start one', (t) => {
  const dir = tempDir(t);
  t.throws(() => planSession('continue', dir, 'writer', WS), { code: 'ZB_SESSION_NOT_FOUND', message: /without --continue to start one/ } as never);
  const older = newSession(dir);
  older.writer.sync([user('old'), answer('old')]);
  older.writer.close();
  const newer = newSession(dir);
  newer.writer.sync([user('new'), answer('new')]);
  newer.writer.close();
  utimesSync(older.file, new Date(), new Date(Date.now() + 60_000)); // older was written to last
  t.is(latestSessionFile(dir), older.file);
  const planned = planSession('continue', dir, 'writer', WS);
  t.is(planned.file, older.file);
  t.deepEqual(planned.history, [user('old'), answer('old')]);
});

test('a session of another agent is refused; a trimmed tail is cut from the file when the run starts', (t) => {
  const dir = tempDir(t);
  const other = newSession(dir, 'someone-else');
  other.writer.close();
  t.throws(() => planSession({ file: other.file }, dir, 'writer', WS), { code: 'ZB_SESSION_MISMATCH' } as never);
  const mine = newSession(dir);
  mine.writer.sync([user('a'), answer('b'), user('c'), callTool('t1')]);
  mine.writer.close();
  const planned = planSession({ id: path.basename(mine.file, '.jsonl') }, dir, 'writer', WS);
  t.deepEqual(planned.history, [user('a'), answer('b')]);
  t.is(readSession(mine.file).messages.length, 4, 'planning alone changes nothing');
  const writer = planned.open()!;
  writer.sync([user('a'), answer('b'), user('d'), answer('e')]);
  writer.close();
  t.deepEqual(
    readSession(mine.file).messages.map((m) => (m.content[0] as { text: string }).text),
    ['a', 'b', 'd', 'e'],
  );
  t.deepEqual(
    readdirSync(dir).filter((name) => name.endsWith('.tmp')),
    [],
    'no temp file left',
  );
});

test('--session FILE starts a new session there when it does not exist; none records nothing', (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'mine.jsonl');
  const planned = planSession({ file }, dir, 'writer', WS);
  t.deepEqual(planned.history, []);
  planned.open()!.close();
  t.like(readSession(file).header, { agent: 'writer', id: 'mine', workspace: WS });
  const none = planSession('none', dir, 'writer', WS);
  t.is(none.open(), undefined);
  t.is(none.file, undefined);
});

test('--continue continues the latest session of this workspace, never the newer one of another workspace', (t) => {
  // Issue 13: continuing in repository A resumed a conversation holding repository B's tool output.
  const dir = tempDir(t);
  const inA = newSession(dir, 'writer', '/repo/a');
  inA.writer.sync([user('about a'), answer('a')]);
  inA.writer.close();
  const inB = newSession(dir, 'writer', '/repo/b');
  inB.writer.sync([user('about b'), answer('b')]);
  inB.writer.close();
  utimesSync(inB.file, new Date(), new Date(Date.now() + 60_000)); // B was written to last
  t.is(latestSessionFile(dir), inB.file);
  const planned = planSession('continue', dir, 'writer', '/repo/a');
  t.is(planned.file, inA.file);
  t.deepEqual(planned.history, [user('about a'), answer('a')]);
  t.is(planSession('continue', dir, 'writer', '/repo/b').file, inB.file);
  const none = t.throws(() => planSession('continue', dir, 'writer', '/repo/c'), { code: 'ZB_SESSION_NOT_FOUND' } as never);
  t.regex(none.message, /no session to continue in the workspace \/repo\/c\. .*'zotbox sessions list writer'.*--resume ID/);
});

test('a session from before workspaces were recorded belongs to no workspace: --continue skips it, --resume ID reaches it', (t) => {
  const dir = tempDir(t);
  const old = versionOneSession(dir, [user('old'), answer('old')]);
  t.is(readSessionHeader(old).version, 1);
  t.throws(() => planSession('continue', dir, 'writer', WS), { code: 'ZB_SESSION_NOT_FOUND' } as never);
  const resumed = planSession({ id: path.basename(old, '.jsonl') }, dir, 'writer', WS);
  t.deepEqual(resumed.history, [user('old'), answer('old')]);
  const writer = resumed.open()!;
  writer.sync([user('old'), answer('old'), user('new'), answer('new')]);
  writer.close();
  t.like(readSession(old), { header: { version: 1 }, messages: { length: 4 } }, 'continued as it was: its header is not rewritten');
});

test('--resume ID and --session FILE reach a session of another workspace (explicit choices)', (t) => {
  const dir = tempDir(t);
  const elsewhere = newSession(dir, 'writer', '/repo/b');
  elsewhere.writer.sync([user('b'), answer('b')]);
  elsewhere.writer.close();
  t.is(planSession({ id: path.basename(elsewhere.file, '.jsonl') }, dir, 'writer', '/repo/a').history.length, 2);
  t.is(planSession({ file: elsewhere.file }, dir, 'writer', '/repo/a').history.length, 2);
});

test('a header is read from the first line alone; a version 2 header without a workspace is not a session', (t) => {
  const dir = tempDir(t);
  const { file, writer } = newSession(dir);
  writer.sync([user('hi'), answer('hello')]);
  writer.close();
  t.like(readSessionHeader(file), { version: 2, workspace: WS });
  const header = JSON.parse(readFileSync(file, 'utf8').split('\n')[0]!) as Record<string, unknown>;
  delete header['workspace'];
  writeFileSync(file, `${JSON.stringify(header)}\n`);
  t.throws(() => readSessionHeader(file), { code: 'ZB_SESSION_INVALID' } as never);
  t.throws(() => readSession(file), { code: 'ZB_SESSION_INVALID' } as never);
});
