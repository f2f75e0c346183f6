// deno's module maps: deno.json/deno.jsonc `imports` (exact keys, "/"-ending prefixes) and `scopes`, and the
// `importMap` file it names (or `--import-map`). The project files a bare specifier maps to, those a path key remaps,
// and the map files are named; npm:, jsr: and https: targets are no project file. A map it cannot read is a problem.

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fileCandidates, type MappedName, nearestConfigs, type Problem, readObject } from './module-map-files.js';
import type { TypescriptRun } from './typescript-runners.js';

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
export function denoNames(starts: readonly string[], run: TypescriptRun, base: string, specifiers: readonly { text: string; line: number }[], problem: Problem): MappedName[] {
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
