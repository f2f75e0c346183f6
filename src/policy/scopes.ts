// Scope compilation: the manifest's declared read and write scopes, expanded for
// one workspace and one agent data directory and resolved to canonical roots
// with the same resolver as every target path. The declaration is kept, so the
// scopes are recompiled whenever the workspace changes (Part A). A root that
// cannot be resolved is dropped, with a warning: fewer permissions, never more.
import type { Manifest } from './manifest.js';
import { absoluteFrom, resolveCanonicalPath } from './path-resolve.js';

export interface ScopeContext {
  /** Canonical absolute workspace (the run's --cwd). */
  readonly workspace: string;
  /** Canonical absolute agent data directory. */
  readonly agentData: string;
  /**
   * Canonical zotbox state directory (consents, sessions, every agent's data).
   * Never in scope, whatever a scope declares, except the agent's own data
   * directory inside it (issue 9 §6). Absent only where no state exists (tests).
   */
  readonly stateDirectory?: string;
  /** Other places the state directory shows (a bind mount of it, or of a directory above it): kept out as it is. */
  readonly stateAliases?: readonly string[];
}

export interface ScopeRoot {
  /** The entry as the manifest declares it ("${workspace}/docs"). */
  readonly declared: string;
  /** Canonical absolute root. */
  readonly root: string;
}

export interface CompiledScopes {
  readonly context: ScopeContext;
  readonly read: readonly ScopeRoot[];
  readonly write: readonly ScopeRoot[];
  /** Declared scopes that could not be resolved, with the reason. */
  readonly warnings: readonly string[];
}

/** Expands ${workspace} and ${agent_data}; a relative result is below the workspace. */
export function expandScope(declared: string, context: ScopeContext): string {
  const expanded = declared.replaceAll('${workspace}', context.workspace).replaceAll('${agent_data}', context.agentData);
  return absoluteFrom(context.workspace, expanded);
}

export function compileScopes(fs: Manifest['permissions']['fs'], context: ScopeContext): CompiledScopes {
  const warnings: string[] = [];
  const compile = (declared: readonly string[]): ScopeRoot[] =>
    declared.flatMap((entry) => {
      const resolved = resolveCanonicalPath(expandScope(entry, context));
      if (!resolved.ok) {
        warnings.push(`scope ${JSON.stringify(entry)} is unusable and grants nothing: ${resolved.reason}`);
        return [];
      }
      return [{ declared: entry, root: resolved.path }];
    });
  return { context, read: compile(fs.read), write: compile(fs.write), warnings };
}

/** Containment by whole path segments: "/ws" contains "/ws" and "/ws/a", never "/ws2". */
export function isInsideRoot(canonicalPath: string, root: string): boolean {
  if (root === '/') return true;
  return canonicalPath === root || (canonicalPath.startsWith(root) && canonicalPath.charCodeAt(root.length) === 0x2f);
}

/** A declared scope that resolves into the state directory, which no scope may reach. */
export interface StateDirectoryScope {
  readonly access: 'read' | 'write';
  /** The entry as the manifest declares it ("${agent_data}/../consents"). */
  readonly declared: string;
  /** Its canonical root ("<state>/agents/<name>/consents"). */
  readonly root: string;
}

/**
 * The declared scopes whose canonical root lies inside the state directory
 * (consent receipts, sessions, every agent's data), except roots inside the
 * agent's own data directory: "${agent_data}/.." is the agent's directory, with
 * its consents, and is listed. A scope that contains the state directory ("/",
 * $HOME) is not listed: path decisions and the sandbox carve the state out of it.
 * Pure: the context's directories must already be canonical.
 */
export function findScopesInStateDirectory(scopes: CompiledScopes): StateDirectoryScope[] {
  const { stateDirectory, agentData } = scopes.context;
  if (stateDirectory === undefined) return [];
  // The exception holds only for a data directory strictly inside the state directory:
  // one that is the state directory, or contains it, would exempt everything.
  const ownData = agentData !== stateDirectory && isInsideRoot(agentData, stateDirectory) ? agentData : undefined;
  const reaches = (root: string) => isInsideRoot(root, stateDirectory) && (ownData === undefined || !isInsideRoot(root, ownData));
  const find = (access: 'read' | 'write', roots: readonly ScopeRoot[]) => roots.filter((s) => reaches(s.root)).map((s) => ({ access, declared: s.declared, root: s.root }));
  return [...find('read', scopes.read), ...find('write', scopes.write)];
}
