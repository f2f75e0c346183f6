// GitHub agent references (spec Part A, "GitHub references"): the full URL
// forms and the explicit `github:` shorthand, parsed strictly into one shape.
// Pure string checks, no I/O. Only https; no userinfo, port, or other host;
// owner and repo are plain names; a ref is one git-valid component (a ref with
// "/" cannot be told apart from the path); the agent path has no "..", no
// backslash or control character, and no git metadata component.
import { ZotboxError } from '../../errors.js';
import { isGitDirectoryName } from '../../policy/git-control.js';
import type { AgentSourceIdentity } from '../consent/agent-identity.js';

export interface GitHubAgentRef {
  readonly owner: string;
  readonly repo: string;
  /** "HEAD" (the default branch) unless the reference names one (/tree/REF/ or @REF). */
  readonly ref: string;
  /** The agent directory inside the repository, "" for its root. */
  readonly subdirectory: string;
  /** An https URL for messages: as given for the URL forms, built for the shorthand. */
  readonly url: string;
}

const PLAIN_NAME = /^[A-Za-z0-9._-]+$/;
// C0 controls, DEL and C1 controls.
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

const URL_FORMS = 'Use https://github.com/OWNER/REPO/PATH or https://github.com/OWNER/REPO/tree/REF/PATH.';
const SHORTHAND_FORM = 'Use github:OWNER/REPO[/PATH][@REF], e.g. github:acme/agents/reviewer@v1.';

function invalid(reference: string, why: string, forms: string): ZotboxError {
  return new ZotboxError('ZB_GITHUB_URL_INVALID', `${JSON.stringify(reference)} is not a GitHub agent reference zotbox accepts: ${why}. ${forms}`, {
    details: { url: reference },
  });
}

/** Why `owner`/`repo` (".git" already removed) are not plain names, or undefined. */
function ownerRepoProblem(owner: string, repo: string): string | undefined {
  const plain = (name: string) => PLAIN_NAME.test(name) && name !== '.' && name !== '..';
  return plain(owner) && plain(repo) ? undefined : 'the owner and repository must be plain names (letters, digits, ".", "_", "-")';
}

/** Why `ref` is not one git-valid ref component (check-ref-format), or undefined. */
function refProblem(ref: string): string | undefined {
  if (ref.includes('/')) return 'a branch or tag containing "/" is not supported; use a commit hash or a ref without "/"';
  const valid = PLAIN_NAME.test(ref) && !ref.startsWith('.') && !ref.startsWith('-') && !ref.includes('..') && !ref.endsWith('.') && !ref.endsWith('.lock');
  return valid ? undefined : 'the ref must be a plain branch name, tag or commit (letters, digits, ".", "_", "-"; not starting with "." or "-", no "..")';
}

/** Why the agent path's components are unsafe, or undefined. */
function agentPathProblem(components: readonly string[]): string | undefined {
  if (components.some((c) => c === '..')) return 'the agent path may not contain ".."';
  if (components.some((c) => c.includes('\\') || CONTROL_CHARACTER.test(c))) return 'the agent path may not contain backslashes or control characters';
  const git = components.find((c) => isGitDirectoryName(c));
  if (git !== undefined) return `the agent path may not name git metadata (${JSON.stringify(git)})`;
  return undefined;
}

