// Reference resolution never guesses across a trust boundary (issue 9, spec
// Part A "GitHub references"): only an explicit github: or https://github.com
// reference is remote; a missing local path is ZB_LOAD_NOT_FOUND.
import test from 'ava';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { resolveAgentReference, type AgentReference } from '../../../src/host/load/agent-reference.js';
import { openAgent, openLocalAgent } from '../../../src/host/load/open-agent.js';
import { tempDir } from '../../fixtures/temp.js';

const code = (error: unknown) => (error as { code?: string }).code;

/** A working directory like B §7.1's: local-agent/, packed-agent.zot, and examples/code-reviewer/. */
function workingDirectory(t: Parameters<typeof tempDir>[0]): string {
  const cwd = tempDir(t, 'zb-ref-');
  mkdirSync(path.join(cwd, 'local-agent'));
  writeFileSync(path.join(cwd, 'packed-agent.zot'), '');
  mkdirSync(path.join(cwd, 'examples', 'code-reviewer'), { recursive: true });
  mkdirSync(path.join(cwd, 'acme', 'agents'), { recursive: true });
  return cwd;
}

test('existing local paths resolve to their absolute path, a missing extension to an existing .zot', (t) => {
  const cwd = workingDirectory(t);
  const local = (relative: string): AgentReference => ({ kind: 'local', path: path.join(cwd, relative) });
  t.deepEqual(resolveAgentReference('local-agent', cwd), local('local-agent'));
  t.deepEqual(resolveAgentReference('./local-agent/', cwd), local('local-agent'));
  t.deepEqual(resolveAgentReference('packed-agent', cwd), local('packed-agent.zot'));
  t.deepEqual(resolveAgentReference('packed-agent.zot', cwd), local('packed-agent.zot'));
  t.deepEqual(resolveAgentReference('examples/code-reviewer', cwd), local('examples/code-reviewer'));
  t.deepEqual(resolveAgentReference('acme/agents', cwd), local('acme/agents'), 'a local path shaped like OWNER/REPO is local');
  t.deepEqual(resolveAgentReference(path.join(cwd, 'local-agent'), '/'), local('local-agent'));
});

test('only github: and https://github.com references are remote, whatever exists locally', (t) => {
  const cwd = workingDirectory(t);
  t.like(resolveAgentReference('github:acme/agents/reviewer@v1', cwd), { kind: 'github', ref: { owner: 'acme', repo: 'agents', subdirectory: 'reviewer', ref: 'v1' } });
  t.like(resolveAgentReference('https://github.com/acme/agents/reviewer', cwd), { kind: 'github', ref: { owner: 'acme', repo: 'agents', subdirectory: 'reviewer', ref: 'HEAD' } });
  t.is(code(t.throws(() => resolveAgentReference('http://github.com/acme/agents', cwd))), 'ZB_GITHUB_URL_INVALID');
  t.is(code(t.throws(() => resolveAgentReference('github:acme/agents/../x', cwd))), 'ZB_GITHUB_URL_INVALID');
});

for (const [reference, missing] of [
  ['examples/code-reviwer', 'examples/code-reviwer'],
  ['acme/agents/reviewer', 'acme/agents/reviewer'],
  ['frkr/zot-archify', 'frkr/zot-archify'],
  ['agents\\remote-agent', 'agents\\remote-agent'],
  ['remote-agent', 'remote-agent'],
  ['missing.zot', 'missing.zot'],
  ['./missing-agent', 'missing-agent'],
  ['packed-agent.zot/inside', 'packed-agent.zot/inside'],
  ['gh:acme/agents', 'gh:acme/agents'],
] as const) {
  test(`${JSON.stringify(reference)} with no such local path is ZB_LOAD_NOT_FOUND naming the absolute path and the github: form`, (t) => {
    const cwd = workingDirectory(t);
    const error = t.throws(() => resolveAgentReference(reference, cwd));
    t.is(code(error), 'ZB_LOAD_NOT_FOUND');
    t.like((error as { details?: object }).details, { reference, path: path.join(cwd, missing) });
    t.true(error.message.includes(`no agent at ${path.join(cwd, missing)}`), error.message);
    t.true(error.message.includes('github:OWNER/REPO/PATH'), error.message);
  });
}

test('openAgent of a mistyped local folder fails before any download', async (t) => {
  const cwd = workingDirectory(t);
  // An unreachable mirror: if resolution guessed GitHub, the error would be ZB_GITHUB_DOWNLOAD_FAILED.
  const error = await t.throwsAsync(openAgent('examples/code-reviwer', { cwd, githubBaseUrl: 'http://127.0.0.1:9' }));
  t.is(code(error), 'ZB_LOAD_NOT_FOUND');
});

test('openLocalAgent of a missing path is ZB_LOAD_NOT_FOUND too', async (t) => {
  const cwd = workingDirectory(t);
  const error = await t.throwsAsync(openLocalAgent('nowhere.zot', { cwd }));
  t.is(code(error), 'ZB_LOAD_NOT_FOUND');
  t.like((error as { details?: object }).details, { path: path.join(cwd, 'nowhere.zot') });
});
