// Opens a local agent reference (a directory or a .zot file) into an agent
// image and checks its layout. GitHub references and the shorthand resolution
// of the spec (B §7.1) are added by the loading issue; this is the local core.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { loadImageFromDirectory, loadImageFromFile, type AgentImage, type ArchiveLimits } from '../archive/index.js';
import { ZotboxError, fileSystemError } from '../errors.js';
import { validateAgentLayout, type AgentLayout } from './agent-layout.js';
import { loadGitHubImage } from './github.js';
import { parseGitHubAgentUrl, resolveAgentReference } from './github-ref.js';

export interface OpenAgentOptions {
  /** Directory a relative reference is resolved against. */
  readonly cwd: string;
  readonly signal?: AbortSignal;
  readonly limits?: ArchiveLimits;
  /** Replaces https://github.com for GitHub references (ZOTBOX_GITHUB_BASE). */
  readonly githubBaseUrl?: string;
}

export interface OpenedAgent {
  /** For GitHub references, `path` is the URL. */
  readonly source: { readonly kind: 'directory' | 'archive' | 'github'; readonly path: string };
  readonly image: AgentImage;
  readonly layout: AgentLayout;
}

export async function openLocalAgent(reference: string, options: OpenAgentOptions): Promise<OpenedAgent> {
  const absolute = path.resolve(options.cwd, reference);
  let stats;
  try {
    stats = await stat(absolute);
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new ZotboxError('ZB_IO_FAILED', `no agent at ${absolute}: it does not exist. Pass a zotfile directory or a .zot file.`, {
        cause,
        details: { path: absolute, errno: 'ENOENT' },
      });
    }
    throw fileSystemError('open the agent at', absolute, cause);
  }
  const loadOptions = { ...(options.signal === undefined ? {} : { signal: options.signal }), ...(options.limits === undefined ? {} : { limits: options.limits }) };
  const kind = stats.isDirectory() ? 'directory' : 'archive';
  const image = kind === 'directory' ? await loadImageFromDirectory(absolute, loadOptions) : await loadImageFromFile(absolute, loadOptions);
  const layout = validateAgentLayout({ entries: image.entries, readFile: (name) => image.readFile(name) });
  return { source: { kind, path: absolute }, image, layout };
}

/**
 * Opens any agent reference: a directory, a .zot file, a public GitHub URL, or
 * OWNER/REPO[/PATH] shorthand when no such local path exists (spec B §7.1).
 */
export async function openAgent(reference: string, options: OpenAgentOptions): Promise<OpenedAgent> {
  const resolved = resolveAgentReference(reference, options.cwd);
  if (!/^https?:\/\//i.test(resolved)) return openLocalAgent(resolved, options);
  const ref = parseGitHubAgentUrl(resolved);
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
      throw new ZotboxError('ZB_LAYOUT_MANIFEST_MISSING', `${ref.url} has no manifest.json in ${ref.subdirectory === '' ? 'the repository root' : ref.subdirectory}; point the URL at the agent's directory.`, {
        cause: error,
        details: { url: ref.url },
      });
    }
    throw error;
  }
  return { source: { kind: 'github', path: ref.url }, image, layout };
}
