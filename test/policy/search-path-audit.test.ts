// Unconfined, no command runs while any name on the search path is one the agent
// could change (adv27c): a program may start others by name. Confined, only the
// name written is checked. A directory is audited again once it changes. By hand.
import test, { type ExecutionContext } from 'ava';
import { mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { compileScopes } from '../../src/policy/scopes.js';
import { decideShellCommand, type ShellContext } from '../../src/policy/shell-decision.js';
import { writeStubProgram } from '../fixtures/stub-program.js';
import { tempDir } from '../fixtures/temp.js';

function world(t: ExecutionContext) {
  const root = realpathSync(tempDir(t, 'zb-search-audit-'));
  const bin = path.join(root, 'bin');
  const other = path.join(root, 'other');
  const ws = path.join(root, 'ws');
  for (const directory of [bin, other, ws]) mkdirSync(directory);
  writeStubProgram(path.join(bin, 'cat'));
  writeFileSync(path.join(ws, 'node'), 'agent code\n');
  const scopes = compileScopes({ read: ['${workspace}'], write: ['${workspace}'] }, { workspace: ws, agentData: path.join(root, 'data') });
  const context: ShellContext = { mode: 'allowlist', allow: ['cat'], scopes, searchPath: [bin, other], trustedDirectories: [bin, other] };
  return { bin, other, ws, context };
}

test('unconfined, a name nobody writes that links into the workspace stops every command, naming it', (t) => {
  const { other, ws, context } = world(t);
  symlinkSync(path.join(ws, 'node'), path.join(other, 'node'));
  const decision = decideShellCommand('cat f.txt', context);
  t.false(decision.allow);
  if (decision.allow) return;
  t.is(decision.code, 'ZB_POLICY_SHELL_PROGRAM');
  t.true(decision.reason.includes(`${path.join(other, 'node')} is a link leading to ${path.join(ws, 'node')}, inside the write scope \${workspace}`), decision.reason);
});

test('confined, the same search path lets cat run: only the name written is checked', (t) => {
  const { other, ws, context } = world(t);
  symlinkSync(path.join(ws, 'node'), path.join(other, 'node'));
  t.true(decideShellCommand('cat f.txt', { ...context, confined: true }).allow);
});

test('a directory is audited again once a name is added to it, and once the name is gone', (t) => {
  const { other, ws, context } = world(t);
  t.true(decideShellCommand('cat f.txt', context).allow);
  symlinkSync(path.join(ws, 'node'), path.join(other, 'node'));
  t.false(decideShellCommand('cat f.txt', context).allow);
  rmSync(path.join(other, 'node'));
  t.true(decideShellCommand('cat f.txt', context).allow);
});

test('a write scope holding the search directory is the user granting it: not this denial', (t) => {
  const { bin, ws, context } = world(t);
  const inside = path.join(ws, 'bin');
  mkdirSync(inside);
  symlinkSync(path.join(ws, 'node'), path.join(inside, 'node'));
  t.true(decideShellCommand('cat f.txt', { ...context, searchPath: [bin, inside] }).allow);
});
