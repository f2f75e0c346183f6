import test from 'ava';
import { agentDataDirectory, resolveStateDirectory } from '../../../src/host/consent/state-dir.js';

const linux = { homeDirectory: '/home/u', platform: 'linux' as const };

test('ZOTBOX_HOME wins, then XDG_STATE_HOME/zotbox, then ~/.local/state/zotbox', (t) => {
  t.is(resolveStateDirectory({ ...linux, env: { ZOTBOX_HOME: '/srv/zb', XDG_STATE_HOME: '/x' } }), '/srv/zb');
  t.is(resolveStateDirectory({ ...linux, env: { XDG_STATE_HOME: '/x' } }), '/x/zotbox');
  t.is(resolveStateDirectory({ ...linux, env: {} }), '/home/u/.local/state/zotbox');
});

test('empty or relative XDG_STATE_HOME is ignored, as the XDG spec says', (t) => {
  t.is(resolveStateDirectory({ ...linux, env: { XDG_STATE_HOME: '' } }), '/home/u/.local/state/zotbox');
  t.is(resolveStateDirectory({ ...linux, env: { XDG_STATE_HOME: 'relative' } }), '/home/u/.local/state/zotbox');
});

test('macOS uses Application Support', (t) => {
  t.is(resolveStateDirectory({ homeDirectory: '/Users/u', platform: 'darwin', env: {} }), '/Users/u/Library/Application Support/zotbox');
});

test('agent data lives under agents/<name>/data', (t) => {
  t.is(agentDataDirectory('/s', 'code-reviewer'), '/s/agents/code-reviewer/data');
});

test('every run gets the agent data and sessions directories, 0700 whatever the umask', async (t) => {
  const { mkdtempSync, rmSync, statSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { ensureAgentDirectories } = await import('../../../src/host/consent/state-dir.js');
  const state = mkdtempSync(`${tmpdir()}/zb-state-`);
  t.teardown(() => rmSync(state, { recursive: true, force: true }));
  const { data, sessions } = ensureAgentDirectories(state, 'demo');
  t.is(data, `${state}/agents/demo/data`);
  t.is(sessions, `${state}/sessions/agents/demo`);
  t.is(statSync(data).mode & 0o777, 0o700);
  t.is(statSync(sessions).mode & 0o777, 0o700);
  t.deepEqual(ensureAgentDirectories(state, 'demo'), { data, sessions }, 'idempotent');
});
