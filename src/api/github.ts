// Public API entry: GitHub references and downloads (undici). Re-exports only.
export { formatGitHubRemote, isGitHubShorthand, parseGitHubAgentUrl, parseGitHubShorthand, type GitHubAgentRef } from '../host/load/github-ref.js';
export { DEFAULT_GITHUB_BASE, archiveUrl, loadGitHubImage, type GitHubDownloadOptions } from '../host/load/github.js';
