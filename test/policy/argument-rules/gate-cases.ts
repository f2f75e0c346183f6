// The shape of the hand-written decision cases for the argument rules (issue 10
// item 7), and the runner that checks a list of them against the gate in the
// world of test/fixtures/gate-world.ts. Expectations are written by hand, never
// derived from the rule table; one run reports every mismatch.
import type { ExecutionContext } from 'ava';
import type { ErrorCode } from '../../../src/errors.js';
import { decideShellCommand } from '../../../src/policy/shell-decision.js';
import { gateWorld, type GateWorld } from '../../fixtures/gate-world.js';

export interface GateCase {
  /** The command, with $W, $R, $S for the world's directories. */
  readonly command: string;
  readonly expect: 'allow' | ErrorCode;
  /** Which context decides it: the default (W writable), W/CHANGELOG.md the only write scope (with or without W/.git), only R readable (commands still start in W), or confinement off. */
  readonly world?: 'default' | 'changelog-only' | 'git-and-changelog' | 'read-only-r' | 'unconfined';
  /** Why, for a denial: what the command would do. */
  readonly why?: string;
}

/** The context a case is decided in. */
export function contextOf(world: GateWorld, c: GateCase): GateWorld['context'] {
  if (c.world === 'changelog-only') return world.changelogOnly;
  if (c.world === 'read-only-r') return world.readOnlyR;
  if (c.world === 'git-and-changelog') return world.gitAndChangelog;
  return c.world === 'unconfined' ? world.unconfined : world.context;
}

/** The same cases for each of several programs: "{}" in a command stands for the program's name. */
export function each(names: readonly string[], cases: readonly GateCase[], placeholder = '{}'): GateCase[] {
  return names.flatMap((name) => cases.map((c) => ({ ...c, command: c.command.replaceAll(placeholder, name) })));
}

export function decideCase(world: GateWorld, c: GateCase): { allow: true } | { allow: false; code: string; reason: string } {
  const context = contextOf(world, c);
  const decision = decideShellCommand(world.expand(c.command), context);
  return decision.allow ? { allow: true } : { allow: false, code: decision.code, reason: decision.reason };
}

/** Decides every case and fails once, listing each mismatch. */
export function checkCases(t: ExecutionContext, cases: readonly GateCase[]): void {
  const world = gateWorld(t);
  const mismatches: string[] = [];
  for (const c of cases) {
    const got = decideCase(world, c);
    const actual = got.allow ? 'allow' : got.code;
    if (actual !== c.expect) mismatches.push(`${c.command}${c.world === undefined ? '' : ` [${c.world}]`}: expected ${c.expect}, got ${actual}${got.allow ? '' : ` (${got.reason})`}`);
  }
  t.log(`${cases.length} cases, ${cases.length - mismatches.length} as expected`);
  t.deepEqual(mismatches, []);
}
