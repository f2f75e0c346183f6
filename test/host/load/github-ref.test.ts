import test from 'ava';
import { formatGitHubRemote, isGitHubShorthand, parseGitHubAgentUrl, parseGitHubShorthand } from '../../../src/host/load/github-ref.js';

const code = (error: unknown) => (error as { code?: string }).code;

test('URL vectors of spec B §7.2', (t) => {
  t.like(parseGitHubAgentUrl('https://github.com/acme/agents/reviewer'), { owner: 'acme', repo: 'agents', ref: 'HEAD', subdirectory: 'reviewer' });
  t.like(parseGitHubAgentUrl('https://github.com/acme/agents/tree/main/reviewer'), { owner: 'acme', repo: 'agents', ref: 'main', subdirectory: 'reviewer' });
  t.like(parseGitHubAgentUrl('https://github.com/acme/agents/reviewers/go'), { ref: 'HEAD', subdirectory: 'reviewers/go' });
  t.like(parseGitHubAgentUrl('https://github.com/acme/agent.git'), { repo: 'agent', subdirectory: '' });
  t.like(parseGitHubAgentUrl('https://github.com/acme/agents/./x/'), { subdirectory: 'x' });
  t.like(parseGitHubAgentUrl('https://GitHub.com/acme/agents/x?tab=readme#top'), { subdirectory: 'x' });
});

for (const [url, why] of [
  ['https://github.com/acme/agents/a/../../x', 'traversal'],
  ['https://github.com/acme/agents/..', 'a bare .. path'],
  ['https://github.com/acme/../other/x', '.. between owner and repository'],
  ['https://github.com/acme/agents/%2e%2e/x', 'an encoded ..'],
  ['http://github.com/acme/agents/x', 'plain http'],
  ['https://user:pw@github.com/acme/agents/x', 'userinfo'],
  ['https://www.github.com/acme/agents/x', 'another host'],
  ['https://github.com:8443/acme/agents/x', 'a port'],
  ['https://github.com/acme', 'no repository'],
  ['https://github.com/ac%20me/agents', 'owner not a plain name'],
  ['https://github.com/acme/.git', 'empty repository'],
  ['https://github.com/acme/agents/tree/feature%2Fx/dir', 'a ref with a slash'],
  ['https://github.com/acme/agents/a%5Cb', 'a backslash'],
  ['ftp://github.com/acme/agents', 'another scheme'],
  ['https://github.com/acme/agents/.git/hooks', 'a .git component in the agent path'],
  ['https://github.com/acme/agents/x/.GIT', 'an upper-case .git component'],
  ['https://github.com/acme/agents/git~1', 'the 8.3 alias git~1'],
  ['https://github.com/acme/agents/x%0Ay', 'an encoded control character'],
  ['https://github.com/acme/agents/tree/.hidden/x', 'a ref starting with "."'],
  ['https://github.com/acme/agents/tree/-x/y', 'a ref starting with "-"'],
  ['https://github.com/acme/agents/tree/a..b/x', 'a ref containing ".."'],
  ['https://github.com/acme/agents/tree/main.lock/x', 'a ref ending in ".lock"'],
] as const) {
  test(`URL rejected: ${why}`, (t) => {
    t.is(code(t.throws(() => parseGitHubAgentUrl(url))), 'ZB_GITHUB_URL_INVALID');
  });
}

test('github: shorthand names owner, repository, path and ref; HEAD without @', (t) => {
  t.deepEqual(parseGitHubShorthand('github:acme/agents/reviewer'), { owner: 'acme', repo: 'agents', ref: 'HEAD', subdirectory: 'reviewer', url: 'https://github.com/acme/agents/reviewer' });
  t.deepEqual(parseGitHubShorthand('github:acme/agents/reviewers/go@v1.2'), {
    owner: 'acme',
    repo: 'agents',
    ref: 'v1.2',
    subdirectory: 'reviewers/go',
    url: 'https://github.com/acme/agents/tree/v1.2/reviewers/go',
  });
  t.deepEqual(parseGitHubShorthand('github:Acme/my_agent.js@0123abc'), {
    owner: 'Acme',
    repo: 'my_agent.js',
    ref: '0123abc',
    subdirectory: '',
    url: 'https://github.com/Acme/my_agent.js/tree/0123abc',
  });
  t.like(parseGitHubShorthand('github:acme/agent.git'), { repo: 'agent', subdirectory: '' });
  t.like(parseGitHubShorthand('GitHub:acme/agents/x'), { owner: 'acme', subdirectory: 'x' });
  t.like(parseGitHubShorthand('github:acme/agents/my dir/%41'), { subdirectory: 'my dir/%41', url: 'https://github.com/acme/agents/my%20dir/%2541' });
});

