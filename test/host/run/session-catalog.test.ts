// The session catalog: listing, finding and removing sessions in the state
// directory, with ids and agent names checked before they become paths.
import test from 'ava';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensureAgentDirectories } from '../../../src/host/consent/agent-directory.js';
import { findSession, listSessions, removeSession } from '../../../src/host/run/session-catalog.js';
import { SessionWriter, newSessionId, sessionFileFor } from '../../../src/host/run/sessions.js';
import { tempDir } from '../../fixtures/temp.js';

/** The sessions directory of `agent` from the local folder /agents/<agent> (or `from`). */
function sessionsOf(state: string, agent: string, from = `/agents/${agent}`): string {
  return ensureAgentDirectories(state, { name: agent, source: { kind: 'local', path: from } }).sessions;
}

function record(state: string, agent: string, workspace: string, id = newSessionId(), from?: string): string {
  const directory = sessionsOf(state, agent, from);
  const file = sessionFileFor(directory, id);
  const writer = SessionWriter.create(file, { id, agent, created_at: '2026-11-30T17:12:00.000Z', workspace });
  writer.sync([
    { role: 'user', content: [{ type: 'text', text: 'hi' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
  ]);
  writer.close();
  return file;
}

test('listSessions gives every session of every agent, or of one, with workspace and message count; a broken file is listed with its problem', (t) => {
  const state = tempDir(t);
  const a = record(state, 'alpha', '/repo/a', '20261130T171200Z-00000001');
  record(state, 'beta', '/repo/b', '20261130T171200Z-00000002');
  const broken = path.join(sessionsOf(state, 'beta'), '20261130T171200Z-00000003.jsonl');
  writeFileSync(broken, 'not json\n');
  writeFileSync(path.join(sessionsOf(state, 'beta'), 'notes.txt'), 'not a session');
  const all = listSessions(state);
  t.deepEqual(
    all.map((s) => [s.id, s.agent, s.source, s.workspace, s.messages, s.problem === null]),
    [
      ['20261130T171200Z-00000001', 'alpha', '/agents/alpha', '/repo/a', 2, true],
      ['20261130T171200Z-00000002', 'beta', '/agents/beta', '/repo/b', 2, true],
      ['20261130T171200Z-00000003', 'beta', '/agents/beta', null, null, false],
    ],
  );
  t.like(all[0], { file: a, created_at: '2026-11-30T17:12:00.000Z' });
  t.regex(all[2]!.problem!, /not a zotbox session/);
  t.deepEqual(
    listSessions(state, 'alpha').map((s) => s.id),
    ['20261130T171200Z-00000001'],
  );
  t.deepEqual(listSessions(state, 'gamma'), []);
});

test('a stray file where an agent directory would be holds no sessions; an agents entry that is a file is ZB_IO_FAILED', (t) => {
  const state = tempDir(t);
  record(state, 'alpha', '/repo/a', '20261130T171200Z-00000001');
  writeFileSync(path.join(state, 'agents', 'stray-0123456789abcdef'), 'x');
  t.is(listSessions(state).length, 1);
  t.is(findSession(state, '20261130T171200Z-00000001').agent, 'alpha');
  const broken = tempDir(t);
  writeFileSync(path.join(broken, 'agents'), 'x');
  t.throws(() => listSessions(broken), { code: 'ZB_IO_FAILED' } as never);
});

test('two agents of one name from different folders keep separate sessions, each listed with its source (issue 21)', (t) => {
  const state = tempDir(t);
  const trusted = record(state, 'helper', '/repo/a', '20261130T171200Z-00000001', '/home/u/agents/helper');
  const stranger = record(state, 'helper', '/repo/a', '20261130T171200Z-00000002', '/tmp/download/helper');
  t.not(path.dirname(trusted), path.dirname(stranger));
  t.deepEqual(
    listSessions(state, 'helper').map((s) => [s.id, s.source, s.file]),
    [
      ['20261130T171200Z-00000001', '/home/u/agents/helper', trusted],
      ['20261130T171200Z-00000002', '/tmp/download/helper', stranger],
    ],
  );
  t.like(findSession(state, '20261130T171200Z-00000002', 'helper'), { agent: 'helper', source: '/tmp/download/helper', file: stranger });
});

test("sessions kept by earlier versions under the name only (sessions/agents/NAME) are not listed or found as any agent's", (t) => {
  const state = tempDir(t);
  const legacy = path.join(state, 'sessions', 'agents', 'helper');
  mkdirSync(legacy, { recursive: true });
  const id = '20261130T171200Z-00000009';
  const writer = SessionWriter.create(sessionFileFor(legacy, id), { id, agent: 'helper', created_at: '2026-11-30T17:12:00.000Z', workspace: '/repo/a' });
  writer.close();
  t.deepEqual(listSessions(state), []);
  t.throws(() => findSession(state, id), { code: 'ZB_SESSION_NOT_FOUND' } as never);
});

test('an id two agents share needs the agent; with it, each is found and removed alone', (t) => {
  const state = tempDir(t);
  const id = '20261130T171200Z-0000000a';
  const alpha = record(state, 'alpha', '/repo/a', id);
  const beta = record(state, 'beta', '/repo/b', id);
  t.throws(() => findSession(state, id), { code: 'ZB_OPTION_INVALID', message: /--agent NAME/ } as never);
  t.is(findSession(state, id, 'beta').file, beta);
  t.deepEqual(removeSession(state, id, 'alpha'), { agent: 'alpha', source: '/agents/alpha', file: alpha });
  t.false(existsSync(alpha));
  t.true(existsSync(beta));
});

test('removing a session that is a symlink removes the link, never what it points to; listing marks it', (t) => {
  const state = tempDir(t);
  const target = path.join(tempDir(t), 'precious.jsonl');
  writeFileSync(target, 'keep me\n');
  const directory = sessionsOf(state, 'alpha');
  symlinkSync(target, path.join(directory, '20261130T171200Z-0000000b.jsonl'));
  t.like(listSessions(state)[0], { problem: 'not a regular file', messages: null });
  removeSession(state, '20261130T171200Z-0000000b');
  t.is(readFileSync(target, 'utf8'), 'keep me\n');
  t.false(existsSync(path.join(directory, '20261130T171200Z-0000000b.jsonl')));
});

test('ids and agent names that are not ones are refused before they become paths', (t) => {
  const state = tempDir(t);
  for (const id of ['../x', '20261130T171200Z-0000000b/..', '', 'latest']) {
    t.throws(() => findSession(state, id), { code: 'ZB_SESSION_NOT_FOUND', message: /is not a session id/ } as never, id);
    t.throws(() => removeSession(state, id), { code: 'ZB_SESSION_NOT_FOUND' } as never, id);
  }
  for (const name of ['..', '../alpha', 'a/b', '']) {
    t.throws(() => listSessions(state, name), { code: 'ZB_OPTION_INVALID' } as never, name);
    t.throws(() => findSession(state, '20261130T171200Z-0000000b', name), { code: 'ZB_OPTION_INVALID' } as never, name);
  }
});