export function parseGitHubAgentUrl(text: string): GitHubAgentRef {
  const fail = (why: string) => invalid(text, why, URL_FORMS);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw fail('it is not a URL');
  }
  if (url.protocol !== 'https:') throw fail('only https is accepted');
  if (url.username !== '' || url.password !== '') throw fail('it contains a user name or password');
  if (url.hostname.toLowerCase() !== 'github.com' || url.port !== '') throw fail('the host must be github.com');
  // The path as typed: the URL parser would resolve "a/../../x" into another repository.
  const rawPath = text.replace(/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/, '').split(/[?#]/)[0] ?? '';
  let parts: string[];
  try {
    parts = rawPath
      .split('/')
      .filter((p) => p !== '')
      .map((p) => decodeURIComponent(p));
  } catch {
    throw fail('its path has a bad percent-escape');
  }
  if (parts.some((p) => p === '..')) throw fail('the path may not contain ".."');
  parts = parts.filter((p) => p !== '.');
  const [owner, rawRepo, ...rest] = parts;
  if (owner === undefined || rawRepo === undefined) throw fail('it must name an owner and a repository');
  const repo = rawRepo.endsWith('.git') ? rawRepo.slice(0, -4) : rawRepo;
  const names = ownerRepoProblem(owner, repo);
  if (names !== undefined) throw fail(names);
  let ref = 'HEAD';
  let subdirectoryParts = rest;
  if (rest[0] === 'tree' && rest.length >= 2) {
    ref = rest[1]!;
    subdirectoryParts = rest.slice(2);
    const refWhy = refProblem(ref);
    if (refWhy !== undefined) throw fail(refWhy);
  }
  const pathWhy = agentPathProblem(subdirectoryParts);
  if (pathWhy !== undefined) throw fail(pathWhy);
  return { owner, repo, ref, subdirectory: subdirectoryParts.join('/'), url: text };
}

/** True when the reference is written as the explicit GitHub shorthand (`github:`, any case). */
export function isGitHubShorthand(reference: string): boolean {
  return reference.slice(0, 7).toLowerCase() === 'github:';
}

/**
 * Parses the explicit shorthand `github:OWNER/REPO[/PATH][@REF]` (spec Part A).
 * Stricter than the URL forms, as it is typed by hand: no empty, "." or ".."
 * component, no percent-decoding, at most one "@" (so a path cannot contain one).
 */
export function parseGitHubShorthand(text: string): GitHubAgentRef {
  const fail = (why: string) => invalid(text, why, SHORTHAND_FORM);
  if (!isGitHubShorthand(text)) throw fail('it does not start with "github:"');
  const body = text.slice(7);
  const at = body.indexOf('@');
  const location = at === -1 ? body : body.slice(0, at);
  const ref = at === -1 ? 'HEAD' : body.slice(at + 1);
  const parts = location.split('/');
  if (parts.some((p) => p === '')) throw fail('it has an empty component (a leading, trailing or doubled "/")');
  if (parts.some((p) => p === '.')) throw fail('it may not contain a "." component');
  const [owner, rawRepo, ...rest] = parts;
  if (owner === undefined || rawRepo === undefined) throw fail('it must name an owner and a repository');
  const repo = rawRepo.endsWith('.git') ? rawRepo.slice(0, -4) : rawRepo;
  const why = ownerRepoProblem(owner, repo) ?? (at === -1 ? undefined : ref === '' ? 'the ref after "@" is empty' : refProblem(ref)) ?? agentPathProblem(rest);
  if (why !== undefined) throw fail(why);
  const subdirectory = rest.join('/');
  const tree = ref === 'HEAD' ? '' : `/tree/${encodeURIComponent(ref)}`;
  const tail = subdirectory === '' ? '' : `/${rest.map((p) => encodeURIComponent(p)).join('/')}`;
  return { owner, repo, ref, subdirectory, url: `https://github.com/${owner}/${repo}${tree}${tail}` };
}

/**
 * How a remote agent is named to the user, in consent and inspect:
 * "OWNER/REPO/PATH@REF", the path left out at the repository root.
 */
export function formatGitHubRemote(ref: GitHubAgentRef): string {
  return `${ref.owner}/${ref.repo}${ref.subdirectory === '' ? '' : `/${ref.subdirectory}`}@${ref.ref}`;
}

/**
 * The identity of a GitHub agent (issue 21 §6): owner and repository lowercased
 * (GitHub treats them without case), the agent's path as written (git paths have
 * case), and never the ref: a new tag, branch or commit of the same agent is the
 * same agent, and keeps its data and sessions (its consent is still bound to the
 * content digest). Whoever can push a ref to the repository controls its default
 * branch too, so the ref draws no line of trust; a fork (another owner) does.
 */
export function githubSourceIdentity(ref: GitHubAgentRef): AgentSourceIdentity {
  return { kind: 'github', owner: ref.owner.toLowerCase(), repo: ref.repo.toLowerCase(), path: ref.subdirectory };
}
