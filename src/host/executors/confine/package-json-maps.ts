// Node's package.json maps as node's resolution reads them: "imports" and "exports" (exact keys, one-`*` patterns,
// conditions and fallbacks, every condition counted: which one applies depends on how the program is run), and the
// package scope a file belongs to. Pure reading, no decisions: the callers say what a target they cannot map means.

import path from 'node:path';
import { OVERSIZED, readSmallFile } from './git-inventory.js';

/** A package.json and its contents, or why they cannot be read. */
export interface PackageJson {
  readonly file: string;
  readonly json: Record<string, unknown> | string;
}

/** Every path a package.json map entry's target names (a string, an array of fallbacks, or conditions), `*` filled in. */
function targetsOf(target: unknown, star: string): string[] | undefined {
  if (target === null) return [];
  if (typeof target === 'string') return [target.replaceAll('*', star)];
  const parts = Array.isArray(target) ? target : typeof target === 'object' ? Object.values(target) : undefined;
  if (parts === undefined) return undefined;
  const all: string[] = [];
  for (const part of parts) {
    const targets = targetsOf(part, star);
    if (targets === undefined) return undefined;
    all.push(...targets);
  }
  return all;
}

/** What `key` maps to in an "imports" or "exports" map: its exact entry, or the longest pattern (one `*`) that matches. */
export function mappedTargets(map: Readonly<Record<string, unknown>>, key: string): string[] | undefined {
  if (Object.hasOwn(map, key) && !key.includes('*')) return targetsOf(map[key], '');
  const patterns = Object.keys(map)
    .filter((pattern) => pattern.split('*').length === 2)
    .sort((a, b) => b.indexOf('*') - a.indexOf('*'));
  for (const pattern of patterns) {
    const [prefix, suffix] = pattern.split('*') as [string, string];
    if (key.startsWith(prefix) && key.endsWith(suffix) && key.length >= pattern.length - 1) return targetsOf(map[pattern], key.slice(prefix.length, key.length - suffix.length));
  }
  return undefined;
}

/** A package.json parsed, or why it cannot be read (undefined: there is none). */
export function readPackageJson(file: string): Record<string, unknown> | string | undefined {
  const text = readSmallFile(file);
  if (text === OVERSIZED) return 'it is larger than zotbox reads';
  if (text === undefined) return undefined;
  try {
    const json: unknown = JSON.parse(text);
    return typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : 'it is no JSON object';
  } catch {
    return 'it is no valid JSON';
  }
}

/** The nearest package.json at or above `directory` (node's package scope), parsed, or why it cannot be read. */
export function packageScope(directory: string): PackageJson | undefined {
  for (let at = directory; ; at = path.dirname(at)) {
    const file = path.join(at, 'package.json');
    const json = readPackageJson(file);
    if (json !== undefined) return { file, json };
    if (path.dirname(at) === at) return undefined;
  }
}

/** A package.json map: "imports" as written, "exports" as a map of subpaths (a lone target or conditions is ".'s"). */
export function packageMap(value: unknown, subpaths: boolean): Record<string, unknown> | undefined {
  if (typeof value === 'string' || Array.isArray(value)) return subpaths ? { '.': value } : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  const map = value as Record<string, unknown>;
  return subpaths && !Object.keys(map).some((key) => key.startsWith('.')) ? { '.': map } : map;
}
