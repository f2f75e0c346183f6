// What an agent reference names (spec Part A, "GitHub references"; issue 9):
// an existing local path, a full https://github.com URL, or the explicit
// github: shorthand. Nothing else is ever looked up remotely: a reference that
// is none of these is ZB_LOAD_NOT_FOUND, so a mistyped folder never downloads
// someone else's agent (a deliberate deviation from zot's B §7.1).
import { readdirSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { ZotboxError, closestName, fileSystemError } from '../../errors.js';
import { isGitHubShorthand, parseGitHubAgentUrl, parseGitHubShorthand, type GitHubAgentRef } from './github-ref.js';

export type AgentReference =
  /** An existing directory or file; `path` is absolute. */
  { readonly kind: 'local'; readonly path: string } | { readonly kind: 'github'; readonly ref: GitHubAgentRef };

/** The error for a local path with nothing at it; it says how to name a GitHub agent instead. */
export function agentNotFound(reference: string, absolute: string, cause?: unknown): ZotboxError {
  const near = nearbyEntry(absolute);
  return new ZotboxError(
    'ZB_LOAD_NOT_FOUND',
    `no agent at ${absolute}: nothing exists there.${near === undefined ? '' : ` Did you mean ${path.join(path.dirname(reference), near)}?`} Fix: check the path (a zotfile directory or a .zot file). A reference that is not a local path is never looked up on GitHub by guess; to load an agent from GitHub, name it explicitly: github:OWNER/REPO/PATH[@REF] or https://github.com/OWNER/REPO/tree/REF/PATH.`,
    { ...(cause === undefined ? {} : { cause }), details: { reference, path: absolute } },
  );
}

/** The entry beside a missing path whose name is closest to its last part (my-agnet → my-agent), if any is close. */
function nearbyEntry(absolute: string): string | undefined {
  let entries: string[];
  try {
    entries = readdirSync(path.dirname(absolute));
  } catch {
    return undefined; // the folder is missing or unreadable too: there is nothing to suggest, and the error says what is missing
  }
  return closestName(path.basename(absolute), entries);
}

/** True when the errno means "no such path" (a missing component, or a file where a directory was expected). */
export function isMissingPathError(cause: unknown): boolean {
  const code = (cause as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function statOrUndefined(absolute: string): Stats | undefined {
  try {
    return statSync(absolute);
  } catch (cause) {
    if (isMissingPathError(cause)) return undefined;
    throw fileSystemError('open the agent at', absolute, cause);
  }
}

/**
 * Resolves a reference, in this order: `github:` shorthand; an http(s) URL (only
 * https://github.com is then accepted); an existing local path (relative to
 * `cwd`); "<ref>.zot" when the reference has no extension and that file exists.
 * Anything else throws ZB_LOAD_NOT_FOUND naming the absolute local path.
 */
export function resolveAgentReference(reference: string, cwd: string): AgentReference {
  if (isGitHubShorthand(reference)) return { kind: 'github', ref: parseGitHubShorthand(reference) };
  if (/^https?:\/\//i.test(reference)) return { kind: 'github', ref: parseGitHubAgentUrl(reference) };
  const absolute = path.resolve(cwd, reference);
  if (statOrUndefined(absolute) !== undefined) return { kind: 'local', path: absolute };
  if (path.extname(absolute) === '' && statOrUndefined(`${absolute}.zot`)?.isFile() === true) return { kind: 'local', path: `${absolute}.zot` };
  throw agentNotFound(reference, absolute);
}
