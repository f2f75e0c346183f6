// loadAgent: the library's way to load an agent once (directory, .zot, GitHub
// URL or shorthand) and run it many times. The loaded agent holds the in-memory
// image that was digested; every run of it uses exactly those bytes.
import { openAgent, type OpenedAgent } from './open-agent.js';

export interface LoadAgentOptions {
  /** Where a relative reference resolves (default: process.cwd()). */
  readonly cwd?: string;
  /** Read for ZOTBOX_GITHUB_BASE only (default: process.env). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly signal?: AbortSignal;
}

export interface LoadedAgent extends OpenedAgent {
  /** The reference it was loaded from, as given (shown in consent prompts and errors). */
  readonly reference: string;
}

export async function loadAgent(reference: string, options: LoadAgentOptions = {}): Promise<LoadedAgent> {
  const githubBase = (options.env ?? process.env)['ZOTBOX_GITHUB_BASE'];
  const opened = await openAgent(reference, {
    cwd: options.cwd ?? process.cwd(),
    ...(githubBase ? { githubBaseUrl: githubBase } : {}),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  return { ...opened, reference };
}
