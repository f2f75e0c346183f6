// tsconfig.json's module maps as tsx, ts-node (with tsconfig-paths) and bun read them: `compilerOptions.paths` and
// `baseUrl`, merged along the `extends` chain (relative files and packages in node_modules), `${configDir}` spelled out.
// The files a bare specifier maps to, and every config of the chain, are named; what zotbox cannot map is a problem
// (unresolved), never "no mapping".

import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileCandidates, type MappedName, nearestConfigs, type Problem, readObject } from './module-map-files.js';
import { compilerPluginProblem, tsNodeOptionNames } from './ts-node-options.js';

/** A tsconfig's mapping options as TypeScript merges them along `extends`: the last that sets one wins. */
interface CompilerMaps {
  baseUrl?: string;
  paths?: { readonly map: Readonly<Record<string, unknown>>; readonly directory: string };
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
export function tsconfigNames(starts: readonly string[], explicit: readonly string[], specifiers: readonly { text: string; line: number }[], problem: Problem): MappedName[] {
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
    // ts-node's own options along the chain: read whichever runner it is (a superset: tsx and bun ignore the key).
    for (const file of files) names.push(...tsNodeOptionNames(file, (what) => problem(`ts-node loads modules through ${what}`)));
    const plugins = compilerPluginProblem(files);
    if (plugins !== undefined) problem(`ts-node loads modules through ${config}: ${plugins}`);
    for (const { text, line } of specifiers) {
      const targets = maps.paths === undefined ? undefined : pathsTargets(maps.paths.map, text, maps.baseUrl ?? maps.paths.directory, path.dirname(config));
      if (typeof targets === 'string') problem(`the TypeScript runner maps ${JSON.stringify(text)} through ${config}, and ${targets}`);
      const all = [...(Array.isArray(targets) ? targets : []), ...(maps.baseUrl === undefined ? [] : [path.resolve(maps.baseUrl, text)])];
      for (const target of all) for (const name of fileCandidates(target)) names.push({ name, index: line, why: `${config} maps ${JSON.stringify(text)} to it` });
    }
  }
  return names;
}
