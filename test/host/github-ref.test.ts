import test from 'ava';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseGitHubAgentUrl, resolveAgentReference } from '../../src/host/github-ref.js';
import { tempDir } from '../fixtures/temp.js';

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
] as const) {
  test(`rejected: ${why}`, (t) => {
    t.is((t.throws(() => parseGitHubAgentUrl(url)) as { code?: string }).code, 'ZB_GITHUB_URL_INVALID');
  });
}

test('references resolve local first, then as GitHub shorthand (spec B §7.1 vectors)', (t) => {
  const cwd = tempDir(t, 'zb-ref-');
  mkdirSync(path.join(cwd, 'local-agent'));
  writeFileSync(path.join(cwd, 'packed-agent.zot'), '');
  const vectors: [string, string][] = [
    ['local-agent', 'local-agent'],
    ['packed-agent', 'packed-agent.zot'],
    ['remote-agent', 'remote-agent'],
    ['missing.zot', 'missing.zot'],
    ['agents/remote-agent', 'https://github.com/agents/remote-agent'],
    ['agents\\remote-agent', 'https://github.com/agents/remote-agent'],
    ['frkr/zot-archify', 'https://github.com/frkr/zot-archify'],
    ['acme/agents/reviewer', 'https://github.com/acme/agents/reviewer'],
    ['acme\\agents\\reviewers\\go', 'https://github.com/acme/agents/reviewers/go'],
    ['./missing-agent', './missing-agent'],
    ['Remote-Agent', 'Remote-Agent'],
    ['https://github.com/acme/agents/x', 'https://github.com/acme/agents/x'],
  ];
  for (const [input, expected] of vectors) t.is(resolveAgentReference(input, cwd), expected, input);
});
