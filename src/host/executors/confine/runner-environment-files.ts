// The environment files a runner loads whose names the text or the user's environment decides (the fixed names are
// package-manager-configs.ts' CONFIGS): bun's `.env.$NODE_ENV`, pipenv's PIPENV_DOTENV_LOCATION, Nx's per-task family
// (`.env.TARGET.CONFIG`, `.TARGET.env` ...: nx-targets.ts). Pure reading of text and variables (no I/O). Closed world: a value zotbox cannot spell out (an expansion), or yarn's
// YARN_INJECT_ENVIRONMENT_FILES (a list in the user's environment), is a reason, never "nothing there".

import { nxEnvironmentNames, nxTasks } from './nx-targets.js';

export interface RunnerEnvironmentFiles {
  /** Names taken in each directory the runner runs in and above (bun's `.env.staging`); Nx's also in each project's root. */
  readonly each: readonly { readonly runner: string; readonly name: string }[];
  /** Paths taken from each directory the runner runs in (absolute ones as they are): PIPENV_DOTENV_LOCATION. */
  readonly located: readonly { readonly runner: string; readonly name: string }[];
  readonly unresolved: readonly string[];
}

/** The values a text's assignments give `variable` (`X=v cmd`, `export X="v"`), each as written, quotes removed. */
function assignedValues(text: string, variable: string): string[] {
  const assignment = new RegExp(String.raw`(?:^|[\s;&|(])${variable}=("[^"]*"|'[^']*'|[^\s;&|()]*)`, 'gmu');
  return [...text.matchAll(assignment)].map((match) => match[1]!.replace(/^(["'])(.*)\1$/su, '$2'));
}

/** What `runners` load beyond their fixed names, from `text`'s assignments and the user's `environment`. */
export function runnerEnvironmentFiles(text: string, runners: ReadonlySet<string>, environment: Readonly<Record<string, string | undefined>>): RunnerEnvironmentFiles {
  const each: { runner: string; name: string }[] = [];
  const located: { runner: string; name: string }[] = [];
  const unresolved: string[] = [];
  const values = (variable: string) => [...assignedValues(text, variable), ...(environment[variable] ? [environment[variable]] : [])];
  const unspelled = (value: string) => /[$`*?[{~]/u.test(value);
  if (runners.has('bun') || runners.has('bunx'))
    for (const value of values('NODE_ENV')) {
      if (unspelled(value) || value.includes('/')) unresolved.push(`bun loads .env.$NODE_ENV, and NODE_ENV is ${JSON.stringify(value)}, which zotbox cannot spell out`);
      else if (value !== '') each.push({ runner: 'bun', name: `.env.${value}` });
    }
  if (runners.has('pipenv'))
    for (const value of values('PIPENV_DOTENV_LOCATION')) {
      if (unspelled(value)) unresolved.push(`pipenv loads the file PIPENV_DOTENV_LOCATION names, ${JSON.stringify(value)}, which zotbox cannot spell out`);
      else if (value !== '') located.push({ runner: 'pipenv', name: value });
    }
  if (runners.has('nx')) {
    const tasks = nxTasks(text);
    unresolved.push(...tasks.unresolved);
    for (const name of nxEnvironmentNames(tasks.tasks)) each.push({ runner: 'nx', name });
  }
  // yarn takes its settings from YARN_* first: a list there is read by no rule here.
  if (runners.has('yarn') && (environment.YARN_INJECT_ENVIRONMENT_FILES ?? '') !== '')
    unresolved.push('yarn loads the environment files YARN_INJECT_ENVIRONMENT_FILES lists (set in the environment), which zotbox does not read');
  if (runners.has('yarn') && assignedValues(text, 'YARN_INJECT_ENVIRONMENT_FILES').length > 0)
    unresolved.push('yarn loads the environment files a YARN_INJECT_ENVIRONMENT_FILES assignment lists, which zotbox does not read');
  return { each, located, unresolved };
}
