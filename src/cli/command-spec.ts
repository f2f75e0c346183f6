// The shape of a CLI command: its documentation, its options, and the handler
// that turns parsed arguments into library calls and printed output. Parsing is
// node:util parseArgs in strict mode, so unknown options are usage errors.
import { parseArgs } from 'node:util';
import { ZotboxError, closestName } from '../errors.js';

export interface OptionSpec {
  readonly name: string;
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  readonly multiple?: boolean;
  /** Placeholder shown in help for string options, e.g. FILE. */
  readonly valueName?: string;
  readonly description: string;
}

/** Streams and process facts a command may use; injected so tests never touch the real process. */
export interface CliIo {
  readonly stdout: { write(chunk: string): unknown; isTTY?: boolean };
  readonly stderr: { write(chunk: string): unknown; isTTY?: boolean };
  readonly stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** Aborted on Ctrl-C: long operations stop and clean up. */
  readonly signal?: AbortSignal;
}

export interface ParsedCommand {
  readonly values: Readonly<Record<string, string | boolean | string[] | undefined>>;
  readonly positionals: readonly string[];
}

export interface CommandSpec {
  readonly name: string;
  readonly summary: string;
  /** Usage lines without the leading "zotbox ": at least one (usage errors quote the first). */
  readonly usage: readonly [string, ...string[]];
  readonly description: string;
  readonly arguments: readonly { readonly name: string; readonly description: string }[];
  readonly options: readonly OptionSpec[];
  readonly exitStatus: readonly string[];
  readonly examples: readonly string[];
  readonly minPositionals: number;
  readonly maxPositionals: number;
}

/** Turns parsed arguments into library calls and printed output; returns the exit status. */
export type CommandHandler = (parsed: ParsedCommand, io: CliIo) => Promise<number>;

/** Options every command accepts. */
export const COMMON_OPTIONS: readonly OptionSpec[] = [
  { name: 'help', type: 'boolean', short: 'h', description: 'Show this help and exit.' },
  { name: 'debug', type: 'boolean', description: 'On failure, print the stack trace and causes (same as ZOTBOX_DEBUG=1).' },
];

export function parseCommandArguments(spec: CommandSpec, args: readonly string[]): ParsedCommand {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> = {};
  for (const option of [...COMMON_OPTIONS, ...spec.options]) {
    options[option.name] = {
      type: option.type,
      ...(option.short === undefined ? {} : { short: option.short }),
      ...(option.multiple === undefined ? {} : { multiple: option.multiple }),
    };
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (cause) {
    throw new ZotboxError('ZB_CLI_USAGE', `${describeParseFailure(cause, spec)}. Run 'zotbox ${spec.name} --help' for usage.`, {
      cause,
      details: { command: spec.name },
    });
  }
  const values = parsed.values as ParsedCommand['values'];
  if (values['help'] !== true) {
    const count = parsed.positionals.length;
    if (count < spec.minPositionals || count > spec.maxPositionals) {
      const expected = spec.minPositionals === spec.maxPositionals ? `${spec.minPositionals}` : `${spec.minPositionals} to ${spec.maxPositionals}`;
      throw new ZotboxError(
        'ZB_CLI_USAGE',
        `zotbox ${spec.name} takes ${expected} argument${spec.maxPositionals === 1 ? '' : 's'}, got ${count}. Usage: zotbox ${spec.usage[0]}. Run 'zotbox ${spec.name} --help' for details.`,
        { details: { command: spec.name, positionals: count } },
      );
    }
  }
  return { values, positionals: parsed.positionals };
}

/** parseArgs throws TypeErrors with ERR_PARSE_ARGS_* codes; say the same thing in fewer words. */
function describeParseFailure(cause: unknown, spec: CommandSpec): string {
  const message = cause instanceof Error ? cause.message : String(cause);
  const code = (cause as { code?: unknown } | null)?.code;
  const option = /'([^']+)'/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option !== undefined) {
    const names = [...COMMON_OPTIONS, ...spec.options].map((o) => `--${o.name}`);
    const near = option.startsWith('--') ? closestName(option, names) : undefined;
    return `unknown option '${option}'${near === undefined ? '' : ` (did you mean '${near}'?)`} (to pass an argument that starts with '-', put it after '--')`;
  }
  return message.replace(/\.$/, '');
}
