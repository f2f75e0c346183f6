// Reads a program's argv against its closed-world rule (rule-format.ts) the way
// getopt_long reads it: bundled short options, attached and separate values,
// "--name=value", "--" and GNU permutation, subcommands. It only classifies:
// every option must be listed, every value gets a kind, and value-kinds.ts
// checks them. An abbreviated long option is denied, never resolved: zotbox
// cannot know every option a program has, so it cannot know what one resolves to.
import { deny as no, type Check } from '../shell-check.js';
import type { OptionRule, PositionalRule, ProgramRule, ValueKind } from './rule-format.js';

export interface ParsedValue {
  readonly kind: ValueKind;
  readonly text: string;
  /** The argument as written, for messages ("--output=x", "-o", "a.txt"). */
  readonly written: string;
  /** The last positional of a rule with `last` (cp's destination), or the one a single positional implies. */
  readonly destination?: boolean;
}

export interface ParsedArguments {
  /** The subcommands chosen, outermost first ("stash", "push"). */
  readonly subcommands: readonly string[];
  /** The rule that read the last arguments (the innermost subcommand's). */
  readonly rule: ProgramRule;
  readonly marks: ReadonlySet<string>;
  readonly values: readonly ParsedValue[];
  /** Positionals as written, in order (git's pathspecs, for its effects check). */
  readonly positionals: readonly string[];
  /** How many positionals came before a "--" (git: revisions before it, pathspecs after); absent when there was none. */
  readonly dashDash?: number;
}

interface Reading {
  readonly name: string;
  readonly marks: Set<string>;
  readonly values: ParsedValue[];
  /** Set by an option with `endsOptions` (python -m): what follows is positional. */
  optionsEnded: boolean;
  /** Set by an option with `selects` (python -m MODULE): the option as written, and the rule that reads the rest. */
  selected?: {
    readonly written: string;
    readonly name: string;
    readonly rule: ProgramRule | undefined;
    readonly names: readonly string[];
    readonly otherwise: OptionRule['selectsOtherwise'];
  };
}

const MAX_LISTED = 24;

function listOptions(rule: ProgramRule): string {
  // An option with no spelling cannot be written, so it is not listed.
  const spelled = rule.options.flatMap((o) => (o.long !== undefined ? [`--${o.long}`] : o.word !== undefined ? [`-${o.word}`] : o.short !== undefined ? [`-${o.short}`] : []));
  if (spelled.length === 0) return 'none';
  return spelled.length > MAX_LISTED ? `${spelled.slice(0, MAX_LISTED).join(' ')} …` : spelled.join(' ');
}

function unknownOption(reading: Reading, rule: ProgramRule, written: string): Check<never> {
  return no('ZB_POLICY_SHELL_ARGUMENT', `${reading.name}: ${written} is not an option zotbox allows here (${rule.why}). Allowed: ${listOptions(rule)}.`);
}

function takeOption(reading: Reading, option: OptionRule, written: string, value: string | undefined): void {
  if (option.sets !== undefined) reading.marks.add(option.sets);
  if (option.endsOptions === true) reading.optionsEnded = true;
  if (option.selects !== undefined && value !== undefined) {
    const names = Object.keys(option.selects);
    reading.selected = { written, name: value, rule: Object.hasOwn(option.selects, value) ? option.selects[value] : undefined, names, otherwise: option.selectsOtherwise };
    return;
  }
  const kind = option.value ?? option.optionalValue;
  if (kind !== undefined && value !== undefined) reading.values.push({ kind, text: value, written });
}

/** "--arg NAME VALUE": an option with several values, each the next argument; returns how many arguments it used. */
function takeValues(reading: Reading, option: OptionRule, args: readonly string[], index: number, attached: string | undefined): Check<number> {
  const arg = args[index]!;
  const kinds = option.values ?? [];
  if (attached !== undefined) return no('ZB_POLICY_SHELL_ARGUMENT', `${reading.name}: ${arg}: write the ${kinds.length} values of ${arg.slice(0, arg.indexOf('='))} as separate arguments.`);
  if (index + kinds.length >= args.length) return no('ZB_POLICY_SHELL_ARGUMENT', `${reading.name}: ${arg} needs ${kinds.length} values.`);
  if (option.sets !== undefined) reading.marks.add(option.sets);
  for (const [at, kind] of kinds.entries()) reading.values.push({ kind, text: args[index + 1 + at]!, written: arg });
  return { ok: true, value: 1 + kinds.length };
}

