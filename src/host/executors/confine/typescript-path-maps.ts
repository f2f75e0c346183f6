// What the TypeScript runners load for a bare specifier besides node_modules: tsx, ts-node (with tsconfig-paths) and bun
// map it through the nearest tsconfig.json's `paths` and `baseUrl` (and its `extends` chain), deno through deno.json's
// `imports`/`scopes` and the `importMap` file it names. The files a program's specifiers map to are what runs; the map
// files themselves (every tsconfig of the chain, deno.json, the import map, and a nearer one not yet written) decide
// what runs, so they are named too. What zotbox cannot map is unresolved with its reason, never "nothing".

import { statSync } from 'node:fs';
import path from 'node:path';
import { denoNames } from './deno-import-maps.js';
import type { MappedName, Problem } from './module-map-files.js';
import { packageSpecifiers } from './node-module-resolution.js';
import { moduleNames } from './ts-node-options.js';
import { tsconfigNames } from './tsconfig-paths.js';
import type { TypescriptRun } from './typescript-runners.js';

export type { MappedName } from './module-map-files.js';

/**
 * What a TypeScript runner loads for `file`'s bare specifiers through the maps, with the map files (absolute); `base`
 * is where the command runs (tsx and deno look for their config from there, ts-node and bun from the file). What
 * zotbox cannot map is pushed to `unresolved`.
 */
export function typescriptMapNames(file: string, code: string, base: string, run: TypescriptRun, where: (index: number, what: string) => string, unresolved: string[]): MappedName[] {
  const problem: Problem = (what) => unresolved.push(where(0, `: ${what}, and zotbox cannot work out which file an import runs`));
  for (const value of run.unreadable) problem(`the command names the map file or module ${JSON.stringify(value)}`);
  const specifiers = packageSpecifiers(code);
  const starts = [...new Set([path.dirname(file), path.resolve(base)])];
  const names = [
    ...tsconfigNames(
      starts,
      run.tsconfigs.map((config) => path.resolve(base, config)),
      specifiers,
      problem,
    ),
    ...denoNames(starts, run, base, specifiers, problem),
    // The compiler or transpiler ts-node's command names, required from where it runs.
    ...run.modules.flatMap((specifier) => moduleNames(specifier, path.resolve(base), "ts-node's command makes it load it before the program", problem)),
  ];
  return names.filter(({ name }) => !belowFile(name));
}

/** Whether `name` lies below a file (`rules.ts/index.ts`): no path a tool could open, so nothing to protect. */
function belowFile(name: string): boolean {
  for (let at = path.dirname(name); path.dirname(at) !== at; at = path.dirname(at)) {
    try {
      const stats = statSync(at, { throwIfNoEntry: false });
      if (stats !== undefined) return !stats.isDirectory();
    } catch {
      return true; // ENOTDIR: a file lies further up
    }
  }
  return false;
}
