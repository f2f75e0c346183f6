// `zotbox data move` underneath (issue 21 §6): an agent's data follows it to a new
// source only through this step, whole or not at all; name-only data of earlier
// versions is adopted the same way and is never given out by itself.
import test from 'ava';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { agentDirectory, agentSessionsDirectory, ensureAgentDirectories } from '../../../src/host/consent/agent-directory.js';
import { adoptLegacyAgentDataWithSeam, adoptLegacyAgentData, listLegacyAgentData, moveAgentData, moveAgentDataWithSeam } from '../../../src/host/consent/move-agent-data.js';
import { tempDir } from '../../fixtures/temp.js';
import { snapshotTree } from '../../fixtures/tree-snapshot.js';

const OLD = { kind: 'local', path: '/home/u/old-place/reviewer' } as const;
const NEW = { kind: 'local', path: '/home/u/agents/reviewer' } as const;
const AT_OLD = { name: 'reviewer', source: OLD };
const AT_NEW = { name: 'reviewer', source: NEW };

/** An agent that ran at its old place: a note in its data, a session, a receipt. */
function ranAtOldPlace(state: string): void {
  const { data, sessions } = ensureAgentDirectories(state, AT_OLD);
  writeFileSync(path.join(data, 'notes.md'), 'what I learned');
  writeFileSync(path.join(sessions, '20261130T171200Z-00000001.jsonl'), '{}\n');
  mkdirSync(path.join(path.dirname(data), 'consents'));
  writeFileSync(path.join(path.dirname(data), 'consents', 'r.json'), '{}');
}

test('moving gives the agent at its new place the old data, sessions and receipts, and records its new source', (t) => {
  const state = tempDir(t);
  ranAtOldPlace(state);
  const moved = moveAgentData(state, { agent: AT_NEW, from: OLD });
  t.is(moved.directory, agentDirectory(state, AT_NEW));
  t.false(existsSync(agentDirectory(state, AT_OLD)));
  const { data, sessions } = ensureAgentDirectories(state, AT_NEW);
  t.is(readFileSync(path.join(data, 'notes.md'), 'utf8'), 'what I learned');
  t.deepEqual(readdirSync(sessions), ['20261130T171200Z-00000001.jsonl']);
  t.true(existsSync(path.join(moved.directory, 'consents', 'r.json')));
  t.deepEqual(JSON.parse(readFileSync(path.join(moved.directory, 'source.json'), 'utf8')), { zotbox_agent: 1, name: 'reviewer', source: NEW });
  // The old place, used again, starts empty: the data went with the move.
  t.deepEqual(readdirSync(ensureAgentDirectories(state, AT_OLD).data), []);
});

test('the agent at its new place may have run once and kept nothing: the move takes the place of its empty directory', (t) => {
  const state = tempDir(t);
  ranAtOldPlace(state);
  ensureAgentDirectories(state, AT_NEW);
  moveAgentData(state, { agent: AT_NEW, from: OLD });
  t.is(readFileSync(path.join(ensureAgentDirectories(state, AT_NEW).data, 'notes.md'), 'utf8'), 'what I learned');
});

test('a move is refused, changing nothing, when the agent already has data at its new place', (t) => {
  for (const where of ['data', 'sessions'] as const) {
    const state = tempDir(t);
    ranAtOldPlace(state);
    const directories = ensureAgentDirectories(state, AT_NEW);
    writeFileSync(path.join(directories[where], where === 'data' ? 'mine.md' : '20261201T000000Z-00000002.jsonl'), 'new\n');
    const before = snapshotTree(state, []);
    const error = t.throws(() => moveAgentData(state, { agent: AT_NEW, from: OLD }), { code: 'ZB_DATA_DESTINATION_EXISTS' } as never);
    t.true(error.message.includes(agentDirectory(state, AT_NEW)), error.message);
    t.deepEqual(snapshotTree(state, []), before, `${where}: nothing moved, nothing left behind`);
  }
});

test('a move with nothing at the old source, or from the source the agent is at, is refused', (t) => {
  const state = tempDir(t);
  t.throws(() => moveAgentData(state, { agent: AT_NEW, from: OLD }), { code: 'ZB_DATA_NOT_FOUND', message: /zotbox data list reviewer/ } as never);
  ranAtOldPlace(state);
  t.throws(() => moveAgentData(state, { agent: AT_OLD, from: OLD }), { code: 'ZB_OPTION_INVALID' } as never);
  t.throws(() => moveAgentData(state, { agent: { name: 'other', source: NEW }, from: OLD }), { code: 'ZB_DATA_NOT_FOUND' } as never, 'data of reviewer is not given to an agent of another name');
});

