// The map files the TypeScript runners read (tsconfig.json, deno.json, import maps): read as JSON with comments,
// found as each runner looks for them (nearest first, a name not yet written included), and the files a runner tries
// for a path a map gives. Shared by tsconfig-paths.ts and deno-import-maps.ts; what cannot be read is said, not skipped.

import { existsSync } from 'node:fs';
import path from 'node:path';
import { OVERSIZED, readSmallFile } from './git-inventory.js';
import { parseJsonc } from './jsonc.js';
import { typescriptCandidates } from './typescript-resolution.js';

/** A name the maps give (absolute), with the line of the program that makes it matter (0: the program as a whole). */
export interface MappedName {
  readonly name: string;
  readonly index: number;
  readonly why: string;
}

export type Problem = (what: string) => void;

/** A JSON(C) object file, or why it cannot be read (undefined: there is none). */
export function readObject(file: string): Record<string, unknown> | string | undefined {
  const text = readSmallFile(file);
  if (text === undefined) return existsSync(file) ? 'it exists but cannot be read' : undefined;
  if (text === OVERSIZED) return 'it is larger than zotbox reads';
  const parsed = parseJsonc(text);
  if ('error' in parsed) return parsed.error;
  return typeof parsed.value === 'object' && parsed.value !== null && !Array.isArray(parsed.value) ? (parsed.value as Record<string, unknown>) : 'it is no JSON object';
}

/**
 * The config files a runner looks for from `start` up: every name (one not yet written too, which a write would put
 * nearer) up to the first directory that has one, and those that exist there.
 */
export function nearestConfigs(start: string, names: readonly string[]): { readonly names: string[]; readonly found: string[] } {
  const all: string[] = [];
  for (let at = start; ; at = path.dirname(at)) {
    const here = names.map((name) => path.join(at, name));
    all.push(...here);
    const found = here.filter((file) => existsSync(file));
    if (found.length > 0 || path.dirname(at) === at) return { names: all, found };
  }
}

/** The files a runner tries for a path a map gives: as written, with the runners' extensions, and as a directory. */
export function fileCandidates(target: string): string[] {
  const extensions = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs', '.json'];
  const files = [target, ...typescriptCandidates(target), ...extensions.map((extension) => `${target}${extension}`)];
  return [...files, path.join(target, 'package.json'), ...extensions.filter((extension) => extension !== '.json').map((extension) => path.join(target, `index${extension}`))];
}
