// What the TypeScript runners load for a bare specifier besides node_modules: tsx, ts-node (with tsconfig-paths) and bun
// map it through the nearest tsconfig.json's `paths` and `baseUrl` (and its `extends` chain), deno through deno.json's
// `imports`/`scopes` and the `importMap` file it names. The files a program's specifiers map to are what runs; the map
// files themselves (every tsconfig of the chain, deno.json, the import map, and a nearer one not yet written) decide
// what runs, so they are named too. What zotbox cannot map is unresolved with its reason, never "nothing".

import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { OVERSIZED, readSmallFile } from './git-inventory.js';
import { parseJsonc } from './jsonc.js';
import { packageSpecifiers } from './node-module-resolution.js';
import type { TypescriptRun } from './typescript-runners.js';
import { typescriptCandidates } from './typescript-resolution.js';

/** A name the maps give (absolute), with the line of the program that makes it matter (0: the program as a whole). */
export interface MappedName {
  readonly name: string;
  readonly index: number;
  readonly why: string;
}

/** A tsconfig's mapping options as TypeScript merges them along `extends`: the last that sets one wins. */
interface CompilerMaps {
  baseUrl?: string;
  paths?: { readonly map: Readonly<Record<string, unknown>>; readonly directory: string };
}

type Problem = (what: string) => void;

/** A JSON(C) object file, or why it cannot be read (undefined: there is none). */
function readObject(file: string): Record<string, unknown> | string | undefined {
  const text = readSmallFile(file);
  if (text === undefined) return existsSync(file) ? 'it exists but cannot be read' : undefined;
  if (text === OVERSIZED) return 'it is larger than zotbox reads';
  const parsed = parseJsonc(text);
  if ('error' in parsed) return parsed.error;
  return typeof parsed.value === 'object' && parsed.value !== null && !Array.isArray(parsed.value) ? (parsed.value as Record<string, unknown>) : 'it is no JSON object';
}

/** A path option's value, `${configDir}` being the directory of the tsconfig the runner reads; undefined: another template. */
function expand(value: string, configDir: string): string | undefined {
  const expanded = value.replaceAll('${configDir}', configDir);
  return expanded.includes('${') ? undefined : expanded;
}

/** The files an `extends` value may name, first existing wins: a path (as written, then with .json), or a package's config. */
function extendsCandidates(value: string, directory: string): string[] {
  if (/^\.{0,2}\//u.test(value) || path.isAbsolute(value)) {
    const file = path.resolve(directory, value);
    return file.endsWith('.json') ? [file] : [file, `${file}.json`];
  }
  const candidates: string[] = [];
  for (let at = directory; ; at = path.dirname(at)) {
    const file = path.join(at, 'node_modules', value);
    candidates.push(...(file.endsWith('.json') ? [file] : [file, `${file}.json`]), path.join(file, 'tsconfig.json'));
    if (path.dirname(at) === at) return candidates;
  }
}

