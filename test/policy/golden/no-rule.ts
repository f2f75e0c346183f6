// Golden cases decided in both confinement modes. A program with no argument
// rule (frobnicate, a stub no table can know) may run only confined: its
// arguments cannot be read, so only the sandbox bounds it; unconfined it is
// ZB_POLICY_SHELL_NO_RULE. Everything checked before the rule (assignments, the
// allowlist) decides the same in both modes, and so does a program with a rule.
// Needs ShellContext.confined; until it exists the unconfined cases fail.
import { ARGUMENT, ASSIGNMENT, no, NO_RULE, NOT_ALLOWED, ok, OUTSIDE, type GoldenCase, type GoldenGroup } from './golden-case.js';

const CONFINED = { confined: true } as const;
const UNCONFINED = { confined: false } as const;
const NO_RULE_WHY = 'no argument rule, and commands do not run confined';

function bothModes(command: string): GoldenCase[] {
  return [ok(command, CONFINED), no(NO_RULE, command, NO_RULE_WHY, UNCONFINED)];
}

export const NO_RULE_CASES: readonly GoldenGroup[] = [
  {
    program: 'frobnicate',
    cases: [
      ...bothModes('frobnicate'),
      ...bothModes('frobnicate --anything a.txt'),
      ...bothModes('frobnicate {S}'), // arguments of a program without a rule mean nothing to the gate
      ...bothModes('timeout 5 frobnicate'),
      ...bothModes('env LANG=C frobnicate x'),
      ...bothModes('cat a.txt | frobnicate'),
      no(ASSIGNMENT, 'LD_PRELOAD=/x.so frobnicate', 'assignments are checked first', CONFINED),
      no(ASSIGNMENT, 'LD_PRELOAD=/x.so frobnicate', 'assignments are checked first', UNCONFINED),
      no(NOT_ALLOWED, 'frobnicate', 'not in the allowlist', { allow: 'no-frobnicate', confined: true }),
      no(NOT_ALLOWED, 'frobnicate', 'not in the allowlist', { allow: 'no-frobnicate', confined: false }),
    ],
  },
  {
    program: 'unconfined',
    cases: [
      // Their confined decisions are in their own groups.
      ok('cat a.txt', UNCONFINED),
      ok('git status', UNCONFINED),
      no(ARGUMENT, 'sort -o sorted.txt a.txt', 'sort writes only to standard output (gate-rules: sort -o)', UNCONFINED),
      no(OUTSIDE, 'cat {S}', 'reads the secret', UNCONFINED),
      no(ARGUMENT, 'sort -o {O}/x a.txt', 'sort writes only to standard output (gate-rules: sort -o)', UNCONFINED),
    ],
  },
];
