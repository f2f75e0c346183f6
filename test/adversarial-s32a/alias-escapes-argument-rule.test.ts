// adv27 (issue 27 §6): approval waives allowlist membership only; argument rules must
// still apply. They are keyed by the name as written, not by the program that runs:
// vim's rule denies -c (editors run commands), but ex, view, rview, vimdiff, editor and
// vim.basic are the same binary (/usr/bin/vim.basic on Debian) under names with no
// rule, and pager is less. The user is asked about "ex", told that it "still runs ...
// within the agent's scopes and argument rules", answers once, and `ex -c '!cmd'` runs
// (confined, but with vim's command execution the rule exists to stop). Safe outcome:
// the program is judged by what it is: such a line is denied as vim's is, and nobody
// is asked. Found by listing the links on the fixed PATH whose target has a rule (or is
// denied) under another name: also i386 -> setarch, gmake -> make, git-upload-pack -> git.
import test from 'ava';
import { realpathSync } from 'node:fs';
import { CommandApprovals, type ApprovalRequest } from '../../src/policy/command-approval.js';
import { createGateDecider } from '../../src/policy/gate-decider.js';
import { formatApprovalPrompt } from '../../src/cli/approval-prompt.js';
import { gateWorld } from '../fixtures/gate-world.js';

const cases = [
  // [name as written, the line, what the name is, the program's own name]
  ['ex', "ex -c '!touch pwned' a.txt", '/usr/bin/vim.basic', 'vim'],
  ['view', "view -c '!touch pwned' a.txt", '/usr/bin/vim.basic', 'vim'],
  ['editor', "editor -c '!touch pwned' a.txt", '/usr/bin/vim.basic', 'vim'],
  ['pager', "pager '+!touch pwned' a.txt", '/usr/bin/less', 'less'],
  // setarch is an unchecked runner (never allowed, as is its alias linux64); x86_64 is not known as one.
  ['x86_64', "x86_64 sh -c 'touch pwned'", '/usr/bin/setarch', 'setarch'],
  ['slogin', "slogin -o ProxyCommand='touch pwned' x", '/usr/bin/ssh', 'ssh'],
] as const;

for (const [name, command, target, own] of cases) {
  test(`${name} (${target}) is held to its program's argument rule after approval`, async (t) => {
    // Precondition, not a skip: this machine's ${name} is that program.
    t.is(realpathSync(`/usr/bin/${name}`), target);
    const world = gateWorld(t);
    const shell = { ...world.context, allow: world.context.allow.filter((n) => n !== name && n !== own) };
    const decide = createGateDecider({ shell, skills: new Set() });
    // The same line under the program's own name is denied by its rule (control).
    const control = decide({ id: 1, tool: 'bash', input: { command: command.replace(name, own) } } as never, [own]);
    t.false(control.allow, 'the rule of the program itself denies the line');
    const asked: ApprovalRequest[] = [];
    const approvals = new CommandApprovals(async (request) => {
      asked.push(request);
      return 'once';
    });
    const verdict = await approvals.decide({ id: 2, tool: 'bash', input: { command } } as never, (c, approved) => decide(c, approved), new AbortController().signal);
    t.false(verdict.allow, `${command} was allowed after approving ${name}`);
    t.is(asked.length, 0, 'a line an argument rule denies is never asked about');
  });
}

// fix27: the same holds when a manifest allowlists the alias, and the denial names what really runs.
test('an allowlisted ex is denied as what it is: /usr/bin/vim.basic, under vim rules', (t) => {
  t.is(realpathSync('/usr/bin/ex'), '/usr/bin/vim.basic');
  const world = gateWorld(t);
  const decide = createGateDecider({ shell: { ...world.context, allow: [...world.context.allow, 'ex'] }, skills: new Set() });
  const verdict = decide({ id: 1, tool: 'bash', input: { command: 'ex a.txt' } } as never, []);
  t.false(verdict.allow);
  t.regex(verdict.allow ? '' : verdict.reason, /ex is \/usr\/bin\/vim\.basic: (vim|vi)'s argument rules apply/);
  const runner = decide({ id: 2, tool: 'bash', input: { command: 'x86_64 true' } } as never, ['x86_64']);
  t.regex(runner.allow ? '' : runner.reason, /x86_64 is \/usr\/bin\/setarch, which is \w+: \w+ is never allowed/);
});

test('the approval prompt promises argument rules only to a program that has them', (t) => {
  const ruled = formatApprovalPrompt({ id: 1, program: { name: 'head', program: '/usr/bin/head' }, argv: [['head', 'a.txt']] });
  t.regex(ruled, /argument rules/);
  const unruled = formatApprovalPrompt({ id: 1, program: { name: 'od', program: '/usr/bin/od', noArgumentRule: true }, argv: [['od', 'a.txt']] });
  t.notRegex(unruled, /scopes and argument rules/);
  t.regex(unruled, /nothing checks its arguments; only the sandbox bounds what it does/);
});

test('an unlisted program without an argument rule is put to the user as such; one with a rule is not', (t) => {
  const world = gateWorld(t);
  const decide = createGateDecider({ shell: { ...world.context, allow: world.context.allow.filter((n) => n !== 'tac' && n !== 'head') }, skills: new Set() });
  const unruled = decide({ id: 1, tool: 'bash', input: { command: 'tac a.txt' } } as never, []);
  t.deepEqual(unruled.allow ? undefined : unruled.unlisted, { name: 'tac', program: realpathSync('/usr/bin/tac'), noArgumentRule: true });
  const ruled = decide({ id: 2, tool: 'bash', input: { command: 'head a.txt' } } as never, []);
  t.deepEqual(ruled.allow ? undefined : ruled.unlisted, { name: 'head', program: realpathSync('/usr/bin/head') });
});
