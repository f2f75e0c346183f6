// The git rule's decisions (git-cases.ts), in the gate world and in the scopes of git-scope-world.ts.
import test from 'ava';
import { checkWithRule } from '../../../src/policy/argument-rules/check-arguments.js';
import { GIT_READS } from '../../../src/policy/argument-rules/git-effects.js';
import type { ProgramRule } from '../../../src/policy/argument-rules/rule-format.js';
import { gateWorld } from '../../fixtures/gate-world.js';
import { checkCases } from './gate-cases.js';
import { GIT_CHANGELOG_CASES, GIT_DEFAULT_WRITER_CASES, GIT_DENIED_CASES, GIT_OPTION_SWEEP, GIT_PATH_CASES, GIT_SCOPE_CASES } from './git-cases.js';
import { checkGitScopeCases } from './git-scope-world.js';

test('git: with write scope only over CHANGELOG.md, nothing else in the repository is rewritten', (t) => {
  checkCases(t, GIT_CHANGELOG_CASES);
});

test('git: everyday writers are allowed where the repository is writable', (t) => {
  checkCases(t, GIT_DEFAULT_WRITER_CASES);
});

test('git: options, subcommands and arguments that run programs or reach elsewhere are denied', (t) => {
  checkCases(t, GIT_DENIED_CASES);
});

test('git: paths in options and arguments are decided like the file tools, from where git runs', (t) => {
  checkCases(t, GIT_PATH_CASES);
});

test('git: effects are checked against scopes that cover .git and the worktree differently', (t) => {
  checkGitScopeCases(t, GIT_SCOPE_CASES);
});

test('git: every listed option is allowed in its everyday spelling', (t) => {
  checkCases(t, GIT_OPTION_SWEEP);
});

test('git: a subcommand whose rule declares no effect is denied, so a rule cannot forget its effects', (t) => {
  const { context, W } = gateWorld(t);
  const withMarks = (marks?: string[]): ProgramRule => ({
    why: 'test',
    options: [],
    positionals: {},
    check: 'git-effects',
    subcommands: { sub: { why: 'test', options: [], positionals: {}, ...(marks === undefined ? {} : { marks }) } },
  });
  t.like(checkWithRule('git', withMarks(), ['sub'], { scopes: context.scopes, cwd: W }), { ok: false, code: 'ZB_POLICY_SHELL_ARGUMENT' });
  t.like(checkWithRule('git', withMarks([GIT_READS]), ['sub'], { scopes: context.scopes, cwd: W }), { ok: true });
});
