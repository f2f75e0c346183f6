// The entry point of the closed-world argument rules: finds a program's rule,
// reads its argv (parse-arguments.ts, or the program's own parser), checks every
// value by kind (value-kinds.ts) and runs the rule's named check. A program the
// table does not know has no rule: the caller decides whether it may run at all.
import { deny as no, type Check } from '../shell-check.js';
import { RUNS_PROJECT_CODE_MARK, writeEffectOf, type WriteEffect } from './argument-effects.js';
import { checkCopyEffects } from './copy-effects.js';
import { parseFindExpression } from './find-expression.js';
import { checkGitEffects } from './git-effects.js';
import { parseArguments, type ParsedArguments } from './parse-arguments.js';
import type { NamedCheck, NamedParser, ProgramRule } from './rule-format.js';
import { checkNoResponseFiles } from './response-files.js';
import { INTERPRETER_ALIASES } from './table-interpreters.js';
import { BUILT_IN_RULES } from './table.js';
import { checkArgumentValues, moveWorkingDirectory, type ArgumentContext } from './value-kinds.js';

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
  // git -C DIR: everything after is decided from DIR, as git reads it from there.
  const moved = moveWorkingDirectory(name, parsed.value, context.cwd, context);
  if (!moved.ok) return moved;
  const from: ArgumentContext = { ...context, cwd: moved.value };
  const values = checkArgumentValues(name, parsed.value, from);
  if (!values.ok) return values;
  const named = parsed.value.rule.check ?? rule.check;
  // Those checks look at each file named (cp's sources and destination, git's pathspecs), which "{}" does not name yet.
  if (context.found !== undefined && named !== undefined && named !== 'no-response-files' && parsed.value.positionals.includes('{}')) {
    return no(
      'ZB_POLICY_SHELL_ARGUMENT',
      `${name}: zotbox checks ${name}'s effects file by file, and {} names no file until find runs; run find to list the files, then ${name} on them in a separate command.`,
    );
  }
  const checked = named === undefined ? values : CHECKS[named](name, parsed.value, from);
  return checked.ok ? parsed : checked;
}

/** The rule of the interpreter `name` is another name of (python3.12 for python3), when the table has no rule of its own for it. */
function ruleOfAlias(name: string, rules: ReadonlyMap<string, ProgramRule>): ProgramRule | undefined {
  const alias = INTERPRETER_ALIASES.find(([pattern]) => pattern.test(name));
  return alias === undefined ? undefined : rules.get(alias[1]);
}

/** The built-in rule a program name is decided by: its own, or its interpreter family's (python3.11 -> python3). */
export function builtInRuleOf(name: string): ProgramRule | undefined {
  return BUILT_IN_RULES.get(name) ?? ruleOfAlias(name, BUILT_IN_RULES);
}

export type ArgumentOutcome = { readonly rule: 'ruled'; readonly writes: WriteEffect; readonly runsProjectCode: boolean } | { readonly rule: 'none' };

/**
 * 'ruled' (with what it writes) when the built-in table has a rule for `name`
 * and the arguments pass it; 'none' when it has no rule (the program may then run only confined).
 */
export function checkProgramArguments(name: string, args: readonly string[], context: ArgumentContext, rules: ReadonlyMap<string, ProgramRule> = BUILT_IN_RULES): Check<ArgumentOutcome> {
  const rule = rules.get(name) ?? ruleOfAlias(name, rules);
  if (rule === undefined) return { ok: true, value: { rule: 'none' } };
  const checked = checkWithRule(name, rule, args, context);
  return checked.ok ? { ok: true, value: { rule: 'ruled', writes: writeEffectOf(checked.value), runsProjectCode: checked.value.marks.has(RUNS_PROJECT_CODE_MARK) } } : checked;
}
