// What node (and the TypeScript runners tsx, ts-node, bun, deno) loads for a specifier that is no relative path:
// a subpath import (`import "#lib/util.js"`, mapped by the nearest package.json's "imports") and the package importing
// itself by its own name (mapped by its "exports"). Read as node's resolution reads them, every condition counted
// (which one applies depends on how the program is run); the package.json that maps them is protected too, since
// what it maps is what runs. Closed world: a specifier zotbox cannot map to a file is unresolved, never "nothing".
// A bare specifier naming another package loads from node_modules, installed code that is no tool file (the TypeScript
// runners map bare specifiers through tsconfig.json and deno.json first: typescript-path-maps.ts).

import path from 'node:path';
import { OVERSIZED, readSmallFile } from './git-inventory.js';
import { typescriptCandidates } from './typescript-resolution.js';

/** The specifiers of `code`'s imports and requires that are no relative or absolute path, with the line that says each. */
export function packageSpecifiers(code: string): { readonly text: string; readonly line: number }[] {
  const found: { text: string; line: number }[] = [];
  for (const [line, text] of code.split('\n').entries())
    for (const match of text.matchAll(/(?:\brequire\s*\(\s*|\bimport\s*\(\s*|\bfrom\s+|\bimport\s+)["'`]([^"'`\s./][^"'`\s]*)["'`]/gu))
      if (!match[1]!.startsWith('node:')) found.push({ text: match[1]!, line });
  return found;
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
function mapped(map: Readonly<Record<string, unknown>>, key: string): string[] | undefined {
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

/** The nearest package.json at or above `directory` (node's package scope), parsed, or why it cannot be read. */
function packageScope(directory: string): { readonly file: string; readonly json: Record<string, unknown> | string } | undefined {
  for (let at = directory; ; at = path.dirname(at)) {
    const file = path.join(at, 'package.json');
    const text = readSmallFile(file);
    if (text === OVERSIZED) return { file, json: 'it is larger than zotbox reads' };
    if (text !== undefined) {
      try {
        const json: unknown = JSON.parse(text);
        return { file, json: typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : 'it is no JSON object' };
      } catch {
        return { file, json: 'it is no valid JSON' };
      }
    }
    if (path.dirname(at) === at) return undefined;
  }
}

/** A package.json map: "imports" as written, "exports" as a map of subpaths (a lone target or conditions is ".'s"). */
function asMap(value: unknown, subpaths: boolean): Record<string, unknown> | undefined {
  if (typeof value === 'string' || Array.isArray(value)) return subpaths ? { '.': value } : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  const map = value as Record<string, unknown>;
  return subpaths && !Object.keys(map).some((key) => key.startsWith('.')) ? { '.': map } : map;
}

/**
 * The files node loads for `file`'s subpath imports and its self-references (absolute), with the package.json that
 * maps them; what it cannot map is unresolved (`where` says the line).
 */
export function packageSpecifierNames(file: string, code: string, where: (index: number, what: string) => string, unresolved: string[]): { name: string; index: number }[] {
  const names: { name: string; index: number }[] = [];
  const specifiers = packageSpecifiers(code);
  if (specifiers.length === 0) return names;
  const scope = packageScope(path.dirname(file));
  for (const { text, line } of specifiers) {
    const own = scope === undefined || typeof scope.json === 'string' ? undefined : scope.json.name;
    const self = typeof own === 'string' && (text === own || text.startsWith(`${own}/`));
    if (!text.startsWith('#') && !self) continue; // another package: installed in node_modules
    if (scope === undefined || typeof scope.json === 'string') {
      const why = scope === undefined ? 'and there is none' : typeof scope.json === 'string' ? `and ${scope.file}: ${scope.json}` : '';
      unresolved.push(where(line, `: node maps ${JSON.stringify(text)} through the nearest package.json, ${why}`));
      continue;
    }
    const map = asMap(self ? scope.json.exports : scope.json.imports, self);
    const targets = map === undefined ? undefined : mapped(map, self ? `.${text.slice(typeof own === 'string' ? own.length : 0)}` : text);
    // A target in the package ("./lib/*") is what runs; one naming another package (imports only) is installed code.
    const local = (targets ?? []).filter((target) => target.startsWith('./'));
    if (targets === undefined || targets.some((target) => !target.startsWith('./') && (self || !/^[A-Za-z@][^:]*$/u.test(target)))) {
      unresolved.push(where(line, `: node maps ${JSON.stringify(text)} through ${scope.file}, and zotbox cannot work out which file that is`));
      continue;
    }
    names.push({ name: scope.file, index: line });
    for (const target of local) for (const name of [target, ...typescriptCandidates(target)]) names.push({ name: path.resolve(path.dirname(scope.file), name), index: line });
  }
  return names;
}
