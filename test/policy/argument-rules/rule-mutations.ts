// Every way to take one element out of a rule (issue 10 item 7: "removing any
// one allowed or denied element makes some test fail"): an option, the mark an
// option sets, the check a value kind makes, a positional slot, a subcommand, a
// flag. Used by every-entry-matters.test.ts; it knows the rule format only.
import type { OptionRule, PositionalRule, ProgramRule, ValueKind } from '../../../src/policy/argument-rules/rule-format.js';

export interface Mutation {
  readonly what: string;
  readonly rule: ProgramRule;
}

/** Kinds whose check can be taken away by turning them into free text. */
function checks(kind: ValueKind | undefined): boolean {
  return kind !== undefined && kind !== 'literal' && kind !== 'pattern';
}

function spell(o: OptionRule): string {
  return [o.short && `-${o.short}`, o.long && `--${o.long}`, o.word && `-${o.word}`].filter(Boolean).join('/');
}

function* optionMutations(rule: ProgramRule): Generator<Mutation> {
  for (const [index, option] of rule.options.entries()) {
    const others = rule.options.filter((_, i) => i !== index);
    yield { what: `without option ${spell(option)}`, rule: { ...rule, options: others } };
    if (option.sets !== undefined) {
      const { sets: _dropped, ...unmarked } = option;
      yield { what: `option ${spell(option)} without its mark ${option.sets}`, rule: { ...rule, options: [...others.slice(0, index), unmarked, ...others.slice(index)] } };
    }
    if (checks(option.value)) yield { what: `option ${spell(option)} with its value unchecked`, rule: { ...rule, options: [...others.slice(0, index), { ...option, value: 'literal' }, ...others.slice(index)] } };
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

function* flagMutations(rule: ProgramRule): Generator<Mutation> {
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
export function* ruleMutations(rule: ProgramRule, where = ''): Generator<Mutation> {
  const at = (what: string) => (where === '' ? what : `${where}: ${what}`);
  for (const m of optionMutations(rule)) yield { what: at(m.what), rule: m.rule };
  for (const [what, positionals] of positionalMutations(rule.positionals)) yield { what: at(what), rule: { ...rule, positionals } };
  for (const [index, [mark, positionals]] of (rule.flagPositionals ?? []).entries()) {
    const entries = rule.flagPositionals!;
    yield { what: at(`without the positionals for ${mark}`), rule: { ...rule, flagPositionals: entries.filter((_, i) => i !== index) } };
    for (const [what, mutated] of positionalMutations(positionals)) {
      yield { what: at(`with ${mark}: ${what}`), rule: { ...rule, flagPositionals: entries.map((e, i) => (i === index ? ([mark, mutated] as const) : e)) } };
    }
  }
  for (const m of flagMutations(rule)) yield { what: at(m.what), rule: m.rule };
  for (const [name, sub] of Object.entries(rule.subcommands ?? {})) {
    const others = Object.fromEntries(Object.entries(rule.subcommands!).filter(([n]) => n !== name));
    yield { what: at(`without subcommand ${name === '' ? '(none)' : name}`), rule: { ...rule, subcommands: others } };
    for (const m of ruleMutations(sub, at(name === '' ? '(no subcommand)' : name))) yield { what: m.what, rule: { ...rule, subcommands: { ...rule.subcommands, [name]: m.rule } } };
  }
}
