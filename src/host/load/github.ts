// Downloading an agent from a public GitHub repository (spec B §7.3 with Part
// A): the repository's tar.gz is streamed through the archive layer, which
// counts compressed bytes as they arrive, gunzips, parses, and keeps only the
// agent's directory, with the zotfile limits applied to it. No temp directory,
// no disk. The base URL can be overridden (ZOTBOX_GITHUB_BASE) for mirrors and
// loopback tests.
import { Agent, interceptors, request, type Dispatcher } from 'undici';
import { DEFAULT_LIMITS, loadImageFromArchive, type AgentImage, type ArchiveLimits } from '../../archive/index.js';
import { ZotboxError, isZotboxError } from '../../errors.js';
import { ZOTBOX_VERSION } from '../../version.js';
import type { GitHubAgentRef } from './github-ref.js';

export const DEFAULT_GITHUB_BASE = 'https://github.com';

export interface GitHubDownloadOptions {
  /** Replaces https://github.com (ZOTBOX_GITHUB_BASE). */
  readonly baseUrl?: string;
  readonly limits?: ArchiveLimits;
  readonly signal?: AbortSignal;
  readonly connectTimeoutMs?: number;
  /** Longest silence while receiving headers or the body. */
  readonly idleTimeoutMs?: number;
  readonly maxRedirections?: number;
}

export function archiveUrl(ref: GitHubAgentRef, baseUrl = DEFAULT_GITHUB_BASE): string {
  const base = baseUrl.replace(/\/+$/, '');
  return `${base}/${encodeURIComponent(ref.owner)}/${encodeURIComponent(ref.repo)}/archive/${encodeURIComponent(ref.ref)}.tar.gz`;
}

function downloadFailed(ref: GitHubAgentRef, why: string, cause?: unknown): ZotboxError {
  return new ZotboxError('ZB_GITHUB_DOWNLOAD_FAILED', `cannot download ${ref.url}: ${why}. Check the URL, that the repository is public, and your connection.`, {
    ...(cause === undefined ? {} : { cause }),
    details: { url: ref.url },
  });
}

/** Downloads the repository archive and returns the image of the agent directory in it. */
export async function loadGitHubImage(ref: GitHubAgentRef, options: GitHubDownloadOptions = {}): Promise<AgentImage> {
  const limits = options.limits ?? DEFAULT_LIMITS;
  const url = archiveUrl(ref, options.baseUrl);
  const agent = new Agent({
    connect: { timeout: options.connectTimeoutMs ?? 15_000 },
    headersTimeout: options.idleTimeoutMs ?? 60_000,
    bodyTimeout: options.idleTimeoutMs ?? 60_000,
  });
  const dispatcher: Dispatcher = agent.compose(interceptors.redirect({ maxRedirections: options.maxRedirections ?? 5 }));
  try {
    let response: Dispatcher.ResponseData;
    try {
      response = await request(url, {
        dispatcher,
        headers: { 'user-agent': `zotbox/${ZOTBOX_VERSION}`, accept: 'application/gzip, application/x-gzip, */*' },
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
    } catch (cause) {
      const code = (cause as { code?: string }).code;
      throw downloadFailed(ref, code === 'UND_ERR_MAX_REDIRECTIONS' || /redirect/i.test((cause as Error).message) ? 'too many redirects' : `${code ?? 'error'}: ${(cause as Error).message}`, cause);
    }
    if (response.statusCode !== 200) {
      await response.body.dump().catch(() => undefined); // free the connection; the status is the answer
      throw downloadFailed(ref, `HTTP ${response.statusCode}`);
    }
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > limits.maxCompressedBytes) {
      await response.body.dump().catch(() => undefined);
      throw new ZotboxError('ZB_ARCHIVE_LIMIT_EXCEEDED', `the repository archive is ${declared} bytes, over the ${limits.maxCompressedBytes}-byte limit; put the agent in a smaller repository.`, {
        details: { limit: 'compressed', max: limits.maxCompressedBytes, url: ref.url },
      });
    }
    try {
      return await loadImageFromArchive(response.body as AsyncIterable<Buffer>, {
        limits,
        select: { subdirectory: ref.subdirectory },
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
    } catch (error) {
      if (isZotboxError(error) && error.code === 'ZB_ARCHIVE_LAYOUT') {
        throw new ZotboxError('ZB_GITHUB_LAYOUT', `${ref.url}: ${error.message}`, { cause: error, details: { url: ref.url } });
      }
      if (isZotboxError(error) && error.code === 'ZB_ARCHIVE_ENTRY_UNSAFE') {
        throw new ZotboxError('ZB_ARCHIVE_ENTRY_UNSAFE', `${ref.url}: ${error.message}`, { cause: error, details: { ...error.details, url: ref.url } });
      }
      if (isZotboxError(error)) throw error;
      throw downloadFailed(ref, (error as Error).message, error);
    } finally {
      response.body.destroy();
    }
  } finally {
    await agent.close().catch(() => undefined); // closing an agent with nothing open cannot fail meaningfully
  }
}
