// The tasks an `nx` command runs, and the environment files Nx loads for each (nx.dev, "Define Environment
// Variables"): for `nx run PROJECT:TARGET[:CONFIG]`, `nx TARGET [PROJECT]`, `nx PROJECT:TARGET`, `nx run-many` and
// `nx affected` with `-t`/`--target(s)`, and `-c`/`--configuration`, the `.env.TARGET.CONFIG[.local]`,
// `.TARGET.CONFIG[.local].env`, `.env.CONFIG[.local]`, `.CONFIG[.local].env`, `.env.TARGET[.local]`,
// `.TARGET[.local].env` family, in each project's root and the workspace root (NODE_OPTIONS there runs in every node
// the task starts). Closed world: a target or configuration zotbox cannot spell out is unresolved. Pure, no I/O.
import { lexShell } from './shell-lexer.js';

/** One task: a target, and the configuration the command names (none: the target's default, see nxEnvironmentNames). */
export interface NxTask {
  readonly target: string;
  readonly configuration?: string;
}

/** nx's own commands that run no task (`nx graph`, `nx g`): anything else first is a target or PROJECT:TARGET. */
const NO_TASK = new Set([
  ...['add', 'affected:graph', 'connect', 'connect-to-nx-cloud', 'daemon', 'dep-graph', 'exec', 'format', 'format:check', 'format:write', 'g', 'generate', 'graph', 'import'],
  ...['init', 'list', 'login', 'logout', 'migrate', 'new', 'print-affected', 'release', 'repair', 'report', 'reset', 'show', 'sync', 'sync:check', 'view-logs', 'watch'],
  ...['--help', '-h', '--version', '-v'],
]);
/** What a word may be as a target or configuration name (no expansion, pattern or quote left). */
const NAME = /^[\w@.+-]+$/u;

/** The tasks `text`'s nx commands run, and what zotbox cannot spell out there (a target in a variable). */
export function nxTasks(text: string): { tasks: NxTask[]; unresolved: string[] } {
  const tasks: NxTask[] = [];
  const unresolved: string[] = [];
  for (const words of lexShell(text, [])) {
    const at = words.findIndex((word) => /(^|\/)nx$/u.test(word));
    if (at === -1) continue;
    const rest = words.slice(at + 1);
    const command = rest.find((word) => !word.startsWith('-'));
    if (command === undefined || NO_TASK.has(command)) continue;
    const option = (names: readonly string[]) =>
      rest.flatMap((word, i) => names.flatMap((name) => (word === name ? [rest[i + 1] ?? ''] : word.startsWith(`${name}=`) ? [word.slice(name.length + 1)] : [])));
    const configurations = option(['-c', '--configuration']);
    const many = command === 'run-many' || command === 'affected';
    const targets = many ? [...option(['-t', '--target', '--targets']).flatMap((list) => list.split(',')), ...manyTargets(rest)] : [];
    // `nx run PROJECT:TARGET[:CONFIG]`, `nx PROJECT:TARGET[:CONFIG]`, `nx TARGET [PROJECT]`.
    if (!many) {
      const spec = command === 'run' ? (rest.slice(rest.indexOf('run') + 1).find((word) => !word.startsWith('-')) ?? '') : command;
      const parts = spec.split(':');
      if (parts.length === 1) targets.push(parts[0]!);
      else {
        targets.push(parts[1] ?? '');
        if (parts[2] !== undefined) configurations.push(parts[2]);
      }
    }
    const bad = [...targets, ...configurations].find((name) => !NAME.test(name));
    if (bad !== undefined || targets.length === 0) {
      unresolved.push(`nx runs a task whose target or configuration (${JSON.stringify(bad ?? '')}) zotbox cannot spell out, and nx loads the environment files named after it (.env.TARGET ...)`);
      continue;
    }
    for (const target of targets)
      if (configurations.length === 0) tasks.push({ target });
      else for (const configuration of configurations) tasks.push({ target, configuration });
  }
  return { tasks, unresolved };
}

/** `-t a b c` (nx reads every word up to the next option as a target). */
function manyTargets(rest: readonly string[]): string[] {
  const at = rest.findIndex((word) => word === '-t' || word === '--targets' || word === '--target');
  if (at === -1) return [];
  const more: string[] = [];
  for (let i = at + 2; i < rest.length && !rest[i]!.startsWith('-'); i++) more.push(rest[i]!);
  return more;
}

/**
 * The per-task names Nx loads for `tasks` (the fixed `.env`, `.local.env`, `.env.local` are CONFIGS'). A task whose
 * configuration the command does not name runs the target's default one, which the project's configuration decides:
 * every configuration the text names for any task is taken for it too, and the names without one.
 */
export function nxEnvironmentNames(tasks: readonly NxTask[]): string[] {
  const names = new Set<string>();
  const family = (stem: string) => [`.env.${stem}`, `.env.${stem}.local`, `.${stem}.env`, `.${stem}.local.env`];
  for (const { target, configuration } of tasks) {
    for (const name of family(target)) names.add(name);
    if (configuration !== undefined) for (const name of [...family(`${target}.${configuration}`), ...family(configuration)]) names.add(name);
  }
  return [...names];
}
