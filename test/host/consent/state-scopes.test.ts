import test from 'ava';
import { mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { ZotboxError } from '../../../src/errors.js';
import { compileScopes } from '../../../src/policy/scopes.js';
import { ensureAgentDirectories } from '../../../src/host/consent/agent-directory.js';
import { agentDirectoryName } from '../../../src/host/consent/agent-identity.js';
import { canonicalStateContext, refuseScopesInStateDirectory } from '../../../src/host/consent/state-scopes.js';
import { tempDir } from '../../fixtures/temp.js';

const DEMO = { name: 'demo', source: { kind: 'local', path: '/agents/demo' } } as const;

/** A real state directory, reached through a symlink as $ZOTBOX_HOME may be. */
function linkedState(t: Parameters<typeof tempDir>[0]) {
  const root = realpathSync(tempDir(t, 'zb-state-scopes-'));
  mkdirSync(path.join(root, 'real'));
  symlinkSync(path.join(root, 'real'), path.join(root, 'link'));
  const workspace = path.join(root, 'ws');
  mkdirSync(workspace);
  const { data } = ensureAgentDirectories(path.join(root, 'link'), DEMO);
  return { root, real: path.join(root, 'real'), state: path.join(root, 'link'), data, workspace };
}

test('the state and data directories are canonicalized, through symlinks and below missing directories', (t) => {
  const { real, state, data, root } = linkedState(t);
  t.deepEqual(canonicalStateContext(state, data), { stateDirectory: real, agentData: path.join(real, 'agents', agentDirectoryName(DEMO), 'data') });
  const missing = path.join(state, 'not', 'yet');
  t.deepEqual(canonicalStateContext(missing, path.join(missing, 'agents/x/data')), { stateDirectory: path.join(real, 'not/yet'), agentData: path.join(real, 'not/yet/agents/x/data') });
  t.is(t.throws(() => canonicalStateContext(`${root}/ws/missing/../x`, '/d'), { instanceOf: ZotboxError }).code, 'ZB_IO_FAILED');
});

test('${agent_data}/../consents is refused with ZB_SCOPE_STATE_DIRECTORY, naming the scope, where it resolves and the fix', (t) => {
  const { real, state, data, workspace } = linkedState(t);
  const scopes = compileScopes({ read: ['${workspace}'], write: ['${agent_data}/../consents'] }, { workspace, ...canonicalStateContext(state, data) });
  const error = t.throws(() => refuseScopesInStateDirectory(scopes), { instanceOf: ZotboxError });
  t.is(error.code, 'ZB_SCOPE_STATE_DIRECTORY');
  t.deepEqual(error.details, {
    stateDirectory: real,
    agentData: path.join(real, 'agents', agentDirectoryName(DEMO), 'data'),
    scopes: [{ access: 'write', declared: '${agent_data}/../consents', root: path.join(real, 'agents', agentDirectoryName(DEMO), 'consents') }],
  });
  t.true(error.message.includes(`"\${agent_data}/../consents" (permissions.fs.write) resolves to ${path.join(real, 'agents', agentDirectoryName(DEMO), 'consents')}`));
  t.regex(error.message, /Fix: .*\$\{agent_data\}/);
});

test('a scope that reaches the state directory only through a symlink is refused', (t) => {
  const { real, state, data, workspace } = linkedState(t);
  symlinkSync(path.join(real, 'agents'), path.join(workspace, 'innocent'));
  const scopes = compileScopes({ read: ['${workspace}/innocent'], write: [] }, { workspace, ...canonicalStateContext(state, data) });
  t.is(t.throws(() => refuseScopesInStateDirectory(scopes)).message.includes(`resolves to ${path.join(real, 'agents')}`), true);
});

test("the agent's own data directory, the workspace, and scopes that contain the state directory pass", (t) => {
  const { root, state, data, workspace } = linkedState(t);
  const scopes = compileScopes({ read: ['/', root, '${workspace}'], write: ['${agent_data}', '${agent_data}/notes'] }, { workspace, ...canonicalStateContext(state, data) });
  t.notThrows(() => refuseScopesInStateDirectory(scopes));
});
