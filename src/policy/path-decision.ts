// Path decisions for the read, write and edit tools, and for the path arguments
// of bash commands (gate-rules §6, Part A): the one place that decides a path.
// A decision is made on the canonical path from the shared resolver and carries
// it, so the executor can re-check the same file at the moment of the effect.
// Policy functions return decisions and do not throw; when several rules
// apply, the strictest wins: forbidden, then protected, then out of scope.
import type { ErrorCode } from '../errors.js';
import { isInsideGitMetadata } from './git-control.js';
import { imageEntryOf } from './image-paths.js';
import { absoluteFrom, resolveCanonicalPath } from './path-resolve.js';
import { findControlLocation, ungrantedToolFile, type ControlLocations } from './protected-files.js';
import { isInsideRoot, type CompiledScopes, type ScopeContext, type ScopeRoot } from './scopes.js';

export type PathTool = 'read' | 'write' | 'edit';

export type PathDecision =
  | {
      readonly allow: true;
      readonly tool: PathTool;
      readonly requested: string;
      readonly canonicalPath: string;
      readonly exists: boolean;
      /** The declared scope that allowed it (for edit: the write scope). */
      readonly scope: string;
    }
  | {
      readonly allow: false;
      readonly tool: PathTool;
      readonly requested: string;
      readonly code: ErrorCode;
      readonly reason: string;
      readonly canonicalPath?: string;
    };

const FORBIDDEN_TREES = ['/proc', '/sys', '/dev'];
const ALLOWED_DEVICES = new Set(['/dev/null']);

function deny(tool: PathTool, requested: string, code: ErrorCode, reason: string, canonicalPath?: string): PathDecision {
  return canonicalPath === undefined ? { allow: false, tool, requested, code, reason } : { allow: false, tool, requested, code, reason, canonicalPath };
}

function isForbidden(path: string): boolean {
  if (ALLOWED_DEVICES.has(path)) return false;
  return FORBIDDEN_TREES.some((tree) => isInsideRoot(path, tree));
}

/**
 * Inside the zotbox state directory (consents, sessions, every agent's data) but
 * not inside this agent's own data directory (issue 9 §6). Compared exactly, never
 * case-folded: the state directory is on a case-sensitive volume here, and a
 * case variant names another directory. True only when a state directory is set,
 * which the return type tells the caller.
 */
function isInsideStateDirectory(canonical: string, context: ScopeContext): context is ScopeContext & { readonly stateDirectory: string } {
  const state = context.stateDirectory;
  if (state !== undefined && (context.stateAliases ?? []).some((alias) => isInsideRoot(canonical, alias))) return true; // the same directory, mounted there too
  return state !== undefined && isInsideRoot(canonical, state) && !isInsideRoot(canonical, context.agentData);
}

/** The state directory, or a place it is mounted, at or below `canonical`; undefined when none is. */
export function stateDirectoryBelow(canonical: string, context: ScopeContext): string | undefined {
  const state = context.stateDirectory;
  if (state === undefined) return undefined;
  return [state, ...(context.stateAliases ?? [])].find((place) => isInsideRoot(place, canonical));
}

/**
 * A path given to an unconfined command that holds the state directory below it
 * (`$HOME` when the state directory is `~/.local/state/zotbox`, or a place it is
 * mounted). No sandbox masks it there, and a program given a directory may walk it
 * (`grep -r`, `ls -R`, `du`, `rm -r`, `tar`): which programs do, and into what,
 * is not something the gate can enumerate, so none is given such a directory.
 * Confined, the sandbox's mask keeps the state directory out of every tree.
 */
export function decideUnconfinedTree(decision: PathDecision, context: ScopeContext): PathDecision {
  if (!decision.allow) return decision;
  const canonical = decision.canonicalPath;
  const holds = stateDirectoryBelow(canonical, context);
  if (holds === undefined) return decision;
  return deny(
    decision.tool,
    decision.requested,
    'ZB_POLICY_PATH_PROTECTED',
    `${decision.tool} denied: ${canonical} holds the zotbox state directory (${holds}: consents, sessions, every agent's data), and confinement is off for this run, so a program walking it would read or change that too. Fix: name a directory below it that does not hold ${holds}, run with confinement (drop --confine off), or move the state directory out of the workspace (ZOTBOX_HOME).`,
    canonical,
  );
}

/**
 * Git metadata at any depth, in any case or alias (git-control.ts): a .git
 * directory, a gitfile, or a new ".git" entry. Git runs the programs its config
 * and hooks name, and a gitfile or commondir sends it to a config elsewhere.
 */
