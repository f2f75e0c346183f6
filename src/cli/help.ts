// Renders help text from the command table, so --help and docs/cli.md cannot
// drift from the options the parser actually accepts.
import { COMMON_OPTIONS, type CommandSpec, type OptionSpec } from './command-spec.js';
import { COMMANDS } from './commands.js';
import { packageDoc } from './package-docs.js';

export function renderMainHelp(version: string, available: ReadonlySet<string>): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  const rows = COMMANDS.map((c) => {
    const note = available.has(c.name) ? '' : ' (not available yet)';
    return `  ${c.name.padEnd(width)}  ${c.summary}${note}`;
  });
  return [
    `zotbox ${version} — run portable LLM agents (zotfiles) under an enforced permission ceiling.`,
    '',
    'Usage: zotbox <command> [arguments] [options]',
    '',
    'Commands:',
    ...rows,
    '',
    'Options:',
    '  -h, --help     Show help (also: zotbox <command> --help).',
    '  -V, --version  Print the zotbox version.',
    '      --debug    On failure, print the stack trace and causes (same as ZOTBOX_DEBUG=1).',
    '',
    'Exit status: 0 success, 1 failure (the message names a ZB_ code), 2 usage error.',
    `Documentation: ${packageDoc('cli.md')}`,
    '',
  ].join('\n');
}

export function renderCommandHelp(spec: CommandSpec, available: boolean): string {
  const options = [...spec.options, ...COMMON_OPTIONS];
  const labels = options.map(optionLabel);
  const width = Math.max(...labels.map((l) => l.length));
  const argWidth = Math.max(0, ...spec.arguments.map((a) => a.name.length));
  return [
    `zotbox ${spec.name} — ${spec.summary}${available ? '' : ' (not available yet in this build)'}`,
    '',
    'Usage:',
    ...spec.usage.map((u) => `  zotbox ${u}`),
    '',
    ...wrap(spec.description, 78).map((line) => line),
    '',
    ...(spec.arguments.length > 0 ? ['Arguments:', ...spec.arguments.map((a) => `  ${a.name.padEnd(argWidth)}  ${a.description}`), ''] : []),
    'Options:',
    ...options.map((o, i) => `  ${(labels[i] ?? '').padEnd(width)}  ${o.description}`),
    '',
    'Exit status:',
    ...spec.exitStatus.map((s) => `  ${s}`),
    '',
    'Examples:',
    ...spec.examples.map((e) => `  ${e}`),
    '',
  ].join('\n');
}

function optionLabel(option: OptionSpec): string {
  const short = option.short === undefined ? '    ' : `-${option.short}, `;
  const value = option.type === 'string' ? ` ${option.valueName ?? 'VALUE'}` : '';
  return `${short}--${option.name}${value}`;
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line.length > 0 && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line.length === 0 ? word : `${line} ${word}`;
    }
  }
  if (line.length > 0) lines.push(line);
  return lines;
}
