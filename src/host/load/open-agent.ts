// Opens an agent reference (a directory, a .zot file, a GitHub URL or explicit
// github: shorthand; see agent-reference.ts) into an agent image and checks its
// layout. It never guesses: a missing local path is ZB_LOAD_NOT_FOUND. The HTTP
// client (github.ts, undici) is loaded only for a GitHub reference, so opening a
// local agent (zotbox check, inspect) starts fast (issue 11).
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { AgentImage, ArchiveLimits } from '../../archive/index.js';
// From the loader's own file, not archive/index.js: that would also load packing and the zstd binding.
import { loadImageFromDirectory, loadImageFromFile } from '../../archive/load-image.js';
import { ZotboxError, fileSystemError } from '../../errors.js';
import type { AgentSourceIdentity } from '../consent/agent-identity.js';
import { validateAgentLayout, type AgentLayout } from './agent-layout.js';
import { agentNotFound, isMissingPathError, resolveAgentReference } from './agent-reference.js';
import { formatGitHubRemote, githubSourceIdentity } from './github-ref.js';

export interface OpenAgentOptions {
  /** Directory a relative reference is resolved against. */
  readonly cwd: string;
  readonly signal?: AbortSignal;
  readonly limits?: ArchiveLimits;
  /** Replaces https://github.com for GitHub references (ZOTBOX_GITHUB_BASE). */
  readonly githubBaseUrl?: string;
}

/** Where an agent came from. */
export type AgentSource =
  | { readonly kind: 'directory' | 'archive'; readonly path: string }
  /** `path` is the URL; `remote` is "OWNER/REPO/PATH@REF" (no "/PATH" at the repository root), shown on its own line in consent. */
  | { readonly kind: 'github'; readonly path: string; readonly remote: string };

export interface OpenedAgent {
  readonly source: AgentSource;
  /**
   * Who the agent is for its data, sessions and receipts, with its manifest name
   * (issue 21): the real path of a local agent (the one it was read from), or
   * GitHub's owner/repo/path without the ref.
   */
  readonly sourceIdentity: AgentSourceIdentity;
  readonly image: AgentImage;
  readonly layout: AgentLayout;
}

export async function openLocalAgent(reference: string, options: OpenAgentOptions): Promise<OpenedAgent> {
  const absolute = path.resolve(options.cwd, reference);
  let stats;
  let real: string;
  try {
    // Read from the real path, so the identity is the place the agent was read from, not where a link pointed later.
    real = await realpath(absolute);
    stats = await stat(real);
  } catch (cause) {
    if (isMissingPathError(cause)) throw agentNotFound(reference, absolute, cause);
    throw fileSystemError('open the agent at', absolute, cause);
  }
  const loadOptions = { ...(options.signal === undefined ? {} : { signal: options.signal }), ...(options.limits === undefined ? {} : { limits: options.limits }) };
  const kind = stats.isDirectory() ? 'directory' : 'archive';
  const image = kind === 'directory' ? await loadImageFromDirectory(real, loadOptions) : await loadImageFromFile(real, loadOptions);
  const layout = validateAgentLayout({ entries: image.entries, readFile: (name) => image.readFile(name) });
  return { source: { kind, path: absolute }, sourceIdentity: { kind: 'local', path: real }, image, layout };
}

/**
 * Opens any agent reference: an existing directory or .zot file, a public
 * https://github.com URL, or explicit github:OWNER/REPO[/PATH][@REF] shorthand.
 */
export async function openAgent(reference: string, options: OpenAgentOptions): Promise<OpenedAgent> {
  const resolved = resolveAgentReference(reference, options.cwd);
  if (resolved.kind === 'local') return openLocalAgent(resolved.path, options);
  const ref = resolved.ref;
  const { loadGitHubImage } = await import('./github.js');
  const image = await loadGitHubImage(ref, {
    ...(options.githubBaseUrl === undefined ? {} : { baseUrl: options.githubBaseUrl }),
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  let layout;
  try {
    layout = validateAgentLayout({ entries: image.entries, readFile: (name) => image.readFile(name) });
  } catch (error) {
    if (error instanceof ZotboxError && error.code === 'ZB_LAYOUT_MANIFEST_MISSING') {
      throw new ZotboxError(
        'ZB_LAYOUT_MANIFEST_MISSING',
        `${ref.url} has no manifest.json in ${ref.subdirectory === '' ? 'the repository root' : ref.subdirectory}; point the URL at the agent's directory.`,
        {
          cause: error,
          details: { url: ref.url },
        },
      );
    }
    throw error;
  }
  return { source: { kind: 'github', path: ref.url, remote: formatGitHubRemote(ref) }, sourceIdentity: githubSourceIdentity(ref), image, layout };
}
