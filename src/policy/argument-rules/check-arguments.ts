// The entry point of the closed-world argument rules: finds a program's rule,
// reads its argv (parse-arguments.ts, or the program's own parser), checks every
// value by kind (value-kinds.ts) and runs the rule's named check. A program the
// table does not know has no rule: the caller decides whether it may run at all.
import type { Check } from '../shell-check.js';
import { RUNS_PROJECT_CODE_MARK, writeEffectOf, type WriteEffect } from './argument-effects.js';
import { checkCopyEffects } from './copy-effects.js';
import { parseFindExpression } from './find-expression.js';
import { checkGitEffects } from './git-effects.js';
import { parseArguments, type ParsedArguments } from './parse-arguments.js';
import type { NamedCheck, NamedParser, ProgramRule } from './rule-format.js';
import { checkNoResponseFiles } from './response-files.js';
import { BUILT_IN_RULES } from './table.js';
import { checkArgumentValues, type ArgumentContext } from './value-kinds.js';

export type { ArgumentContext };

const PARSERS: Record<NamedParser, (name: string, args: readonly string[], context: ArgumentContext) => Check<ParsedArguments>> = {
  'find-expression': parseFindExpression,
};

const CHECKS: Record<NamedCheck, (name: string, parsed: ParsedArguments, context: ArgumentContext) => Check<null>> = {
  'git-effects': checkGitEffects,
  'copy-effects': checkCopyEffects,
  'no-response-files': checkNoResponseFiles,
};

/** Checks argv[1..] of `name` against `rule`; what it read, when allowed. Never throws. */
export function checkWithRule(name: string, rule: ProgramRule, args: readonly string[], context: ArgumentContext): Check<ParsedArguments> {
  const parsed = rule.parser === undefined ? parseArguments(name, rule, args, context.cwd) : PARSERS[rule.parser](name, args, context);
  if (!parsed.ok) return parsed;
  const values = checkArgumentValues(name, parsed.value, context);
  if (!values.ok) return values;
  const named = parsed.value.rule.check ?? rule.check;
  const checked = named === undefined ? values : CHECKS[named](name, parsed.value, context);
  return checked.ok ? parsed : checked;
}

export type ArgumentOutcome = { readonly rule: 'ruled'; readonly writes: WriteEffect; readonly runsProjectCode: boolean } | { readonly rule: 'none' };

/**
 * 'ruled' (with what it writes) when the built-in table has a rule for `name`
 * and the arguments pass it; 'none' when it has no rule (the program may then run only confined).
 */
export function checkProgramArguments(name: string, args: readonly string[], context: ArgumentContext, rules: ReadonlyMap<string, ProgramRule> = BUILT_IN_RULES): Check<ArgumentOutcome> {
  const rule = rules.get(name);
  if (rule === undefined) return { ok: true, value: { rule: 'none' } };
  const checked = checkWithRule(name, rule, args, context);
  return checked.ok ? { ok: true, value: { rule: 'ruled', writes: writeEffectOf(checked.value), runsProjectCode: checked.value.marks.has(RUNS_PROJECT_CODE_MARK) } } : checked;
}