function denyGitMetadata(tool: PathTool, requested: string, path: string, canonicalPath?: string): PathDecision {
  const where = canonicalPath === undefined || canonicalPath === path ? path : `${path} (resolved: ${canonicalPath})`;
  return deny(
    tool,
    requested,
    'ZB_POLICY_PATH_PROTECTED',
    `${tool} denied: ${where} is git metadata (a ".git" directory or gitfile, in any case or alias, at any depth). Git runs the programs its files name (hooks, core.fsmonitor, filters, pagers), even on "git status", and a gitfile or commondir points git at a config elsewhere, so agents may not create or change anything there. Fix: write outside .git; change the repository with git commands (git add, git commit) through bash.`,
    canonicalPath,
  );
}

/**
 * Files the user's own tools run later (issue 21 §3, §5): what the repositories' git configuration names (control
 * locations, computed by the host), and tool files by name that no write scope names. Both spellings are checked:
 * a link named .vscode is what VS Code reads, and what it points to is what runs.
 */
function denyUserToolFile(tool: PathTool, requested: string, spellings: readonly string[], scopes: CompiledScopes, controls: ControlLocations, canonical: string): PathDecision | undefined {
  if ('unavailable' in controls) {
    return deny(
      tool,
      requested,
      'ZB_POLICY_PATH_PROTECTED',
      `${tool} denied: zotbox could not work out which files the repositories' git configuration makes git run, or the user's other tools run (${controls.unavailable}), so it writes none. Fix: resolve that, then retry.`,
      canonical,
    );
  }
  for (const spelling of spellings) {
    const location = findControlLocation(spelling, controls.locations);
    if (location !== undefined) {
      return deny(
        tool,
        requested,
        'ZB_POLICY_PATH_PROTECTED',
        `${tool} denied: ${spelling} is ${location.reason}. Agents may not create or change what the user's git runs or reads as configuration. Fix: leave it to the user.`,
        canonical,
      );
    }
  }
  for (const spelling of spellings) {
    const match = ungrantedToolFile(
      spelling,
      scopes.write.map((s) => s.root),
    );
    if (match !== undefined) {
      return deny(
        tool,
        requested,
        'ZB_POLICY_PATH_PROTECTED',
        `${tool} denied: ${spelling} is inside ${match.entry}, a file other tools run on their own (${match.rule.runBy}); a write scope that merely contains it does not grant it. Fix: declare the file itself in permissions.fs.write (for example "${match.entry}"), so that consent shows it.`,
        canonical,
      );
    }
  }
  return undefined;
}

function describeRoots(roots: readonly ScopeRoot[]): string {
  return roots.map((r) => r.root).join(', ');
}

/**
 * /zotbox (image-paths.ts): the agent's own package, consented to by digest, so reading it needs no scope; nothing
 * there is ever written. Commands see it only where the sandbox mounts it; the file tools always (served from the image).
 */
function decideImagePath(tool: PathTool, requested: string, image: { virtual: string; entry: string }, scopes: CompiledScopes, fileTool: boolean): PathDecision {
  const index = scopes.context.image;
  if (tool !== 'read') {
    return deny(
      tool,
      requested,
      'ZB_POLICY_PATH_PROTECTED',
      `${tool} denied: ${image.virtual} is the agent's own package (/zotbox), which is read-only. Fix: write in the workspace instead.`,
      image.virtual,
    );
  }
  if (index === undefined || index.kindOf(image.entry) === undefined) {
    return deny(
      tool,
      requested,
      'ZB_POLICY_PATH_OUTSIDE_SCOPE',
      `${tool} denied: ${image.virtual} is not in this agent's package; /zotbox/skills/<name>/ holds each skill's files and /zotbox/assets/ the assets. Fix: use a path the skill tool listed.`,
      image.virtual,
    );
  }
  if (!fileTool && !index.inCommands) {
    return deny(
      tool,
      requested,
      'ZB_POLICY_PATH_OUTSIDE_SCOPE',
      `${tool} denied: commands cannot reach ${image.virtual}: ${index.notInCommands ?? 'only the sandbox mounts /zotbox'}. Fix: read the file with the read tool.`,
      image.virtual,
    );
  }
  return { allow: true, tool, requested, canonicalPath: image.virtual, exists: true, scope: '/zotbox (the agent package, read-only)' };
}

/**
 * Decides whether `tool` may touch `requested` (absolute, or relative to the
 * workspace). Edit needs both a read and a write scope; write and edit refuse a
 * regular file with more than one hard link, and the files other tools run
 * (`controls`: what git configuration names, computed by the host; none by default).
 */
