// A program found outside the write scopes whose file is inside one (through a link)
// is denied (adv27b): the agent could change what runs under the allowlisted name.
import test, { type ExecutionContext } from 'ava';
import { chmodSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { compileScopes } from '../../src/policy/scopes.js';
import { decideShellCommand, type ShellContext } from '../../src/policy/shell-decision.js';
import { tempDir } from '../fixtures/temp.js';

function world(t: ExecutionContext, write: string[] = ['${workspace}']): { context: ShellContext; bin: string; ws: string } {
  const root = realpathSync(tempDir(t, 'zb-program-location-'));
  const bin = path.join(root, 'bin');
  const ws = path.join(root, 'ws');
  mkdirSync(bin);
  mkdirSync(ws);
  for (const file of [path.join(bin, 'ls'), path.join(ws, 'jq')]) {
    writeFileSync(file, '#!/bin/sh\n');
    chmodSync(file, 0o755);
  }
  symlinkSync(path.join(ws, 'jq'), path.join(bin, 'jq')); // the user's link to a build output in the project
  const scopes = compileScopes({ read: ['${workspace}'], write }, { workspace: ws, agentData: path.join(root, 'data') });
  return { context: { mode: 'allowlist', allow: ['jq', 'ls'], scopes, searchPath: [bin], trustedDirectories: [bin], confined: true }, bin, ws };
}

test('an allowlisted name linked into a write scope is denied, naming the link and the scope', (t) => {
  const { context, bin, ws } = world(t);
  const decision = decideShellCommand('jq . data.json', context);
  t.false(decision.allow);
  if (decision.allow) return;
  t.is(decision.code, 'ZB_POLICY_SHELL_PROGRAM');
  t.true(decision.reason.includes(`${path.join(bin, 'jq')} is a link leading to ${path.join(ws, 'jq')}, inside the write scope \${workspace}`), decision.reason);
});

test('the same program in a pipeline, and written as a path, is denied as well', (t) => {
  const { context } = world(t);
  t.false(decideShellCommand('ls | jq .', context).allow);
  t.false(decideShellCommand(`${context.searchPath[0]!}/jq .`, context).allow);
});

test('a name outside the allowlist linked into a write scope is not offered for approval', (t) => {
  const { context } = world(t);
  const decision = decideShellCommand('jq .', { ...context, allow: ['ls'] });
  t.false(decision.allow);
  if (decision.allow) return;
  t.is(decision.code, 'ZB_POLICY_SHELL_PROGRAM');
  t.is(decision.unlisted, undefined);
});

test('a program whose file and directory are both outside the write scopes runs as before', (t) => {
  t.true(decideShellCommand('ls', world(t).context).allow);
});

test('a write scope holding the program directory itself is the user granting it: not this denial', (t) => {
  const { context } = world(t, ['${workspace}/..']);
  t.true(decideShellCommand('jq .', context).allow);
});
