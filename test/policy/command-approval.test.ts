// Per-command approval (issue 27 §6, src/policy/command-approval.ts): only a denial
// for a program outside the allowlist is put to the user; approving it waives that
// one check, and the call is decided again with every other check as before.
import test, { type ExecutionContext } from 'ava';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CommandApprovals, type ApprovalAnswer, type ApprovalRequest } from '../../src/policy/command-approval.js';
import { createGateDecider } from '../../src/policy/gate-decider.js';
import type { ToolCall } from '../../src/policy/gate-protocol.js';
import { compileScopes } from '../../src/policy/scopes.js';
import { tempDir } from '../fixtures/temp.js';

function world(t: ExecutionContext) {
  const root = realpathSync(tempDir(t, 'zb-approve-'));
  const ws = path.join(root, 'ws');
  mkdirSync(ws);
  writeFileSync(path.join(ws, 'notes.txt'), 'hello\n');
  const scopes = compileScopes({ read: ['${workspace}'], write: [] }, { workspace: ws, agentData: path.join(root, 'data') });
  const decide = createGateDecider({
    shell: { mode: 'allowlist', allow: ['ls'], scopes, searchPath: ['/usr/bin', '/bin'], trustedDirectories: ['/usr/bin', '/bin'], confined: true },
    skills: new Set(),
  });
  return { ws, decide };
}

let nextId = 1;
const bash = (command: string): ToolCall => ({ type: 'tool.call', id: nextId++, tool: 'bash', input: { command } });

/** An approver that answers from a list and records what it was asked. */
function answering(...answers: ApprovalAnswer[]) {
  const asked: ApprovalRequest[] = [];
  const approvals = new CommandApprovals(async (request) => {
    asked.push(request);
    return answers.shift() ?? 'no';
  });
  return { asked, approvals };
}

const signal = () => new AbortController().signal;

test('a program outside the allowlist is denied as approvable, naming it; allowlisted and never-allowed ones are not approvable', (t) => {
  const { decide } = world(t);
  t.like(decide(bash('cat notes.txt')), { allow: false, code: 'ZB_POLICY_SHELL_NOT_ALLOWED', unlisted: { name: 'cat' } });
  for (const command of ['sudo ls', 'ls /etc', 'eval ls', 'ls $(id)', 'no-such-program-zb x']) {
    const verdict = decide(bash(command));
    t.false(verdict.allow, command);
    t.is(verdict.allow ? undefined : verdict.unlisted, undefined, command);
  }
});

test('approved once: the call is allowed with the program added for it alone, and the next identical call asks again', async (t) => {
  const { decide } = world(t);
  const { asked, approvals } = answering('once', 'no');
  const first = await approvals.decide(bash('cat notes.txt'), decide, signal());
  t.like(first, { allow: true, approved: { tool: 'bash', decision: { approvedPrograms: ['cat'] } } });
  t.like(asked[0], { program: { name: 'cat' }, argv: [['cat', 'notes.txt']] });
  t.deepEqual(approvals.sessionPrograms, []);
  const second = await approvals.decide(bash('cat notes.txt'), decide, signal());
  t.like(second, { allow: false, code: 'ZB_POLICY_SHELL_NOT_ALLOWED' });
  t.is(asked.length, 2);
});

test('approved for the session: later calls of that program are not asked about, another program is', async (t) => {
  const { decide } = world(t);
  const { asked, approvals } = answering('session', 'once');
  t.like(await approvals.decide(bash('cat notes.txt'), decide, signal()), { allow: true });
  t.like(await approvals.decide(bash('cat notes.txt | head -n 1'), decide, signal()), { allow: true });
  t.is(asked.length, 2, 'head was asked about, cat was not');
  t.is(asked[1]!.program.name, 'head');
});

test('a line denied for a scope or an argument rule is denied without asking, even when a program of it is unlisted', async (t) => {
  const { decide } = world(t);
  const { asked, approvals } = answering('session');
  t.like(await approvals.decide(bash('cat /etc/shadow'), decide, signal()), { allow: false, code: 'ZB_POLICY_PATH_OUTSIDE_SCOPE' });
  t.like(await approvals.decide(bash('cat notes.txt && sudo ls'), decide, signal()), { allow: false, code: 'ZB_POLICY_SHELL_NOT_ALLOWED' });
  t.like(await approvals.decide(bash('head notes.txt > out.txt'), decide, signal()), { allow: false });
  t.like(await approvals.decide(bash('sh -c ls'), decide, signal()), { allow: false, code: 'ZB_POLICY_SHELL_ARGUMENT' });
  t.is(asked.length, 0);
});

test('a declined program is denied with the reason; every unlisted program of a line must be approved', async (t) => {
  const { decide } = world(t);
  const { asked, approvals } = answering('once', 'no');
  const verdict = await approvals.decide(bash('cat notes.txt | head -n 1'), decide, signal());
  t.like(verdict, { allow: false, code: 'ZB_POLICY_SHELL_NOT_ALLOWED' });
  t.regex(verdict.allow ? '' : verdict.reason, /"head" .*declined it at the approval prompt/);
  t.deepEqual(
    asked.map((a) => a.program.name),
    ['cat', 'head'],
  );
});

test('an approver that fails denies the call', async (t) => {
  const { decide } = world(t);
  const approvals = new CommandApprovals(async () => {
    throw new Error('terminal gone');
  });
  t.like(await approvals.decide(bash('cat notes.txt'), decide, signal()), { allow: false });
});
