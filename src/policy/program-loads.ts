// Unconfined, what a program's file makes the kernel and the loader load runs on the
// host too (adv27d): a script's #! interpreter (and that interpreter's, nested up to
// the kernel's 4 levels), an ELF file's loader (PT_INTERP) and the libraries it asks
// for first in its own search path (DT_RUNPATH, DT_RPATH), with theirs in turn. Each
// is walked like the program itself (changeable-program.ts); a search path entry
// that is empty or relative is resolved from the working directory, which the agent
// chooses, and one with a loader variable other than $ORIGIN is not understood:
// both are denied. Libraries the loader finds in the system's own directories are
// the distribution's.
import { readSync, openSync, closeSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { changeableProgram } from './changeable-program.js';
import { readElfLoads, type ElfLoads } from './elf-loads.js';
import { isInsideRoot, type CompiledScopes, type ScopeRoot } from './scopes.js';
import { deny, type Check } from './shell-check.js';

/** The kernel's limit on nested #! interpreters (BINPRM_MAX_RECURSION), used for libraries' search paths as well. */
const MAX_DEPTH = 4;

/** What a file loads, read once per file version: by device, inode, size and change time. */
const cache = new Map<string, ElfLoads | { readonly shebang: string } | 'plain'>();
const MAX_CACHED = 1024;

function interpreterLine(file: string): string | undefined {
  const buffer = Buffer.alloc(256);
  const fd = openSync(file, 'r');
  try {
    const text = buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0)).toString('latin1');
    return text.startsWith('#!') ? (text.slice(2).split('\n')[0] as string).trim() : undefined;
  } finally {
    closeSync(fd);
  }
}

function loadsOf(file: string): ElfLoads | { readonly shebang: string } | 'plain' {
  const stats = statSync(file, { bigint: true });
  const key = `${stats.dev}:${stats.ino}:${stats.size}:${stats.ctimeNs}`;
  const known = cache.get(key);
  if (known !== undefined) return known;
  const line = interpreterLine(file);
  const loads = line !== undefined ? { shebang: line } : (readElfLoads(file) ?? 'plain');
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
  cache.set(key, loads);
  return loads;
}

/** Expands $ORIGIN (the canonical file's directory); undefined for an entry the loader would read otherwise. */
function searchDirectory(entry: string, origin: string): string | undefined {
  const expanded = entry.replaceAll('${ORIGIN}', origin).replaceAll('$ORIGIN', origin);
  if (expanded.includes('$') || !expanded.startsWith('/')) return undefined;
  return expanded;
}

function elfReason(file: string, loads: ElfLoads, writeRoots: readonly ScopeRoot[], depth: number): string | undefined {
  if (loads.interpreter !== undefined) {
    const why = changeableProgram(loads.interpreter, writeRoots);
    if (why !== undefined) return `its loader ${loads.interpreter} ${why.why}`;
  }
  for (const entry of loads.searchPaths) {
    const directory = searchDirectory(entry, path.dirname(file));
    if (directory === undefined) return `${file} asks the loader for libraries in ${JSON.stringify(entry)} first, which is resolved from the working directory or not understood`;
    const why = changeableProgram(directory, writeRoots);
    if (why !== undefined) return `${file} loads libraries from ${directory} first, which ${why.why}`;
    for (const library of loads.needed) {
      const candidate = path.join(directory, library);
      if (statSync(candidate, { throwIfNoEntry: false }) === undefined) continue;
      const reason = fileReason(candidate, writeRoots, depth + 1);
      if (reason !== undefined) return reason;
    }
  }
  return undefined;
}

/** Why what `file` (as looked up) loads could be the agent's, or undefined. What cannot be read or understood is a reason. */
function fileReason(file: string, writeRoots: readonly ScopeRoot[], depth: number): string | undefined {
  // The program itself (depth 0) was walked by the location check, from where it was found.
  const why = depth === 0 ? undefined : changeableProgram(file, writeRoots);
  if (why !== undefined) return `${file} ${why.why}`;
  if (depth > MAX_DEPTH) return `${file} is loaded more than ${MAX_DEPTH} levels deep`;
  try {
    const canonical = realpathSync.native(file);
    const loads = loadsOf(canonical);
    if (loads === 'plain') return undefined;
    if ('shebang' in loads) {
      const interpreter = loads.shebang.split(/[ \t]+/u)[0] as string;
      if (!interpreter.startsWith('/')) return `${canonical} names a relative interpreter ${JSON.stringify(interpreter)}, found from the working directory`;
      return fileReason(interpreter, writeRoots, depth + 1);
    }
    return elfReason(canonical, loads, writeRoots, depth);
  } catch (cause) {
    return `${file} cannot be read whole (${(cause as NodeJS.ErrnoException).code ?? (cause as Error).message})`;
  }
}

function canonicalOrSelf(directory: string): string {
  try {
    return realpathSync.native(directory);
  } catch {
    return directory;
  }
}

/** With confinement off: denies a program when what it loads (interpreters, the loader, its libraries) the agent could change. */
export function checkProgramLoadsUnconfined(name: string, found: { readonly program: string; readonly foundAt: string }, scopes: CompiledScopes): Check<null> {
  // A write scope that holds the directory the program was found in is the user's grant over it (program-location.ts),
  // and over what it loads from there.
  const directory = canonicalOrSelf(path.dirname(found.foundAt));
  const roots = scopes.write.filter(({ root }) => !isInsideRoot(directory, root));
  if (roots.length === 0) return { ok: true, value: null };
  const reason = fileReason(found.program, roots, 0);
  if (reason === undefined) return { ok: true, value: null };
  return deny(
    'ZB_POLICY_SHELL_PROGRAM',
    `${JSON.stringify(name)} is denied unconfined: what it loads could be the agent's: ${reason}. Fix: install the program and what it loads outside the write scopes, or run with confinement (drop --confine off).`,
  );
}
