import test from 'ava';
import { findScopesInStateDirectory, type CompiledScopes, type ScopeContext } from '../../src/policy/scopes.js';

const context: ScopeContext = { workspace: '/home/u/proj', agentData: '/s/agents/a/data', stateDirectory: '/s' };

function scopes(roots: readonly string[], over: Partial<ScopeContext> = {}, access: 'read' | 'write' = 'write'): CompiledScopes {
  const compiled = roots.map((root) => ({ declared: `declared:${root}`, root }));
  return { context: { ...context, ...over }, read: access === 'read' ? compiled : [], write: access === 'write' ? compiled : [], warnings: [] };
}

const refused = test.macro({
  exec(t, root: string, over: Partial<ScopeContext> = {}) {
    t.deepEqual(findScopesInStateDirectory(scopes([root], over)), [{ access: 'write', declared: `declared:${root}`, root }]);
  },
  title: (label = '') => `refused: ${label}`,
});
const allowed = test.macro({
  exec(t, root: string, over: Partial<ScopeContext> = {}) {
    t.deepEqual(findScopesInStateDirectory(scopes([root], over)), []);
  },
  title: (label = '') => `not refused: ${label}`,
});

test('${agent_data}/.. (the agent directory)', refused, '/s/agents/a');
test('${agent_data}/../consents', refused, '/s/agents/a/consents');
test('the state directory itself', refused, '/s');
test('the sessions', refused, '/s/sessions/agents/a');
test("another agent's data", refused, '/s/agents/b/data');
test('all agents', refused, '/s/agents');
test('the receipt key', refused, '/s/receipt.key');
test('a sibling whose name starts like the data directory', refused, '/s/agents/a/data2');
test("the agent's own data directory", allowed, '/s/agents/a/data');
test("a path inside the agent's own data directory", allowed, '/s/agents/a/data/notes/x.md');
test('a root that contains the state directory (/)', allowed, '/');
test('a root that contains the state directory (the home directory)', allowed, '/home', { stateDirectory: '/home/u/.local/state/zotbox', agentData: '/home/u/.local/state/zotbox/agents/a/data' });
test('a sibling of the state directory whose name starts the same', allowed, '/s2');
test('the workspace', allowed, '/home/u/proj');
test('without a state directory in the context, nothing', allowed, '/s/agents/a/consents', { stateDirectory: undefined });
test('when the data directory is the state directory, the exception is void', refused, '/s/consents', { agentData: '/s' });
test('when the data directory contains the state directory, the exception is void', refused, '/s/agents/a', { agentData: '/' });
test('when the data directory lies outside the state directory, it exempts nothing inside', refused, '/s/agents/a/data', { agentData: '/elsewhere/data' });

test('read and write scopes are both checked, and each offending one is named with its access', (t) => {
  const compiled: CompiledScopes = {
    context,
    read: [
      { declared: '${workspace}', root: '/home/u/proj' },
      { declared: '${agent_data}/../..', root: '/s/agents' },
    ],
    write: [
      { declared: '${agent_data}', root: '/s/agents/a/data' },
      { declared: '${agent_data}/../consents', root: '/s/agents/a/consents' },
      { declared: '/s/sessions', root: '/s/sessions' },
    ],
    warnings: [],
  };
  t.deepEqual(findScopesInStateDirectory(compiled), [
    { access: 'read', declared: '${agent_data}/../..', root: '/s/agents' },
    { access: 'write', declared: '${agent_data}/../consents', root: '/s/agents/a/consents' },
    { access: 'write', declared: '/s/sessions', root: '/s/sessions' },
  ]);
});
