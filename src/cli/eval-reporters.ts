// --reporter for `zotbox eval` and `zotbox eval merge`: a comma-separated list of
// NAME or NAME=FILE, the option repeatable. The list is closed: an unknown name,
// a file reporter without a file, or a terminal reporter with one is a usage error.
import path from 'node:path';
import { ZotboxError } from '../errors.js';

export type ReporterSpec = { readonly kind: 'list' | 'line' | 'github' } | { readonly kind: 'json' | 'junit' | 'markdown' | 'html'; readonly file: string };

const TERMINAL = new Set(['list', 'line', 'github']);
const FILE = new Set(['json', 'junit', 'markdown', 'html']);

export function parseReporters(values: readonly string[] | undefined, cwd: string, env: Readonly<Record<string, string | undefined>>): ReporterSpec[] {
  const words = (values ?? []).flatMap((value) => value.split(',')).map((word) => word.trim());
  const specs: ReporterSpec[] = words.length === 0 ? [{ kind: 'list' }] : words.map((word) => parseOne(word, cwd));
  // On GitHub Actions the annotations and the step summary come unasked.
  if (env['GITHUB_ACTIONS'] === 'true' && !specs.some((spec) => spec.kind === 'github')) specs.push({ kind: 'github' });
  const terminal = specs.filter((spec) => spec.kind === 'list' || spec.kind === 'line');
  if (terminal.length > 1) throw usage('give at most one of list and line: both write to standard output');
  return specs;
}

function parseOne(word: string, cwd: string): ReporterSpec {
  const equals = word.indexOf('=');
  const name = equals < 0 ? word : word.slice(0, equals);
  const file = equals < 0 ? undefined : word.slice(equals + 1);
  if (TERMINAL.has(name)) {
    if (file !== undefined) throw usage(`the ${name} reporter writes to the terminal and takes no file (got "${word}")`);
    return { kind: name as 'list' | 'line' | 'github' };
  }
  if (FILE.has(name)) {
    if (file === undefined || file === '') throw usage(`the ${name} reporter needs a file: ${name}=PATH`);
    return { kind: name as 'json' | 'junit' | 'markdown' | 'html', file: path.resolve(cwd, file) };
  }
  throw usage(`unknown reporter "${name}"`);
}

function usage(problem: string): ZotboxError {
  return new ZotboxError('ZB_CLI_USAGE', `--reporter: ${problem}. Reporters: list, line, github, json=FILE, junit=FILE, markdown=FILE, html=FILE, comma-separated (docs/eval.md).`);
}