/** "--name", "--name=value", "--name value": returns how many arguments it used. */
function readLong(reading: Reading, rule: ProgramRule, args: readonly string[], index: number): Check<number> {
  const arg = args[index]!;
  const equals = arg.indexOf('=');
  const name = equals === -1 ? arg.slice(2) : arg.slice(2, equals);
  const attached = equals === -1 ? undefined : arg.slice(equals + 1);
  const option = rule.options.find((o) => o.long === name);
  if (option === undefined) {
    const completions = rule.options.flatMap((o) => (o.long?.startsWith(name) === true ? [o.long] : []));
    if (completions.length > 0 && name.length > 0) {
      return no(
        'ZB_POLICY_SHELL_ARGUMENT',
        `${reading.name}: ${arg} is an abbreviation; write the option in full (${completions.map((long) => `--${long}`).join(' or ')}). zotbox cannot know every option ${reading.name} has, so it does not guess what an abbreviation means.`,
      );
    }
    return unknownOption(reading, rule, `--${name}`);
  }
  if (option.values !== undefined) return takeValues(reading, option, args, index, attached);
  if (option.value !== undefined) {
    if (attached !== undefined) {
      takeOption(reading, option, arg, attached);
      return { ok: true, value: 1 };
    }
    if (index + 1 >= args.length) return no('ZB_POLICY_SHELL_ARGUMENT', `${reading.name}: --${name} needs a value.`);
    takeOption(reading, option, arg, args[index + 1]);
    return { ok: true, value: 2 };
  }
  if (attached !== undefined && option.optionalValue === undefined) return no('ZB_POLICY_SHELL_ARGUMENT', `${reading.name}: --${name} takes no value (${arg}).`);
  takeOption(reading, option, arg, attached);
  return { ok: true, value: 1 };
}

/** "-abc", "-ofile", "-o file": letters are options until one takes a value, which is the rest of the word or the next argument. */
function readShortBundle(reading: Reading, rule: ProgramRule, args: readonly string[], index: number): Check<number> {
  const arg = args[index]!;
  const letters = arg.slice(1);
  for (let at = 0; at < letters.length; at += 1) {
    const letter = letters[at]!;
    const option = rule.options.find((o) => o.short === letter);
    if (option === undefined || option.values !== undefined) return unknownOption(reading, rule, letters.length > 1 ? `-${letter} (in ${arg})` : `-${letter}`);
    const rest = letters.slice(at + 1);
    if (option.value !== undefined) {
      if (rest.length > 0) {
        takeOption(reading, option, arg, rest);
        return { ok: true, value: 1 };
      }
      if (index + 1 >= args.length) return no('ZB_POLICY_SHELL_ARGUMENT', `${reading.name}: -${letter} needs a value.`);
      takeOption(reading, option, arg, args[index + 1]);
      return { ok: true, value: 2 };
    }
    if (option.optionalValue !== undefined && rest.length > 0) {
      takeOption(reading, option, arg, rest);
      return { ok: true, value: 1 };
    }
    takeOption(reading, option, arg, undefined);
  }
  return { ok: true, value: 1 };
}

/** "-name x", "-type f": options spelled as one-dash words (find, go). */
function readWord(reading: Reading, rule: ProgramRule, args: readonly string[], index: number): Check<number> | undefined {
  const arg = args[index]!;
  const equals = arg.indexOf('=');
  const word = equals === -1 ? arg.slice(1) : arg.slice(1, equals);
  const option = rule.options.find((o) => o.word === word);
  if (option === undefined) return undefined;
  const attached = equals === -1 ? undefined : arg.slice(equals + 1);
  if (option.values !== undefined) return takeValues(reading, option, args, index, attached);
  if (option.value !== undefined) {
    if (attached !== undefined) {
      takeOption(reading, option, arg, attached);
      return { ok: true, value: 1 };
    }
    if (index + 1 >= args.length) return no('ZB_POLICY_SHELL_ARGUMENT', `${reading.name}: -${word} needs a value.`);
    takeOption(reading, option, arg, args[index + 1]);
    return { ok: true, value: 2 };
  }
  if (attached !== undefined && option.optionalValue === undefined) return no('ZB_POLICY_SHELL_ARGUMENT', `${reading.name}: -${word} takes no value (${arg}).`);
  takeOption(reading, option, arg, attached);
  return { ok: true, value: 1 };
}

/**
 * tar's old style ("cvf x.tar a" for "-c -v -f x.tar a") is recognised and
 * denied: the gate-rules name it among the spellings that hid -P and -I from
 * deny-lists, and the dashed spelling says the same thing unambiguously.
 */
