// What shell completion offers, derived from the command table (commands.ts) and
// nothing else, so a new command, option or argument is completed without editing
// the scripts. Pure data; completion-bash/zsh/fish.ts render it for each shell.
import { COMMON_OPTIONS, type CommandSpec, type OptionSpec } from './command-spec.js';

/** What to offer for an option's value or a positional argument. */
export type ValueCompletion =
  | { readonly kind: 'file' }
  | { readonly kind: 'directory' }
  | { readonly kind: 'words'; readonly words: readonly string[] }
  /** Free text (a prompt, a number, a name): nothing is offered. */
  | { readonly kind: 'none' };

export interface CompletionOption {
  /** "--cwd" */
  readonly long: string;
  /** "-y", when the option has a short form. */
  readonly short?: string;
  readonly description: string;
  /** How to complete its value; undefined for a boolean option. */
  readonly value?: ValueCompletion;
  readonly multiple: boolean;
}

export interface CompletionArgument {
  readonly name: string;
  readonly value: ValueCompletion;
  readonly optional: boolean;
}

export interface CompletionCommand {
  readonly name: string;
  readonly summary: string;
  /** The command's own options, then the options every command accepts. */
  readonly options: readonly CompletionOption[];
  readonly positionals: readonly CompletionArgument[];
}

export interface CompletionModel {
  /** Options accepted before the command (src/cli.ts's dispatcher). */
  readonly globalOptions: readonly CompletionOption[];
  /** Every command of the table, then `help COMMAND`, which the dispatcher also accepts. */
  readonly commands: readonly CompletionCommand[];
}

/** Words written "a|b|c" in a value or argument name are the only values it takes. */
const WORD_CHOICES = /^[a-z]+(\|[a-z]+)+$/;
/** Argument and value names that are files; DIR is a directory. Anything else is free text (closed world: offer nothing rather than something wrong). */
const FILE_NAMES = new Set(['AGENT', 'FILE', 'FILE.zot', 'OUTPUT', 'PATH', 'SUBJECT']);

function completionFor(name: string): ValueCompletion {
  if (WORD_CHOICES.test(name)) return { kind: 'words', words: name.split('|') };
  if (name === 'DIR') return { kind: 'directory' };
  if (FILE_NAMES.has(name)) return { kind: 'file' };
  return { kind: 'none' };
}

/** The first sentence of a description: enough for a completion menu. */
function firstSentence(text: string): string {
  const end = text.search(/\.(\s|$)/);
  return end === -1 ? text : text.slice(0, end);
}

function option(spec: OptionSpec): CompletionOption {
  return {
    long: `--${spec.name}`,
    ...(spec.short === undefined ? {} : { short: `-${spec.short}` }),
    description: firstSentence(spec.description),
    ...(spec.type === 'string' ? { value: completionFor(spec.valueName ?? 'VALUE') } : {}),
    multiple: spec.multiple === true,
  };
}

function command(spec: CommandSpec): CompletionCommand {
  return {
    name: spec.name,
    summary: firstSentence(spec.summary),
    options: [...spec.options, ...COMMON_OPTIONS].map(option),
    positionals: spec.arguments.slice(0, spec.maxPositionals).map((argument, index) => ({
      name: argument.name,
      value: completionFor(argument.name),
      optional: index >= spec.minPositionals,
    })),
  };
}

export function buildCompletionModel(specs: readonly CommandSpec[]): CompletionModel {
  const commands = specs.map(command);
  const help: CompletionCommand = {
    name: 'help',
    summary: 'Show the help of a command',
    options: [],
    positionals: [{ name: 'COMMAND', value: { kind: 'words', words: specs.map((s) => s.name) }, optional: true }],
  };
  return {
    globalOptions: [
      { long: '--help', short: '-h', description: 'Show help', multiple: false },
      { long: '--version', short: '-V', description: 'Print the zotbox version', multiple: false },
      { long: '--debug', description: 'On failure, print the stack trace and causes', multiple: false },
    ],
    commands: specs.some((s) => s.name === 'help') ? commands : [...commands, help],
  };
}

/** Every option word of a command, long and short: what `zotbox CMD -<TAB>` offers. */
export function optionWords(command: CompletionCommand): string[] {
  return command.options.flatMap((o) => (o.short === undefined ? [o.long] : [o.long, o.short]));
}

/** The option words of a command that take a value (the next word is that value, not an argument). */
export function valueOptionWords(command: CompletionCommand): string[] {
  return command.options.filter((o) => o.value !== undefined).flatMap((o) => (o.short === undefined ? [o.long] : [o.long, o.short]));
}
