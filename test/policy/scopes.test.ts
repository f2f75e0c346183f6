import test, { type ExecutionContext } from 'ava';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ErrorCode } from '../../src/errors.js';
import { decidePathAccess, type PathTool } from '../../src/policy/path-decision.js';
import { compileScopes, findScopesInStateDirectory, type CompiledScopes, type ScopeContext } from '../../src/policy/scopes.js';
import { tempDir } from '../fixtures/temp.js';

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

// A scope may name one file (docs/agents.md, docs/manifest.md): it grants that file, and nothing beside or above it.

/** A workspace holding notes.txt, other.txt and sub/, canonical. */
function fileScopeWorkspace(t: ExecutionContext): string {
  const ws = path.join(realpathSync(tempDir(t, 'zb-scope-')), 'ws');
  mkdirSync(path.join(ws, 'sub'), { recursive: true });
  writeFileSync(path.join(ws, 'notes.txt'), 'n');
  writeFileSync(path.join(ws, 'other.txt'), 'o');
  return ws;
}

function decide(tool: PathTool, requested: string, scopes: CompiledScopes): { allow: boolean; code?: ErrorCode; canonicalPath?: string } {
  const decision = decidePathAccess(tool, requested, scopes);
  return decision.allow ? { allow: true, canonicalPath: decision.canonicalPath } : { allow: false, code: decision.code };
}

test('a read scope naming one file allows reading that file only', (t) => {
  const ws = fileScopeWorkspace(t);
  const scopes = compileScopes({ read: ['${workspace}/notes.txt'], write: [] }, { workspace: ws, agentData: path.join(ws, '..', 'data') });
  t.deepEqual(scopes.read, [{ declared: '${workspace}/notes.txt', root: path.join(ws, 'notes.txt') }]);
  t.deepEqual(scopes.warnings, []);
  t.deepEqual(decide('read', 'notes.txt', scopes), { allow: true, canonicalPath: path.join(ws, 'notes.txt') });
  t.deepEqual(decide('read', path.join(ws, 'notes.txt'), scopes), { allow: true, canonicalPath: path.join(ws, 'notes.txt') });
  t.deepEqual(decide('read', 'other.txt', scopes), { allow: false, code: 'ZB_POLICY_PATH_OUTSIDE_SCOPE' });
  t.deepEqual(decide('read', '.', scopes), { allow: false, code: 'ZB_POLICY_PATH_OUTSIDE_SCOPE' }, 'not the directory it is in');
  t.deepEqual(decide('read', 'sub', scopes), { allow: false, code: 'ZB_POLICY_PATH_OUTSIDE_SCOPE' });
  t.deepEqual(decide('read', 'notes.txt/x', scopes), { allow: false, code: 'ZB_POLICY_PATH_UNRESOLVABLE' }, 'a file has nothing below it');
  t.deepEqual(decide('read', 'notes.txt2', scopes), { allow: false, code: 'ZB_POLICY_PATH_OUTSIDE_SCOPE' }, 'a name that starts the same');
});

test('a file named in both read and write scopes may be edited; its siblings may not be written', (t) => {
  const ws = fileScopeWorkspace(t);
  const scopes = compileScopes({ read: ['notes.txt'], write: ['notes.txt'] }, { workspace: ws, agentData: path.join(ws, '..', 'data') });
  t.deepEqual(decide('edit', 'notes.txt', scopes), { allow: true, canonicalPath: path.join(ws, 'notes.txt') });
  t.deepEqual(decide('write', 'notes.txt', scopes), { allow: true, canonicalPath: path.join(ws, 'notes.txt') });
  t.deepEqual(decide('write', 'other.txt', scopes), { allow: false, code: 'ZB_POLICY_PATH_OUTSIDE_SCOPE' });
  t.deepEqual(decide('write', 'new.txt', scopes), { allow: false, code: 'ZB_POLICY_PATH_OUTSIDE_SCOPE' });
});

test('a write scope naming a path that does not exist yet allows creating it, and, until it exists as a file, paths below it', (t) => {
  const ws = fileScopeWorkspace(t);
  const scopes = compileScopes({ read: [], write: ['${workspace}/report.md'] }, { workspace: ws, agentData: path.join(ws, '..', 'data') });
  t.deepEqual(scopes.write, [{ declared: '${workspace}/report.md', root: path.join(ws, 'report.md') }]);
  t.deepEqual(decide('write', 'report.md', scopes), { allow: true, canonicalPath: path.join(ws, 'report.md') });
  t.deepEqual(decide('write', 'report.md/part.md', scopes), { allow: true, canonicalPath: path.join(ws, 'report.md', 'part.md') });
  writeFileSync(path.join(ws, 'report.md'), 'r');
  t.deepEqual(decide('write', 'report.md/part.md', scopes), { allow: false, code: 'ZB_POLICY_PATH_UNRESOLVABLE' }, 'once it is a file, nothing is below it');
});
