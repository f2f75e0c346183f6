// adv27 (issue 27 §6): the prompt must show the parsed command as it runs. A bash line
// with leading assignments (LC_ALL=C head ...) runs head with LC_ALL=C in its
// environment, but the prompt lists only argv: the assignments the gate allowed are
// not shown. Safe outcome: the prompt shows each command's assignments too.
import test from 'ava';
import { CommandApprovals, type ApprovalRequest } from '../../src/policy/command-approval.js';
import { createGateDecider } from '../../src/policy/gate-decider.js';
import { formatApprovalPrompt } from '../../src/cli/approval-prompt.js';
import { gateWorld } from '../fixtures/gate-world.js';

test('the approval prompt shows the assignments of the command it asks about', async (t) => {
  const world = gateWorld(t);
  // head is on the fixed PATH; left out of the allowlist, it is approvable.
  const shell = { ...world.context, allow: world.context.allow.filter((name) => name !== 'head') };
  const decide = createGateDecider({ shell, skills: new Set() });
  const asked: ApprovalRequest[] = [];
  const approvals = new CommandApprovals(async (request) => {
    asked.push(request);
    return 'once';
  });
  const call = { id: 7, tool: 'bash', input: { command: 'LC_ALL=C head -n 1 a.txt' } } as const;
  const verdict = await approvals.decide(call as never, (c, approved) => decide(c, approved), new AbortController().signal);
  t.true(verdict.allow, 'the line is allowed once head is approved (precondition)');
  t.is(asked.length, 1);
  const prompt = formatApprovalPrompt(asked[0]!);
  t.regex(prompt, /command 1: "LC_ALL=C" "head"/, `the prompt does not show the assignment that runs with head:\n${prompt}`);
});

test('assignments are shown escaped, before the program they run with', (t) => {
  const prompt = formatApprovalPrompt({
    id: 1,
    program: { name: 'head', program: '/usr/bin/head' },
    argv: [['head', 'a.txt'], ['wc']],
    assignments: [['LC_ALL=C', 'X=\u001b[31mred'], []],
  });
  t.true(prompt.includes('│ command 1: "LC_ALL=C" "X=\\u001b[31mred" "head"'), prompt);
  t.true(prompt.includes('│ command 2: "wc"'), prompt);
  t.false(prompt.includes('\u001b'), 'no raw escape reaches the terminal');
});
