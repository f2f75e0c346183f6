// The old source named to `zotbox data move --from` (issue 21 §6): a GitHub
// reference (its ref ignored, as identity ignores it) or a local path, which need
// not exist any more (the folder was moved away). A path is made as canonical as
// what still exists allows: its nearest existing parent resolved, the rest as written.
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { fileSystemError } from '../../errors.js';
import type { AgentSourceIdentity } from '../consent/agent-identity.js';
import { githubSourceIdentity, isGitHubShorthand, parseGitHubAgentUrl, parseGitHubShorthand } from './github-ref.js';

export function resolveSourceReference(text: string, cwd: string): AgentSourceIdentity {
  if (isGitHubShorthand(text)) return githubSourceIdentity(parseGitHubShorthand(text));
  if (/^https?:\/\//i.test(text)) return githubSourceIdentity(parseGitHubAgentUrl(text));
  const absolute = path.resolve(cwd, text);
  const missing: string[] = [];
  let existing = absolute;
  for (;;) {
    try {
      return { kind: 'local', path: path.join(realpathSync.native(existing), ...missing.reverse()) };
    } catch (cause) {
      const errno = (cause as NodeJS.ErrnoException).code;
      if ((errno !== 'ENOENT' && errno !== 'ENOTDIR') || existing === path.dirname(existing)) throw fileSystemError('resolve', absolute, cause);
      missing.push(path.basename(existing));
      existing = path.dirname(existing);
    }
  }
}
