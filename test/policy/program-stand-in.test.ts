// Unconfined, a ruled name whose file stands in for another program (a shell script,
// a version manager's dispatcher) is denied as a program without a rule (adv27c);
// confined it is allowed, the sandbox bounding it. Outcomes by hand.
import test, { type ExecutionContext } from 'ava';
import { chmodSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { compileScopes } from '../../src/policy/scopes.js';
import { decideShellCommand, type ShellContext } from '../../src/policy/shell-decision.js';
import { writeStubProgram } from '../fixtures/stub-program.js';
import { tempDir } from '../fixtures/temp.js';

function world(t: ExecutionContext) {
  const root = realpathSync(tempDir(t, 'zb-stand-in-'));
  const bin = path.join(root, 'bin');
  const ws = path.join(root, 'ws');
  const tools = path.join(root, 'tools');
  for (const directory of [bin, ws, tools]) mkdirSync(directory);
  const scopes = compileScopes({ read: ['${workspace}'], write: ['${workspace}'] }, { workspace: ws, agentData: path.join(root, 'data') });
  const context: ShellContext = { mode: 'allowlist', allow: ['cat', 'jq'], scopes, searchPath: [bin], trustedDirectories: [bin] };
  const script = (name: string, text: string) => {
    writeFileSync(path.join(bin, name), text);
    chmodSync(path.join(bin, name), 0o755);
  };
  return { bin, tools, context, script };
}

function codeOf(command: string, context: ShellContext): string {
  const decision = decideShellCommand(command, context);
  return decision.allow ? 'allow' : decision.code;
}

test('a binary is the program its rule describes, unconfined too', (t) => {
  const { bin, context } = world(t);
  writeStubProgram(path.join(bin, 'cat'));
  t.is(codeOf('cat f.txt', context), 'allow');
});

test('unconfined, shell scripts of every spelling are stand-ins: denied as without a rule', (t) => {
  const { context, script } = world(t);
  for (const text of [
    '#!/bin/sh\nexec cat "$@"\n',
    '#!/bin/bash -e\n',
    '#!/usr/bin/env bash\n',
    '#!/usr/bin/env -S dash -e\n',
    '#!/usr/bin/env -u HOME bash\n',
    '#!/usr/bin/env --chdir=/ sh\n',
    'exec cat "$@"\n',
  ]) {
    script('cat', text);
    t.is(codeOf('cat f.txt', context), 'ZB_POLICY_SHELL_NO_RULE', JSON.stringify(text));
  }
});

test('unconfined, a Python script is a stand-in: Python imports what its .pth files name at every start', (t) => {
  const { context, script } = world(t);
  for (const text of ['#!/opt/venv/bin/python3\n', '#!/usr/bin/env python3.11\n', '#!/usr/bin/pypy3 -E\n']) {
    script('jq', text);
    t.is(codeOf('jq .', context), 'ZB_POLICY_SHELL_NO_RULE', JSON.stringify(text));
  }
});

test('a #! line naming a non-shell interpreter is not a stand-in', (t) => {
  const { context, script } = world(t);
  script('cat', '#!/usr/bin/env node\n');
  t.is(codeOf('cat f.txt', context), 'allow');
});

test('unconfined, a link to a version manager dispatcher binary is a stand-in, whatever its bytes', (t) => {
  for (const dispatcher of ['mise', 'volta-shim', 'corepack']) {
    const { bin, tools, context } = world(t);
    writeStubProgram(path.join(tools, dispatcher));
    symlinkSync(path.join(tools, dispatcher), path.join(bin, 'jq'));
    t.is(codeOf('jq .', context), 'ZB_POLICY_SHELL_NO_RULE', dispatcher);
  }
  const { bin, tools, context } = world(t);
  writeStubProgram(path.join(tools, 'jq'));
  symlinkSync(path.join(tools, 'jq'), path.join(bin, 'jq'));
  t.is(codeOf('jq .', context), 'allow', 'the same link to a binary named jq');
});

test("unconfined, a file in corepack's package is a stand-in", (t) => {
  const { bin, tools, context } = world(t);
  const shim = path.join(tools, 'node_modules', 'corepack', 'dist', 'pnpm.js');
  mkdirSync(path.dirname(shim), { recursive: true });
  writeFileSync(shim, '#!/usr/bin/env node\n');
  chmodSync(shim, 0o755);
  symlinkSync(shim, path.join(bin, 'jq'));
  t.is(codeOf('jq .', context), 'ZB_POLICY_SHELL_NO_RULE');
});

test('confined, a shell-script stand-in is allowed: the sandbox bounds what it runs', (t) => {
  const { context, script } = world(t);
  script('cat', '#!/bin/sh\nexec cat "$@"\n');
  t.is(codeOf('cat f.txt', { ...context, confined: true }), 'allow');
});
