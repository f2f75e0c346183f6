// GitHub agent references (spec B §7 with Part A): URL parsing and the
// local-first shorthand. Only https; no userinfo, port, or other host; owner and
// repo are plain names; ".git" is tolerated; a ref containing "/" is refused
// (it cannot be told apart from the path); ".." in the agent path is refused.
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { ZotboxError } from '../errors.js';

export interface GitHubAgentRef {
  readonly owner: string;
  readonly repo: string;
  /** "HEAD" (the default branch) unless the URL names one with /tree/REF/. */
  readonly ref: string;
  /** The agent directory inside the repository, "" for its root. */
  readonly subdirectory: string;
  readonly url: string;
}

const PLAIN_NAME = /^[A-Za-z0-9._-]+$/;
const SHORTHAND_SEGMENT = /^[a-z0-9]([a-z0-9._-]*[a-z0-9])?$/;

function invalid(url: string, why: string): ZotboxError {
  return new ZotboxError('ZB_GITHUB_URL_INVALID', `${JSON.stringify(url)} is not a GitHub agent URL zotbox accepts: ${why}. Use https://github.com/OWNER/REPO/PATH or https://github.com/OWNER/REPO/tree/REF/PATH.`, {
    details: { url },
  });
}

export function parseGitHubAgentUrl(text: string): GitHubAgentRef {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid(text, 'it is not a URL');
  }
  if (url.protocol !== 'https:') throw invalid(text, 'only https is accepted');
  if (url.username !== '' || url.password !== '') throw invalid(text, 'it contains a user name or password');
  if (url.hostname.toLowerCase() !== 'github.com' || url.port !== '') throw invalid(text, 'the host must be github.com');
  // The path as typed: the URL parser would resolve "a/../../x" into another repository.
  const rawPath = text.replace(/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/, '').split(/[?#]/)[0] ?? '';
  let parts: string[];
  try {
    parts = rawPath.split('/').filter((p) => p !== '').map((p) => decodeURIComponent(p));
  } catch {
    throw invalid(text, 'its path has a bad percent-escape');
  }
  if (parts.some((p) => p === '..')) throw invalid(text, 'the path may not contain ".."');
  parts = parts.filter((p) => p !== '.');
  const [owner, rawRepo, ...rest] = parts;
  if (owner === undefined || rawRepo === undefined) throw invalid(text, 'it must name an owner and a repository');
  const repo = rawRepo.endsWith('.git') ? rawRepo.slice(0, -4) : rawRepo;
  if (!PLAIN_NAME.test(owner) || !PLAIN_NAME.test(repo) || owner === '.' || owner === '..' || repo === '' || repo === '.' || repo === '..') {
    throw invalid(text, 'the owner and repository must be plain names (letters, digits, ".", "_", "-")');
  }
  let ref = 'HEAD';
  let subdirectoryParts = rest;
  if (rest[0] === 'tree' && rest.length >= 2) {
    ref = rest[1]!;
    subdirectoryParts = rest.slice(2);
    if (ref.includes('/')) throw invalid(text, 'a branch or tag containing "/" is not supported; use a commit hash or a ref without "/"');
    if (!PLAIN_NAME.test(ref)) throw invalid(text, 'the ref must be a plain branch name, tag or commit');
  }
  const clean = subdirectoryParts.filter((p) => p !== '.');
  if (clean.some((p) => p === '..' || p.includes('\\') || p.includes('\u0000'))) throw invalid(text, 'the agent path may not contain ".." or backslashes');
  return { owner, repo, ref, subdirectory: clean.join('/'), url: text };
}

/**
 * Resolves a reference the way zot does, local first (spec B §7.1): an existing
 * path; "<ref>.zot" when the reference has no extension; a .zot name as is; then
 * OWNER/REPO[/PATH] shorthand (lowercase segments) as a GitHub URL; anything else
 * unchanged (it then fails as a missing path). `cwd` resolves relative paths.
 */
export function resolveAgentReference(reference: string, cwd: string): string {
  if (/^https?:\/\//i.test(reference)) return reference;
  const absolute = path.resolve(cwd, reference);
  if (existsSync(absolute)) return reference;
  if (path.extname(reference) === '' && existsSync(`${absolute}.zot`) && statSync(`${absolute}.zot`).isFile()) return `${reference}.zot`;
  if (reference.toLowerCase().endsWith('.zot')) return reference;
  const parts = reference.replaceAll('\\', '/').split('/');
  if (parts.length >= 2 && parts.every((p) => SHORTHAND_SEGMENT.test(p))) return `https://github.com/${parts.join('/')}`;
  return reference;
}
