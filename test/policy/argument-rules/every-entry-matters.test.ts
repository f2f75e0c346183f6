// Proves every element of every built-in argument rule is pinned by a
// hand-written case (issue 10 item 7): each single removal (rule-mutations.ts)
// must change the decision of at least one case of that program. A mutation no
// case notices is an element nothing specifies: the test lists them all.
import test from 'ava';
import path from 'node:path';
import { RUNS_PROJECT_CODE_MARK, writeEffectOf } from '../../../src/policy/argument-rules/argument-effects.js';
import { checkWithRule } from '../../../src/policy/argument-rules/check-arguments.js';
import type { ProgramRule } from '../../../src/policy/argument-rules/rule-format.js';
import { BUILT_IN_RULES } from '../../../src/policy/argument-rules/table.js';
import { parseShellCommand } from '../../../src/policy/shell-parse.js';
import { gateWorld, type GateWorld } from '../../fixtures/gate-world.js';
import { ALL_CASES } from './all-cases.js';
import { contextOf, type GateCase } from './gate-cases.js';
import { ruleMutations } from './rule-mutations.js';

/**
 * Elements a second, stricter check repeats on purpose, so removing one alone
 * changes no decision. Each names the check that covers it.
 */
const COVERED_TWICE = new Map<string, string>([
  ['cp: without a distinct last positional', 'copy-effects decides every name cp writes'],
  ['cp: last positional unchecked', 'copy-effects decides every name cp writes'],
  ['cp: with makes-symbolic-links: last positional unchecked', 'copy-effects decides every name cp writes'],
  ['cp: with makes-hard-links: without a distinct last positional', 'copy-effects decides every name cp writes'],
  ['cp: with makes-hard-links: last positional unchecked', 'copy-effects decides every name cp writes'],
  ['git: init: leading positional 1 unchecked', 'git-effects decides the directory git init writes'],
]);

interface ProgramCase {
  readonly args: readonly string[];
  readonly scopes: GateWorld['context']['scopes'];
  readonly net: GateWorld['context']['net'];
  readonly cwd: string;
}

/** The cases that are one command of `program`, after at most one cd, as argv, each with the scopes and directory it is decided in. */
function casesOf(world: GateWorld, program: string, cases: readonly GateCase[]): ProgramCase[] {
  const found: ProgramCase[] = [];
  for (const c of cases) {
    const parsed = parseShellCommand(world.expand(c.command));
    if (!parsed.ok) continue;
    const items = parsed.ast.items.map((item) => item.pipeline.commands);
    const cd = items.length === 2 && items[0]!.length === 1 && items[0]![0]!.argv[0] === 'cd' ? items[0]![0]!.argv[1] : undefined;
    if (items.length !== (cd === undefined ? 1 : 2)) continue;
    const commands = items[items.length - 1]!;
    if (commands.length !== 1 || path.basename(commands[0]!.argv[0]!) !== program) continue;
    const context = contextOf(world, c);
    found.push({ args: commands[0]!.argv.slice(1), scopes: context.scopes, net: context.net, cwd: cd === undefined ? world.W : path.resolve(world.W, cd) });
  }
  return found;
}

function outcomes(world: GateWorld, program: string, rule: ProgramRule, cases: readonly ProgramCase[]): string[] {
  return cases.map((c) => {
    const checked = checkWithRule(program, rule, c.args, { scopes: c.scopes, cwd: c.cwd, ...(c.net === undefined ? {} : { net: c.net }) });
    // What an allowed command writes is part of its decision: a pipeline may not hold one that changes names.
    return checked.ok ? `allow, writes ${writeEffectOf(checked.value)}${checked.value.marks.has(RUNS_PROJECT_CODE_MARK) ? ', runs project code' : ''}` : checked.code;
  });
}

test('removing any element of any built-in rule changes the decision of some hand-written case', (t) => {
  const world = gateWorld(t);
  const unnoticed: string[] = [];
  let mutations = 0;
  for (const [program, rule] of BUILT_IN_RULES) {
    // find's expression has a parser of its own; find.test.ts specifies its primaries one by one.
    if (rule.parser !== undefined) continue;
    const cases = casesOf(world, program, ALL_CASES);
    const baseline = outcomes(world, program, rule, cases);
    for (const mutation of ruleMutations(rule)) {
      mutations += 1;
      const what = `${program}: ${mutation.what}`;
      if (COVERED_TWICE.has(what)) continue;
      // A change under a subcommand can only show in a command that names it (a filter that never drops such a command).
      const relevant = cases.flatMap((c, index) => (mutation.under.every((word) => c.args.includes(word)) ? [index] : []));
      const changed = outcomes(
        world,
        program,
        mutation.rule,
        relevant.map((index) => cases[index]!),
      );
      if (changed.every((outcome, at) => outcome === baseline[relevant[at]!])) unnoticed.push(what);
    }
  }
  t.log(`${BUILT_IN_RULES.size} rules, ${mutations} single removals, ${mutations - unnoticed.length} noticed (${COVERED_TWICE.size} covered twice on purpose)`);
  t.deepEqual(unnoticed, []);
});