function refuseOldStyleKeys(name: string, rule: ProgramRule, args: readonly string[]): Check<null> {
  const first = args[0];
  if (rule.oldStyleKeys !== true || first === undefined || first.startsWith('-')) return { ok: true, value: null };
  return no(
    'ZB_POLICY_SHELL_ARGUMENT',
    `${name}: old-style keys (${JSON.stringify(first)} without a dash) are not allowed; write them as options: ${name} -${first} ${args.slice(1).join(' ')}`.trimEnd() + '.',
  );
}

function positionalRuleFor(rule: ProgramRule, marks: ReadonlySet<string>): PositionalRule {
  const applies = (mark: string | readonly string[]): boolean => (typeof mark === 'string' ? marks.has(mark) : mark.every((m) => marks.has(m)));
  return rule.flagPositionals?.find(([mark]) => applies(mark))?.[1] ?? rule.positionals;
}

/** Gives each positional its kind; a positional the rule has no room for is denied. */
function classifyPositionals(reading: Reading, rule: ProgramRule, positionals: readonly string[], cwd: string): Check<null> {
  const spec = positionalRuleFor(rule, reading.marks);
  const leading = spec.leading ?? [];
  const min = spec.min ?? 0;
  if (positionals.length < min) return no('ZB_POLICY_SHELL_ARGUMENT', `${reading.name}: needs at least ${min} argument(s) besides options (${rule.why}).`);
  if (spec.implied !== undefined && spec.rest !== undefined && positionals.length <= leading.length) {
    // "grep -R x" searches the working directory: checked as if it were written, so its links are walked too.
    reading.values.push({ kind: spec.rest, text: spec.implied, written: `(no operand: ${spec.implied})` });
  }
  for (const [index, text] of positionals.entries()) {
    if (index < leading.length) {
      reading.values.push({ kind: leading[index]!, text, written: text });
      continue;
    }
    const restCount = positionals.length - leading.length;
    const isLast = index === positionals.length - 1;
    if (spec.last !== undefined && isLast && restCount >= 2) {
      reading.values.push({ kind: spec.last, text, written: text, destination: true });
      continue;
    }
    if (spec.rest === undefined)
      return no(
        'ZB_POLICY_SHELL_ARGUMENT',
        `${reading.name}: the argument ${JSON.stringify(text)} is not allowed here: ${reading.name} takes ${leading.length === 0 ? 'no arguments besides options' : `only ${leading.length} argument(s)`} (${rule.why}).`,
      );
    reading.values.push({ kind: spec.rest, text, written: text });
    if (spec.last !== undefined && spec.lastImpliedFromSingle === true && isLast && restCount === 1) {
      // "ln -s TARGET": the link is created in the working directory under the target's last name.
      const base = text.replace(/\/+$/, '').split('/').pop() ?? text;
      reading.values.push({ kind: spec.last, text: `${cwd}/${base}`, written: text, destination: true });
    }
  }
  return { ok: true, value: null };
}

/** The subcommands to name in a message; '' (none) is not one to write. */
function namedSubcommands(rule: ProgramRule): string {
  return Object.keys(rule.subcommands ?? {})
    .filter((name) => name !== '')
    .join(', ');
}

/**
 * python -m MODULE ARGS: the module's own rule reads ARGS, like a subcommand's. A module not listed is, with
 * `selectsOtherwise`, a value of its kind read by its rule (value-kinds.ts decides it), else denied.
 */
function readSelected(name: string, reading: Reading, rest: readonly string[], cwd: string, subcommands: readonly string[]): Check<ParsedArguments> {
  const selected = reading.selected!;
  const flag = selected.written.startsWith('--') ? selected.written.split('=')[0]! : selected.written.slice(0, 2);
  if (selected.rule === undefined && selected.otherwise !== undefined) {
    // The module's own arguments, none of them an option to python: the rule's positionals classify them all.
    const rule = selected.otherwise.rule;
    reading.values.push({ kind: selected.otherwise.value, text: selected.name, written: `${flag} ${selected.name}` });
    const classified = classifyPositionals(reading, rule, rest, cwd);
    if (!classified.ok) return classified;
    return {
      ok: true,
      value: { subcommands: [...subcommands, `${flag} ${selected.name}`], rule, marks: new Set([...reading.marks, ...(rule.marks ?? [])]), values: reading.values, positionals: rest },
    };
  }
  if (selected.rule === undefined) {
    return no(
      'ZB_POLICY_SHELL_ARGUMENT',
      `${reading.name} ${flag} ${JSON.stringify(selected.name)} is not allowed: only ${selected.names.join(', ')} may run this way, each with its own rule for its arguments (others run code given on the command line, run other modules or scripts, install packages or serve files). Run a script file instead.`,
    );
  }
  const inner = parseArguments(name, selected.rule, rest, cwd, [...subcommands, `${flag} ${selected.name}`]);
  if (!inner.ok) return inner;
  return { ok: true, value: { ...inner.value, values: [...reading.values, ...inner.value.values], marks: new Set([...reading.marks, ...inner.value.marks]) } };
}

