// The gate decider maps each file tool to its own path decision (src/policy/gate-decider.ts):
// edit reads the file before it writes it, so it needs a read scope as well as a write
// scope (path-decision.ts, gate-rules §2); write needs only the write scope.
import test from 'ava';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createGateDecider } from '../../src/policy/gate-decider.js';
import type { ToolCall } from '../../src/policy/gate-protocol.js';
import { compileScopes } from '../../src/policy/scopes.js';
import { tempDir } from '../fixtures/temp.js';

function deciderWith(t: Parameters<typeof tempDir>[0], fs: { read: string[]; write: string[] }) {
  const root = realpathSync(tempDir(t, 'zb-decider-'));
  const ws = path.join(root, 'ws');
  mkdirSync(path.join(ws, 'out'), { recursive: true });
  mkdirSync(path.join(ws, 'docs'));
  writeFileSync(path.join(ws, 'out', 'report.txt'), 'old\n');
  const scopes = compileScopes(fs, { workspace: ws, agentData: path.join(root, 'data') });
  const decide = createGateDecider({ shell: { mode: 'none', allow: [], scopes, searchPath: ['/usr/bin', '/bin'], trustedDirectories: ['/usr/bin', '/bin'] }, skills: new Set() });
  return { ws, decide };
}

const write = (file: string): ToolCall => ({ type: 'tool.call', id: 1, tool: 'write', input: { path: file, content: 'new\n' } });
const edit = (file: string): ToolCall => ({ type: 'tool.call', id: 2, tool: 'edit', input: { path: file, old_string: 'old', new_string: 'new' } });

test('edit of a file in a write scope but outside every read scope is denied, where write of it is allowed', (t) => {
  const { ws, decide } = deciderWith(t, { read: ['${workspace}/docs'], write: ['${workspace}/out'] });
  const file = path.join(ws, 'out', 'report.txt');
  t.like(decide(write(file)), { allow: true, approved: { tool: 'write' } });
  t.like(decide(edit(file)), { allow: false, code: 'ZB_POLICY_PATH_OUTSIDE_SCOPE' });
});

test('edit with no read permission at all is denied for that reason, where write is allowed', (t) => {
  const { ws, decide } = deciderWith(t, { read: [], write: ['${workspace}/out'] });
  const file = path.join(ws, 'out', 'report.txt');
  t.like(decide(write(file)), { allow: true });
  t.like(decide(edit(file)), { allow: false, code: 'ZB_POLICY_NO_PERMISSION' });
});

test('edit inside both a read and a write scope is allowed, and approved as an edit', (t) => {
  const { ws, decide } = deciderWith(t, { read: ['${workspace}'], write: ['${workspace}/out'] });
  t.like(decide(edit(path.join(ws, 'out', 'report.txt'))), { allow: true, approved: { tool: 'edit', decision: { allow: true } } });
});