test('only a github: prefix marks the shorthand', (t) => {
  t.true(isGitHubShorthand('github:a/b'));
  t.true(isGitHubShorthand('GITHUB:a/b'));
  t.false(isGitHubShorthand('a/b'));
  t.false(isGitHubShorthand('gh:a/b'));
  t.false(isGitHubShorthand('./github:a/b'));
  t.false(isGitHubShorthand('https://github.com/a/b'));
});

for (const [reference, why] of [
  ['github:', 'nothing after the prefix'],
  ['github:acme', 'no repository'],
  ['github:/acme/agents', 'a leading slash'],
  ['github://acme/agents', 'a URL-like double slash'],
  ['github:acme//agents', 'an empty component between owner and repository'],
  ['github:acme/agents/', 'a trailing slash'],
  ['github:acme/agents/a//b', 'an empty path component'],
  ['github:acme/agents/./x', 'a "." component'],
  ['github:acme/agents/../other', 'a ".." component'],
  ['github:acme/agents/a/..', 'a trailing ".."'],
  ['github:../agents/x', '".." as the owner'],
  ['github:acme/../x', '".." as the repository'],
  ['github:acme/.git', 'an empty repository after ".git"'],
  ['github:ac me/agents', 'an owner that is not a plain name'],
  ['github:acme/ag%2fents', 'a repository that is not a plain name'],
  ['github:acme/agents/a\\b', 'a backslash'],
  ['github:acme/agents/a\u0000b', 'a NUL'],
  ['github:acme/agents/a\u001bb', 'an escape character'],
  ['github:acme/agents/.git', 'a .git path component'],
  ['github:acme/agents/x/.Git./config', 'a .git alias with a trailing dot'],
  ['github:acme/agents/GIT~1', 'the 8.3 alias'],
  ['github:acme/agents/.g\u200cit', 'an HFS-ignorable code point inside .git'],
  ['github:acme/agents/x@', 'an empty ref'],
  ['github:acme/agents/x@feature/y', 'a ref with a slash'],
  ['github:acme/agents/x@a@b', 'two @'],
  ['github:acme/agents/x@..', 'a ".." ref'],
  ['github:acme/agents/x@.hidden', 'a ref starting with "."'],
  ['github:acme/agents/x@-rf', 'a ref starting with "-"'],
  ['github:acme/agents/x@main.lock', 'a ref ending in ".lock"'],
  ['github:acme/agents/x@v1.', 'a ref ending in "."'],
  ['github:acme/agents/x@%2e%2e', 'a percent-escaped ref'],
] as const) {
  test(`shorthand rejected: ${why}`, (t) => {
    t.is(code(t.throws(() => parseGitHubShorthand(reference))), 'ZB_GITHUB_URL_INVALID');
  });
}

test('a remote is named OWNER/REPO/PATH@REF, without a path at the repository root', (t) => {
  t.is(formatGitHubRemote(parseGitHubShorthand('github:acme/agents/reviewers/go@v2')), 'acme/agents/reviewers/go@v2');
  t.is(formatGitHubRemote(parseGitHubShorthand('github:acme/agents/reviewer')), 'acme/agents/reviewer@HEAD');
  t.is(formatGitHubRemote(parseGitHubShorthand('github:acme/solo')), 'acme/solo@HEAD');
  t.is(formatGitHubRemote(parseGitHubAgentUrl('https://github.com/acme/agents/tree/main/reviewer')), 'acme/agents/reviewer@main');
  t.is(formatGitHubRemote(parseGitHubAgentUrl('https://github.com/acme/agent.git')), 'acme/agent@HEAD');
});