test('a move that fails after its rename is undone: the data is back under the old source, and no temporary file is left', (t) => {
  const state = tempDir(t);
  ranAtOldPlace(state);
  const before = snapshotTree(state, []);
  t.throws(
    () =>
      moveAgentDataWithSeam(state, { agent: AT_NEW, from: OLD }, () => {
        throw new Error('disk full');
      }),
    { message: 'disk full' },
  );
  t.deepEqual(snapshotTree(state, []), before);
  t.is(readFileSync(path.join(ensureAgentDirectories(state, AT_OLD).data, 'notes.md'), 'utf8'), 'what I learned');
});

test('a move a crash interrupted (renamed, record not yet rewritten) is given to no agent, and running the move again finishes it', (t) => {
  const state = tempDir(t);
  ranAtOldPlace(state);
  renameSync(agentDirectory(state, AT_OLD), agentDirectory(state, AT_NEW)); // what the move does first
  t.throws(() => ensureAgentDirectories(state, AT_NEW), { code: 'ZB_STATE_AGENT_MISMATCH', message: /zotbox data move' was interrupted, run it again/ } as never);
  t.like(moveAgentData(state, { agent: AT_NEW, from: OLD }), { resumed: true });
  t.is(readFileSync(path.join(ensureAgentDirectories(state, AT_NEW).data, 'notes.md'), 'utf8'), 'what I learned');
});

/** What zotbox before issue 21 kept: agents/<name>/{data,consents} and sessions/agents/<name>/. */
function legacyLayout(state: string): void {
  mkdirSync(path.join(state, 'agents', 'reviewer', 'data'), { recursive: true });
  writeFileSync(path.join(state, 'agents', 'reviewer', 'data', 'notes.md'), 'old notes');
  mkdirSync(path.join(state, 'agents', 'reviewer', 'consents'));
  writeFileSync(path.join(state, 'agents', 'reviewer', 'consents', 'r.json'), '{}');
  mkdirSync(path.join(state, 'sessions', 'agents', 'reviewer'), { recursive: true });
  writeFileSync(path.join(state, 'sessions', 'agents', 'reviewer', '20250101T000000Z-0123abcd.jsonl'), '{}\n');
}

test('data in the name-only layout of earlier versions is given to no agent: a run of that name starts empty', (t) => {
  const state = tempDir(t);
  legacyLayout(state);
  for (const agent of [AT_OLD, AT_NEW]) {
    const { data, sessions } = ensureAgentDirectories(state, agent);
    t.deepEqual(readdirSync(data), []);
    t.deepEqual(readdirSync(sessions), []);
  }
  t.deepEqual(listLegacyAgentData(state), [
    {
      name: 'reviewer',
      data: path.join(state, 'agents', 'reviewer', 'data'),
      consents: path.join(state, 'agents', 'reviewer', 'consents'),
      sessions: path.join(state, 'sessions', 'agents', 'reviewer'),
    },
  ]);
});

test('--legacy adopts the name-only data for one source, whole, and the old directories go', (t) => {
  const state = tempDir(t);
  legacyLayout(state);
  adoptLegacyAgentData(state, AT_NEW);
  const home = agentDirectory(state, AT_NEW);
  t.is(readFileSync(path.join(home, 'data', 'notes.md'), 'utf8'), 'old notes');
  t.deepEqual(readdirSync(agentSessionsDirectory(state, AT_NEW)), ['20250101T000000Z-0123abcd.jsonl']);
  t.true(existsSync(path.join(home, 'consents', 'r.json')));
  t.false(existsSync(path.join(state, 'agents', 'reviewer')));
  t.false(existsSync(path.join(state, 'sessions', 'agents', 'reviewer')));
  t.deepEqual(listLegacyAgentData(state), []);
  t.throws(() => adoptLegacyAgentData(state, AT_OLD), { code: 'ZB_DATA_NOT_FOUND' } as never, 'adopted once, by one source');
});

test('an adoption that fails midway is undone: every piece back where it was, no staging directory left', (t) => {
  const state = tempDir(t);
  legacyLayout(state);
  const before = snapshotTree(state, []);
  for (const failAt of ['data', 'consents', 'sessions']) {
    t.throws(
      () =>
        adoptLegacyAgentDataWithSeam(state, AT_NEW, (step) => {
          if (step === failAt) throw new Error(`failed after ${step}`);
        }),
      { message: new RegExp(`failed after ${failAt}`) },
    );
    t.deepEqual(snapshotTree(state, []), before, failAt);
  }
});

test('adopting is refused, changing nothing, when the agent already has data of its own', (t) => {
  const state = tempDir(t);
  legacyLayout(state);
  writeFileSync(path.join(ensureAgentDirectories(state, AT_NEW).data, 'mine.md'), 'new');
  const before = snapshotTree(state, []);
  t.throws(() => adoptLegacyAgentData(state, AT_NEW), { code: 'ZB_DATA_DESTINATION_EXISTS' } as never);
  t.deepEqual(snapshotTree(state, []), before);
});
