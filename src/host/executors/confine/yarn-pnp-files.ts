// The files a `yarn` command runs as code in the directory it runs in, whatever it is asked to do: the `.yarnrc.yml`
// of that directory and each above it (yarn reads them all), the release its `yarnPath` names and the plugins it lists
// (yarn runs them in its own process), the environment files it lists in `injectEnvironmentFiles` (loaded into every
// script and bin yarn runs), yarn 1's `.yarnrc` and its `yarn-path`, and Plug'n'Play's runtime (`.pnp.cjs`,
// `.pnp.loader.mjs`, `.pnp.data.json`), which yarn loads and hands to every node it starts. Named there or not (one
// made later runs too). Closed world: an rc file zotbox cannot read or parse, or a path it cannot spell out, is a
// reason, never "nothing there". Never reads the runtime or the release (generated code; protected, not read on).

import { lstatSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import { OVERSIZED, readSmallFile } from './git-inventory.js';

// yaml is loaded when an rc file is first read (as node-workspace-packages.ts does): `zotbox check` never loads it.
const require = createRequire(import.meta.url);

export interface YarnProjectFiles {
  /** Every file yarn runs or reads as configuration from the directory (absolute), there or not. */
  readonly files: readonly string[];
  /** Whether names run there resolve through Plug'n'Play (a `.pnp.cjs` there, or the nearest `nodeLinker` says pnp). */
  readonly pnp: boolean;
  /** Why a file cannot be read: each refuses every writer. */
  readonly unresolved: readonly string[];
}

/** Plug'n'Play's runtime, as yarn writes it at the project's top. */
const PNP_FILES = ['.pnp.cjs', '.pnp.loader.mjs', '.pnp.data.json', '.pnp.js'];

/** What `.yarnrc.yml` says that decides what runs: the linker, the release, the plugins (paths relative to the file). */
interface RcReading {
  readonly nodeLinker?: string;
  readonly runs: readonly string[];
  readonly unresolved?: string;
}

/** Whether `file` is there (a link counts); a place zotbox cannot examine counts too (below a file: nothing there). */
function present(file: string): boolean {
  try {
    return lstatSync(file, { throwIfNoEntry: false }) !== undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ENOTDIR';
  }
}

/** A path setting of an rc file, resolved against its directory; undefined where it holds an expansion (`${HOME}`). */
function rcPath(value: string, directory: string): string | undefined {
  return /\$\{|^~/u.test(value) ? undefined : path.resolve(directory, value);
}

/** The linker, release and plugins of one `.yarnrc.yml`; `{runs: []}` where there is none. */
function readRcYaml(file: string): RcReading {
  const text = readSmallFile(file);
  if (text === undefined) return present(file) ? { runs: [], unresolved: `${file} cannot be read (a link, or no file)` } : { runs: [] };
  if (text === OVERSIZED) return { runs: [], unresolved: `${file} is larger than zotbox reads` };
  let parsed: unknown;
  try {
    parsed = (require('yaml') as typeof Yaml).parse(text);
  } catch {
    return { runs: [], unresolved: `${file} cannot be parsed` };
  }
  if (parsed === null || parsed === undefined) return { runs: [] };
  if (typeof parsed !== 'object' || Array.isArray(parsed)) return { runs: [], unresolved: `${file} is no YAML mapping` };
  const { nodeLinker, yarnPath, plugins, injectEnvironmentFiles } = parsed as Record<string, unknown>;
  const listed: readonly unknown[] = Array.isArray(plugins) ? plugins : [];
  // The environment files yarn loads into every script and bin it runs (`.env?`: optional, the same file).
  if (injectEnvironmentFiles !== undefined && !Array.isArray(injectEnvironmentFiles)) return { runs: [], unresolved: `${file} lists injectEnvironmentFiles in a form zotbox does not read` };
  const injected = ((injectEnvironmentFiles ?? []) as unknown[]).map((entry) => (typeof entry === 'string' ? entry.replace(/\?$/u, '') : entry));
  const written = [yarnPath, ...listed.map((plugin) => (typeof plugin === 'object' && plugin !== null ? (plugin as Record<string, unknown>).path : plugin)), ...injected];
  const runs: string[] = [];
  for (const value of written) {
    if (value === undefined) continue;
    const resolved = typeof value === 'string' ? rcPath(value, path.dirname(file)) : undefined;
    if (resolved === undefined) return { runs: [], unresolved: `${file} names code yarn runs (yarnPath, plugins, injectEnvironmentFiles) at ${JSON.stringify(value)}, which zotbox cannot spell out` };
    runs.push(resolved);
  }
  if (plugins !== undefined && !Array.isArray(plugins)) return { runs, unresolved: `${file} lists its plugins in a form zotbox does not read` };
  return {
    ...(typeof nodeLinker === 'string' ? { nodeLinker } : {}),
    runs,
    ...(nodeLinker !== undefined && typeof nodeLinker !== 'string' ? { unresolved: `${file} has a nodeLinker zotbox cannot read` } : {}),
  };
}

/** The release yarn 1's `.yarnrc` names (`yarn-path "./.yarn/releases/yarn-1.22.js"`), which yarn 1 runs in its place. */
function readRcClassic(file: string): RcReading {
  const text = readSmallFile(file);
  if (text === undefined) return present(file) ? { runs: [], unresolved: `${file} cannot be read (a link, or no file)` } : { runs: [] };
  if (text === OVERSIZED) return { runs: [], unresolved: `${file} is larger than zotbox reads` };
  const runs: string[] = [];
  for (const match of text.matchAll(/^\s*"?yarn-path"?\s+(?:"([^"]*)"|(\S+))/gmu)) {
    const value = match[1] ?? match[2]!;
    const resolved = rcPath(value, path.dirname(file));
    if (resolved === undefined) return { runs: [], unresolved: `${file} names the yarn it runs at ${JSON.stringify(value)}, which zotbox cannot spell out` };
    runs.push(resolved);
  }
  return { runs };
}

/** The files yarn runs or reads as configuration when it runs in `directory` (absolute), from there up to the root. */
export function yarnProjectFiles(directory: string): YarnProjectFiles {
  const files: string[] = [];
  const unresolved: string[] = [];
  let linker: string | undefined;
  let runtime = false;
  for (let at = path.resolve(directory); ; at = path.dirname(at)) {
    for (const name of PNP_FILES) {
      const file = path.join(at, name);
      files.push(file);
      if (name === '.pnp.cjs' && present(file)) runtime = true;
    }
    for (const [name, read] of [
      ['.yarnrc.yml', readRcYaml],
      ['.yarnrc', readRcClassic],
    ] as const) {
      const file = path.join(at, name);
      const rc = read(file);
      files.push(file, ...rc.runs);
      if (rc.unresolved !== undefined) unresolved.push(rc.unresolved);
      // The nearest rc file that sets the linker wins (yarn reads them from the root down, each over the last).
      linker ??= rc.nodeLinker;
    }
    if (path.dirname(at) === at) break;
  }
  return { files, pnp: runtime || linker === 'pnp', unresolved };
}
