// Every way to take one element out of a rule (issue 10 item 7: "removing any
// one allowed or denied element makes some test fail"): an option, the mark an
// option sets, the check a value kind makes, a positional slot, a subcommand, a
// flag. Used by every-entry-matters.test.ts; it knows the rule format only.
import type { OptionRule, PositionalRule, ProgramRule, ValueKind } from '../../../src/policy/argument-rules/rule-format.js';

export interface Mutation {
  readonly what: string;
  readonly rule: ProgramRule;
  /** The subcommands it sits under: only a command naming them can notice it. */
  readonly under: readonly string[];
}

/**
 * Kinds whose check guards access (paths, links, URLs, program text, and the
 * combinations that hold them): turning one into free text must change a decision.
 * Shapes of harmless words (numbers, sizes, choices, patterns) are pinned by the
 * family tests, not here.
 */
function checks(kind: ValueKind | undefined): boolean {
  if (kind === undefined) return false;
  if (typeof kind === 'string') return !['literal', 'pattern', 'number', 'size', 'module-name'].includes(kind);
  if ('choices' in kind) return false;
  if ('matches' in kind) return kind.path !== undefined;
  if ('byMark' in kind) return [kind.otherwise, ...kind.byMark.map(([, k]) => k)].some(checks);
  return ('allOf' in kind ? kind.allOf : kind.anyOf).some(checks);
}

function spell(o: OptionRule): string {
  return [o.short && `-${o.short}`, o.long && `--${o.long}`, o.word && `-${o.word}`].filter(Boolean).join('/');
}

function* optionMutations(rule: ProgramRule): Generator<{ readonly what: string; readonly rule: ProgramRule }> {
  for (const [index, option] of rule.options.entries()) {
    const others = rule.options.filter((_, i) => i !== index);
    yield { what: `without option ${spell(option)}`, rule: { ...rule, options: others } };
    if (option.sets !== undefined) {
      const { sets: _dropped, ...unmarked } = option;
      yield { what: `option ${spell(option)} without its mark ${option.sets}`, rule: { ...rule, options: [...others.slice(0, index), unmarked, ...others.slice(index)] } };
    }
    if (checks(option.value))
      yield { what: `option ${spell(option)} with its value unchecked`, rule: { ...rule, options: [...others.slice(0, index), { ...option, value: 'literal' }, ...others.slice(index)] } };
    if (option.selectsOtherwise !== undefined) {
      const { selectsOtherwise: otherwise, ...closed } = option;
      yield { what: `option ${spell(option)} without its other names`, rule: { ...rule, options: [...others.slice(0, index), closed, ...others.slice(index)] } };
      if (checks(otherwise.value)) {
        const unchecked = { ...option, selectsOtherwise: { ...otherwise, value: 'literal' as const } };
        yield { what: `option ${spell(option)} with its other names unchecked`, rule: { ...rule, options: [...others.slice(0, index), unchecked, ...others.slice(index)] } };
      }
    }
  }
}

function* positionalMutations(p: PositionalRule): Generator<readonly [string, PositionalRule]> {
  for (const [index, kind] of (p.leading ?? []).entries()) {
    if (checks(kind)) yield [`leading positional ${index + 1} unchecked`, { ...p, leading: p.leading!.map((k, i) => (i === index ? 'literal' : k)) }];
    yield [`without leading positional ${index + 1}`, { ...p, leading: p.leading!.filter((_, i) => i !== index) }];
  }
  if (p.rest !== undefined) {
    const { rest: _rest, ...noRest } = p;
    yield ['without further positionals', noRest];
    if (checks(p.rest)) yield ['further positionals unchecked', { ...p, rest: 'literal' }];
  }
  if (p.last !== undefined) {
    const { last: _last, ...noLast } = p;
    yield ['without a distinct last positional', noLast];
    if (checks(p.last)) yield ['last positional unchecked', { ...p, last: 'literal' }];
  }
  if (p.lastImpliedFromSingle === true) yield ['without the implied destination', { ...p, lastImpliedFromSingle: false }];
  if ((p.min ?? 0) > 0) yield ['without a minimum count', { ...p, min: 0 }];
}

function* flagMutations(rule: ProgramRule): Generator<{ readonly what: string; readonly rule: ProgramRule }> {
  if (rule.permute === false) yield { what: 'with GNU permutation', rule: { ...rule, permute: true } };
  if (rule.numericOption === true) yield { what: 'without -NUMBER', rule: { ...rule, numericOption: false } };
  if (rule.oldStyleKeys === true) yield { what: 'without old-style keys', rule: { ...rule, oldStyleKeys: false } };
  if (rule.check !== undefined) {
    const { check: _check, ...unchecked } = rule;
    yield { what: `without the ${rule.check} check`, rule: unchecked };
  }
  for (const mark of rule.marks ?? []) yield { what: `without the mark ${mark}`, rule: { ...rule, marks: rule.marks!.filter((m) => m !== mark) } };
}

/** Every single-element removal of `rule`, subcommands included (each inside its parent). */
export function* ruleMutations(rule: ProgramRule, under: readonly string[] = []): Generator<Mutation> {
  const at = (what: string) => (under.length === 0 ? what : `${under.join(' ')}: ${what}`);
  for (const m of optionMutations(rule)) yield { what: at(m.what), rule: m.rule, under };
  for (const [what, positionals] of positionalMutations(rule.positionals)) yield { what: at(what), rule: { ...rule, positionals }, under };
  for (const [index, [mark, positionals]] of (rule.flagPositionals ?? []).entries()) {
    const entries = rule.flagPositionals!;
    const marked = typeof mark === 'string' ? mark : mark.join(' and ');
    yield { what: at(`without the positionals for ${marked}`), rule: { ...rule, flagPositionals: entries.filter((_, i) => i !== index) }, under };
    for (const [what, mutated] of positionalMutations(positionals)) {
      yield { what: at(`with ${marked}: ${what}`), rule: { ...rule, flagPositionals: entries.map((e, i) => (i === index ? ([mark, mutated] as const) : e)) }, under };
    }
  }
  for (const m of flagMutations(rule)) yield { what: at(m.what), rule: m.rule, under };
  for (const [name, sub] of Object.entries(rule.subcommands ?? {})) {
    const others = Object.fromEntries(Object.entries(rule.subcommands!).filter(([n]) => n !== name));
    // The bare rule ('') applies when no subcommand is named, so any command may notice it.
    const inner = name === '' ? under : [...under, name];
    yield { what: at(`without subcommand ${name === '' ? '(none)' : name}`), rule: { ...rule, subcommands: others }, under: inner };
    for (const m of ruleMutations(sub, inner)) yield { what: m.what, rule: { ...rule, subcommands: { ...rule.subcommands, [name]: m.rule } }, under: m.under };
  }
}