export function decidePathAccess(
  tool: PathTool,
  requested: string,
  scopes: CompiledScopes,
  controls: ControlLocations = { locations: [] },
  options: { readonly fileTool?: boolean } = {},
): PathDecision {
  if (requested.length === 0) return deny(tool, requested, 'ZB_POLICY_PATH_INVALID', `${tool} denied: the path is empty.`);
  if (requested.includes('\u0000')) return deny(tool, requested, 'ZB_POLICY_PATH_INVALID', `${tool} denied: the path contains a NUL byte.`);
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(requested)) {
    return deny(tool, requested, 'ZB_POLICY_PATH_INVALID', `${tool} denied: ${JSON.stringify(requested)} is a URL; ask for a file path.`);
  }
  const image = imageEntryOf(absoluteFrom(scopes.context.workspace, requested));
  if (image !== undefined) return decideImagePath(tool, requested, image, scopes, options.fileTool === true);
  const needsRead = tool === 'read' || tool === 'edit';
  const needsWrite = tool === 'write' || tool === 'edit';
  if ((needsRead && scopes.read.length === 0) || (needsWrite && scopes.write.length === 0)) {
    const missing = needsRead && scopes.read.length === 0 ? 'read' : 'write';
    return deny(tool, requested, 'ZB_POLICY_NO_PERMISSION', `${tool} denied: this agent has no filesystem ${missing} permission (permissions.fs.${missing} is empty).`);
  }
  const absolute = absoluteFrom(scopes.context.workspace, requested);
  // The lexical spelling of a forbidden tree is refused too, before anything is resolved in it.
  if (isForbidden(absolute) && !absolute.includes('/..') && !absolute.includes('/./')) {
    return deny(tool, requested, 'ZB_POLICY_PATH_FORBIDDEN', `${tool} denied: ${JSON.stringify(requested)} is inside /proc, /sys or /dev, which agents may never touch.`);
  }
  // Both spellings: ".git/../x" or a symlink named ".git" is refused as written, a link to a .git directory as resolved.
  if (needsWrite && isInsideGitMetadata(absolute)) return denyGitMetadata(tool, requested, absolute);
  const resolved = resolveCanonicalPath(absolute, { withStats: needsWrite });
  if (!resolved.ok) return deny(tool, requested, 'ZB_POLICY_PATH_UNRESOLVABLE', `${tool} denied: ${resolved.reason}.`);
  const canonical = resolved.path;
  if (isForbidden(canonical)) {
    return deny(
      tool,
      requested,
      'ZB_POLICY_PATH_FORBIDDEN',
      `${tool} denied: ${JSON.stringify(requested)} resolves to ${canonical}, inside /proc, /sys or /dev, which agents may never touch.`,
      canonical,
    );
  }
  if (isInsideStateDirectory(canonical, scopes.context)) {
    return deny(
      tool,
      requested,
      'ZB_POLICY_PATH_PROTECTED',
      `${tool} denied: ${JSON.stringify(requested)} resolves to ${canonical}, inside the zotbox state directory (${scopes.context.stateDirectory}, or a mount of it), which holds consents, sessions and other agents' data; no scope reaches it, not even "/". Fix: keep the agent's own files under its data directory (${scopes.context.agentData}, \${agent_data}).`,
      canonical,
    );
  }
  // The spelling as written was checked above; only a different canonical path needs a second look.
  if (needsWrite && canonical !== absolute && isInsideGitMetadata(canonical)) return denyGitMetadata(tool, requested, absolute, canonical);
  const userTool = needsWrite ? denyUserToolFile(tool, requested, canonical === absolute ? [absolute] : [absolute, canonical], scopes, controls, canonical) : undefined;
  if (userTool !== undefined) return userTool;
  const where = canonical === absolute ? 'is' : `resolves to ${canonical}, which is`;
  const readRoot = needsRead ? scopes.read.find((s) => isInsideRoot(canonical, s.root)) : undefined;
  if (needsRead && readRoot === undefined) {
    return deny(
      tool,
      requested,
      'ZB_POLICY_PATH_OUTSIDE_SCOPE',
      `${tool} denied: ${JSON.stringify(requested)} ${where} outside the read scopes (${describeRoots(scopes.read)}). Fix: ask for a path under one of them, or declare it in permissions.fs.read.`,
      canonical,
    );
  }
  const writeRoot = needsWrite ? scopes.write.find((s) => isInsideRoot(canonical, s.root)) : undefined;
  if (needsWrite && writeRoot === undefined) {
    return deny(
      tool,
      requested,
      'ZB_POLICY_PATH_OUTSIDE_SCOPE',
      `${tool} denied: ${JSON.stringify(requested)} ${where} outside the write scopes (${describeRoots(scopes.write)}). Fix: ask for a path under one of them, or declare it in permissions.fs.write.`,
      canonical,
    );
  }
  if (needsWrite && resolved.stats !== undefined && resolved.stats.isFile && resolved.stats.nlink > 1) {
    return deny(
      tool,
      requested,
      'ZB_POLICY_PATH_HARDLINK',
      `${tool} denied: ${canonical} has ${resolved.stats.nlink} hard links; its other names may lie outside the write scopes, so writing through this one could change them.`,
      canonical,
    );
  }
  return { allow: true, tool, requested, canonicalPath: canonical, exists: resolved.exists, scope: (writeRoot ?? readRoot)!.declared };
}