/** `file`'s mapping options with its `extends` chain merged in; every file of the chain is pushed to `files`. */
function readTsconfig(file: string, configDir: string, files: string[], problem: Problem, seen: ReadonlySet<string>): CompilerMaps {
  const json = readObject(file);
  if (json === undefined) return {};
  files.push(file);
  if (typeof json === 'string') {
    problem(`${file}: ${json}`);
    return {};
  }
  const maps: CompilerMaps = {};
  const directory = path.dirname(file);
  const bases = typeof json.extends === 'string' ? [json.extends] : Array.isArray(json.extends) ? json.extends : json.extends === undefined ? [] : [undefined];
  for (const base of bases) {
    if (typeof base !== 'string') {
      problem(`${file}: its "extends" is no file name`);
      continue;
    }
    const candidates = extendsCandidates(base, directory);
    const found = candidates.find((candidate) => existsSync(candidate));
    // Not there: the runner stops on it (nothing runs); a relative one the agent may write is protected by its name.
    if (found === undefined) files.push(...(/^\.{0,2}\//u.test(base) || path.isAbsolute(base) ? candidates : []));
    else if (seen.has(found)) problem(`${file}: its "extends" chain comes back to ${found}`);
    else Object.assign(maps, readTsconfig(found, configDir, files, problem, new Set([...seen, found])));
  }
  const options = json.compilerOptions;
  if (options === undefined) return maps;
  if (typeof options !== 'object' || options === null) {
    problem(`${file}: its "compilerOptions" is no object`);
    return maps;
  }
  const { baseUrl, paths } = options as Record<string, unknown>;
  if (baseUrl !== undefined) {
    const value = typeof baseUrl === 'string' ? expand(baseUrl, configDir) : undefined;
    if (value === undefined) problem(`${file}: its "baseUrl" ${JSON.stringify(baseUrl)} is no directory zotbox can spell out`);
    else maps.baseUrl = path.resolve(directory, value);
  }
  if (paths !== undefined) {
    if (typeof paths !== 'object' || paths === null || Array.isArray(paths)) problem(`${file}: its "paths" is no object`);
    else maps.paths = { map: paths as Record<string, unknown>, directory };
  }
  return maps;
}

/**
 * The config files a runner looks for from `start` up: every name (one not yet written too, which a write would put
 * nearer) up to the first directory that has one, and those that exist there.
 */
function nearestConfigs(start: string, names: readonly string[]): { readonly names: string[]; readonly found: string[] } {
  const all: string[] = [];
  for (let at = start; ; at = path.dirname(at)) {
    const here = names.map((name) => path.join(at, name));
    all.push(...here);
    const found = here.filter((file) => existsSync(file));
    if (found.length > 0 || path.dirname(at) === at) return { names: all, found };
  }
}

/** The files a runner tries for a path a map gives: as written, with the runners' extensions, and as a directory. */
function fileCandidates(target: string): string[] {
  const extensions = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs', '.json'];
  const files = [target, ...typescriptCandidates(target), ...extensions.map((extension) => `${target}${extension}`)];
  return [...files, path.join(target, 'package.json'), ...extensions.filter((extension) => extension !== '.json').map((extension) => path.join(target, `index${extension}`))];
}

/**
 * The paths `specifier` maps to through `paths` (TypeScript's rule: the exact key, else the one-`*` pattern with the
 * longest prefix), relative to `root`; undefined where no key matches; a string where zotbox cannot map it.
 */
function pathsTargets(map: Readonly<Record<string, unknown>>, specifier: string, root: string, configDir: string): string[] | string | undefined {
  let key: string | undefined = Object.hasOwn(map, specifier) && !specifier.includes('*') ? specifier : undefined;
  let star = '';
  if (key === undefined) {
    for (const pattern of Object.keys(map)) {
      const parts = pattern.split('*');
      if (parts.length > 2 && specifier.startsWith(parts[0]!)) return `its "paths" pattern ${JSON.stringify(pattern)} has more than one "*"`;
      if (parts.length !== 2) continue;
      const [prefix, suffix] = parts as [string, string];
      if (!specifier.startsWith(prefix) || !specifier.endsWith(suffix) || specifier.length < prefix.length + suffix.length) continue;
      if (key === undefined || prefix.length > key.indexOf('*')) {
        key = pattern;
        star = specifier.slice(prefix.length, specifier.length - suffix.length);
      }
    }
  }
  if (key === undefined) return undefined;
  const targets = map[key];
  if (!Array.isArray(targets) || targets.some((target) => typeof target !== 'string')) return `its "paths" entry ${JSON.stringify(key)} is no list of paths`;
  const resolved: string[] = [];
  for (const target of targets as string[]) {
    const value = expand(target.replaceAll('*', star), configDir);
    if (value === undefined) return `its "paths" entry ${JSON.stringify(key)} holds ${JSON.stringify(target)}, which zotbox cannot spell out`;
    resolved.push(path.resolve(root, value));
  }
  return resolved;
}

/** The tsconfig.json maps: the chain's files, and the files each bare specifier of the program maps to. */
function tsconfigNames(starts: readonly string[], explicit: readonly string[], specifiers: readonly { text: string; line: number }[], problem: Problem): MappedName[] {
  const names: MappedName[] = [];
  const configs = [...explicit];
  for (const start of starts) {
    const nearest = nearestConfigs(start, ['tsconfig.json', 'jsconfig.json']);
    for (const name of nearest.names) names.push({ name, index: 0, why: 'a nearer tsconfig.json or jsconfig.json written here would map its imports' });
    configs.push(...nearest.found);
  }
  for (const config of new Set(configs)) {
    const files: string[] = [];
    const maps = readTsconfig(config, path.dirname(config), files, (what) => problem(`the TypeScript runner maps the program's imports through ${what}`), new Set([config]));
    if (!existsSync(config)) files.push(config);
    for (const file of files) names.push({ name: file, index: 0, why: 'its "paths", "baseUrl" and "extends" decide which file an import runs' });
    for (const { text, line } of specifiers) {
      const targets = maps.paths === undefined ? undefined : pathsTargets(maps.paths.map, text, maps.baseUrl ?? maps.paths.directory, path.dirname(config));
      if (typeof targets === 'string') problem(`the TypeScript runner maps ${JSON.stringify(text)} through ${config}, and ${targets}`);
      const all = [...(Array.isArray(targets) ? targets : []), ...(maps.baseUrl === undefined ? [] : [path.resolve(maps.baseUrl, text)])];
      for (const target of all) for (const name of fileCandidates(target)) names.push({ name, index: line, why: `${config} maps ${JSON.stringify(text)} to it` });
    }
  }
  return names;
}

/** A deno import map's targets for `specifier` (exact key, else the longest "/"-ending prefix key), as project files. */
function importMapTargets(map: Readonly<Record<string, unknown>>, specifier: string, directory: string): string[] {
  const keys = Object.keys(map).filter((key) => key === specifier || (key.endsWith('/') && specifier.startsWith(key)));
  const key = keys.includes(specifier) ? specifier : keys.sort((a, b) => b.length - a.length)[0];
  const target = key === undefined ? undefined : map[key];
  return typeof target === 'string' ? projectFile(target + specifier.slice(key!.length), directory) : [];
}

/** A map target that is a file of the project (relative, absolute or file:); npm:, jsr:, https: name other code. */
function projectFile(target: string, directory: string): string[] {
  if (/^\.{0,2}\//u.test(target)) return [path.resolve(directory, target)];
  if (target.startsWith('file:')) {
    try {
      return [fileURLToPath(target)];
    } catch {
      return []; // no file a runner could load: it stops on it
    }
  }
  return [];
}

/** Every import map of a deno config or import map file: its `imports` and each scope's. */
function importMapsOf(json: Readonly<Record<string, unknown>>, file: string, problem: Problem): Record<string, unknown>[] {
  const maps: Record<string, unknown>[] = [];
  const isMap = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
  if (json.imports !== undefined) {
    if (isMap(json.imports)) maps.push(json.imports);
    else problem(`${file}: its "imports" is no object`);
  }
  if (json.scopes !== undefined) {
    if (isMap(json.scopes) && Object.values(json.scopes).every(isMap)) maps.push(...(Object.values(json.scopes) as Record<string, unknown>[]));
    else problem(`${file}: its "scopes" is no object of import maps`);
  }
  return maps;
}

/** deno's maps: deno.json(c), the import map it names, and what each bare specifier (and each path key) maps to. */
function denoNames(starts: readonly string[], run: TypescriptRun, base: string, specifiers: readonly { text: string; line: number }[], problem: Problem): MappedName[] {
  const names: MappedName[] = [];
  const configs = run.denoConfigs.map((config) => path.resolve(base, config));
  const mapFiles = run.importMaps.map((map) => path.resolve(base, map));
  for (const start of starts) {
    const nearest = nearestConfigs(start, ['deno.json', 'deno.jsonc']);
    for (const name of nearest.names) names.push({ name, index: 0, why: 'a nearer deno.json written here would map its imports' });
    configs.push(...nearest.found);
  }
  const maps: { map: Record<string, unknown>; directory: string; file: string }[] = [];
  const readMap = (file: string, config: boolean) => {
    names.push({ name: file, index: 0, why: 'its import map decides which file an import runs' });
    const json = readObject(file);
    if (typeof json === 'string') problem(`deno maps the program's imports through ${file}: ${json}`);
    if (typeof json !== 'object') return;
    for (const map of importMapsOf(json, file, (what) => problem(`deno maps the program's imports through ${what}`))) maps.push({ map, directory: path.dirname(file), file });
    if (!config || json.importMap === undefined) return;
    if (typeof json.importMap !== 'string') problem(`deno maps the program's imports through ${file}, and its "importMap" is no file name`);
    else if (!/^[a-z][a-z0-9+.-]*:/iu.test(json.importMap) || json.importMap.startsWith('file:'))
      mapFiles.push(...projectFile(json.importMap.startsWith('file:') ? json.importMap : path.resolve(path.dirname(file), json.importMap), ''));
    else problem(`deno maps the program's imports through ${json.importMap}, which ${file} names, and zotbox reads no import map from the network`);
  };
  for (const config of new Set(configs)) readMap(config, true);
  for (const file of new Set(mapFiles)) readMap(file, false);
  for (const { map, directory, file } of maps) {
    for (const { text, line } of specifiers)
      for (const target of importMapTargets(map, text, directory)) for (const name of fileCandidates(target)) names.push({ name, index: line, why: `${file} maps ${JSON.stringify(text)} to it` });
    // A key that is a path or URL remaps that module wherever it is imported: its targets run.
    for (const [key, target] of Object.entries(map))
      if (!/^[\w@#]/u.test(key) || /^[a-z][a-z0-9+.-]*:/iu.test(key))
        for (const found of typeof target === 'string' ? projectFile(target, directory) : []) names.push({ name: found, index: 0, why: `${file} maps ${JSON.stringify(key)} to it` });
  }
  return names;
}

/**
 * What a TypeScript runner loads for `file`'s bare specifiers through the maps, with the map files (absolute); `base`
 * is where the command runs (tsx and deno look for their config from there, ts-node and bun from the file). What
 * zotbox cannot map is pushed to `unresolved`.
 */
export function typescriptMapNames(file: string, code: string, base: string, run: TypescriptRun, where: (index: number, what: string) => string, unresolved: string[]): MappedName[] {
  const problem: Problem = (what) => unresolved.push(where(0, `: ${what}, and zotbox cannot work out which file an import runs`));
  for (const value of run.unreadable) problem(`the command names the map file ${JSON.stringify(value)}`);
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