/** Reads `args` (argv without the program) against `rule`. Never throws. */
export function parseArguments(name: string, rule: ProgramRule, rawArgs: readonly string[], cwd: string, subcommands: readonly string[] = []): Check<ParsedArguments> {
  const oldStyle = refuseOldStyleKeys(name, rule, rawArgs);
  if (!oldStyle.ok) return oldStyle;
  const args = rawArgs;
  const reading: Reading = { name: [name, ...subcommands].join(' '), marks: new Set(rule.marks), values: [], optionsEnded: false };
  const positionals: string[] = [];
  const hasWords = rule.options.some((o) => o.word !== undefined);
  // go's flags are all words: "-toolexec" is one unknown word there, not a bundle of letters.
  const onlyWords = hasWords && rule.options.every((o) => o.short === undefined);
  let optionsEnded = false;
  let dashDash: number | undefined;
  for (let index = 0; index < args.length; ) {
    const arg = args[index]!;
    if (!optionsEnded && arg === '--') {
      optionsEnded = true;
      dashDash = positionals.length;
      index += 1;
      continue;
    }
    if (!optionsEnded && arg.length > 1 && arg.startsWith('-')) {
      let used: Check<number> | undefined;
      if (arg.startsWith('--')) used = readLong(reading, rule, args, index);
      else if (rule.numericOption === true && /^-[0-9]+$/.test(arg)) {
        reading.values.push({ kind: 'number', text: arg.slice(1), written: arg });
        used = { ok: true, value: 1 };
      } else used = (hasWords ? readWord(reading, rule, args, index) : undefined) ?? (onlyWords ? unknownOption(reading, rule, arg.split('=')[0]!) : readShortBundle(reading, rule, args, index));
      if (!used.ok) return used;
      index += used.value;
      if (reading.selected !== undefined) return readSelected(name, reading, args.slice(index), cwd, subcommands);
      if (reading.optionsEnded) optionsEnded = true;
      continue;
    }
    if (rule.subcommands !== undefined && positionals.length === 0) {
      // '' is the rule for no subcommand, never one to name (git "" would otherwise select it).
      const sub = arg !== '' && Object.hasOwn(rule.subcommands, arg) ? rule.subcommands[arg] : undefined;
      if (sub === undefined) {
        return no('ZB_POLICY_SHELL_ARGUMENT', `${reading.name} ${arg} is not allowed: allowed subcommands are ${namedSubcommands(rule)} (${rule.why}).`);
      }
      const inner = parseArguments(name, sub, args.slice(index + 1), cwd, [...subcommands, arg]);
      if (!inner.ok) return inner;
      return { ok: true, value: { ...inner.value, values: [...reading.values, ...inner.value.values], marks: new Set([...reading.marks, ...inner.value.marks]) } };
    }
    if (rule.permute === false) optionsEnded = true;
    positionals.push(arg);
    index += 1;
  }
  if (rule.subcommands !== undefined) {
    const bare = rule.subcommands[''];
    if (bare === undefined) return no('ZB_POLICY_SHELL_ARGUMENT', `${reading.name} needs a subcommand: ${namedSubcommands(rule)}.`);
    // No positionals are left here; this applies the bare rule's `min`, so it can require an option (deno --version, not deno's REPL).
    const bareClassified = classifyPositionals(reading, bare, positionals, cwd);
    if (!bareClassified.ok) return bareClassified;
    return { ok: true, value: { subcommands, rule: bare, marks: reading.marks, values: reading.values, positionals, ...(dashDash === undefined ? {} : { dashDash }) } };
  }
  const classified = classifyPositionals(reading, rule, positionals, cwd);
  if (!classified.ok) return classified;
  return { ok: true, value: { subcommands, rule, marks: reading.marks, values: reading.values, positionals, ...(dashDash === undefined ? {} : { dashDash }) } };
}
