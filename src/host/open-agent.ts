// Opens a local agent reference (a directory or a .zot file) into an agent
// image and checks its layout. GitHub references and the shorthand resolution
// of the spec (B §7.1) are added by the loading issue; this is the local core.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { loadImageFromDirectory, loadImageFromFile, type AgentImage, type ArchiveLimits } from '../archive/index.js';
import { ZotboxError, fileSystemError } from '../errors.js';
import { validateAgentLayout, type AgentLayout } from './agent-layout.js';

export interface OpenAgentOptions {
  /** Directory a relative reference is resolved against. */
  readonly cwd: string;
  readonly signal?: AbortSignal;
  readonly limits?: ArchiveLimits;
}

export interface OpenedAgent {
  readonly source: { readonly kind: 'directory' | 'archive'; readonly path: string };
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
