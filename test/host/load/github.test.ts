// GitHub loading against a loopback server that serves real tar.gz archives;
// no test touches the network.
import test, { type ExecutionContext } from 'ava';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openAgent } from '../../../src/host/load/open-agent.js';
import { runCliCaptured } from '../../fixtures/cli-harness.js';
import { buildTar, gzipCompress, type TarPiece } from '../../fixtures/tar-builder.js';

const manifest = (name: string): TarPiece => ({ kind: 'file', name: `agents-abc123/${name}/manifest.json`, data: JSON.stringify({ zotfile: 1, name, version: '2.0.0' }) });

/** GitHub's shape: a pax_global_header, one top-level directory, and (here) no directory entries. */
function repositoryArchive(extra: TarPiece[] = []): Buffer {
  return gzipCompress(
    buildTar([
      { kind: 'pax', global: true, records: { comment: 'abc123' } },
      manifest('reviewer'),
      { kind: 'file', name: 'agents-abc123/reviewer/AGENT.md', data: '# Reviewer' },
      { kind: 'file', name: 'agents-abc123/reviewer/skills/check/SKILL.md', data: 'skill' },
      manifest('other'),
      { kind: 'file', name: 'agents-abc123/README.md', data: 'repo readme' },
      ...extra,
    ]),
  );
}

async function serve(t: ExecutionContext, handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function archiveHandler(body: Buffer, paths = ['/acme/agents/archive/HEAD.tar.gz']) {
  return (req: IncomingMessage, res: ServerResponse) => {
    if (paths.includes(req.url ?? '')) {
      res.writeHead(200, { 'content-type': 'application/x-gzip', 'content-length': body.length });
      res.end(body);
    } else {
      res.writeHead(404).end();
    }
  };
}

const code = (error: unknown) => (error as { code?: string }).code;

test('a GitHub URL loads only the agent directory, rebased, with implied directories', async (t) => {
  const base = await serve(t, archiveHandler(repositoryArchive()));
  const agent = await openAgent('https://github.com/acme/agents/reviewer', { cwd: '/', githubBaseUrl: base });
  t.is(agent.source.kind, 'github');
  t.is(agent.layout.identity.name, 'reviewer');
  t.deepEqual(
    agent.image.entries.map((e) => e.name),
    ['AGENT.md', 'manifest.json', 'skills', 'skills/check', 'skills/check/SKILL.md'],
  );
  t.is(agent.image.artifactDigest?.startsWith('sha256:'), true);
});

test('explicit github: shorthand loads from GitHub, and the source names the remote', async (t) => {
  const base = await serve(t, archiveHandler(repositoryArchive()));
  const agent = await openAgent('github:acme/agents/other', { cwd: '/', githubBaseUrl: base });
  t.is(agent.layout.identity.name, 'other');
  t.deepEqual(agent.source, { kind: 'github', path: 'https://github.com/acme/agents/other', remote: 'acme/agents/other@HEAD' });
});

test('github: shorthand with @REF requests that ref', async (t) => {
  const base = await serve(t, archiveHandler(repositoryArchive(), ['/acme/agents/archive/v2.tar.gz']));
  const agent = await openAgent('github:acme/agents/reviewer@v2', { cwd: '/', githubBaseUrl: base });
  t.deepEqual(agent.source, { kind: 'github', path: 'https://github.com/acme/agents/tree/v2/reviewer', remote: 'acme/agents/reviewer@v2' });
});

test('bare OWNER/REPO/PATH is never fetched from GitHub: it is a missing local path', async (t) => {
  let requests = 0;
  const base = await serve(t, (req, res) => {
    requests++;
    archiveHandler(repositoryArchive())(req, res);
  });
  const error = await t.throwsAsync(openAgent('acme/agents/other', { cwd: '/', githubBaseUrl: base }));
  t.is(code(error), 'ZB_LOAD_NOT_FOUND');
  t.is(requests, 0);
});

test('an agent directory holding git metadata is refused, at any depth, directories and gitfiles alike', async (t) => {
  const cases: TarPiece[] = [
    { kind: 'file', name: 'agents-abc123/reviewer/.git/config', data: '[core]\n\tfsmonitor = touch /tmp/pwned\n' },
    { kind: 'dir', name: 'agents-abc123/reviewer/skills/.GIT/' },
    { kind: 'file', name: 'agents-abc123/reviewer/sub/.git', data: 'gitdir: ../evil\n' },
    { kind: 'file', name: 'agents-abc123/reviewer/git~1/HEAD', data: 'ref: refs/heads/main\n' },
  ];
  for (const piece of cases) {
    const base = await serve(t, archiveHandler(repositoryArchive([piece])));
    const error = await t.throwsAsync(openAgent('github:acme/agents/reviewer', { cwd: '/', githubBaseUrl: base }));
    t.is(code(error), 'ZB_ARCHIVE_ENTRY_UNSAFE', piece.kind === 'file' || piece.kind === 'dir' ? piece.name.toString() : '');
    t.regex(error.message, /^https:\/\/github\.com\/acme\/agents\/reviewer: .*git metadata/);
  }
});

test('git metadata elsewhere in the repository does not matter: only the agent directory is loaded', async (t) => {
  const base = await serve(t, archiveHandler(repositoryArchive([{ kind: 'file', name: 'agents-abc123/other/.git/config', data: 'x' }])));
  const agent = await openAgent('github:acme/agents/reviewer', { cwd: '/', githubBaseUrl: base });
  t.is(agent.layout.identity.name, 'reviewer');
});

test('a named ref is requested by name, and a redirect is followed', async (t) => {
  const body = repositoryArchive();
  const base = await serve(t, (req, res) => {
    if (req.url === '/acme/agents/archive/v2.tar.gz') res.writeHead(302, { location: '/codeload/acme/agents/tar.gz/v2' }).end();
    else archiveHandler(body, ['/codeload/acme/agents/tar.gz/v2'])(req, res);
  });
  const agent = await openAgent('https://github.com/acme/agents/tree/v2/reviewer', { cwd: '/', githubBaseUrl: base });
  t.is(agent.layout.identity.version, '2.0.0');
});

test('a redirect loop is bounded', async (t) => {
  const base = await serve(t, (req, res) => res.writeHead(302, { location: req.url ?? '/' }).end());
  t.is(code(await t.throwsAsync(openAgent('https://github.com/acme/agents/reviewer', { cwd: '/', githubBaseUrl: base }))), 'ZB_GITHUB_DOWNLOAD_FAILED');
});

test('an HTTP error is reported with its status', async (t) => {
  const base = await serve(t, (_req, res) => res.writeHead(404).end());
  const error = await t.throwsAsync(openAgent('https://github.com/acme/missing/x', { cwd: '/', githubBaseUrl: base }));
  t.is(code(error), 'ZB_GITHUB_DOWNLOAD_FAILED');
  t.regex(error.message, /HTTP 404/);
});

test('an oversized archive is refused, by its declared length or by the bytes as they arrive', async (t) => {
  const limits = { maxCompressedBytes: 200, maxEntryBytes: 1 << 20, maxExpandedBytes: 1 << 22, maxEntries: 100 };
  const body = repositoryArchive([{ kind: 'file', name: 'agents-abc123/reviewer/big.bin', data: Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919) & 0xff)) }]);
  const declared = await serve(t, archiveHandler(body));
  t.is(code(await t.throwsAsync(openAgent('https://github.com/acme/agents/reviewer', { cwd: '/', githubBaseUrl: declared, limits }))), 'ZB_ARCHIVE_LIMIT_EXCEEDED');
  const chunked = await serve(t, (req, res) => {
    res.writeHead(200, { 'content-type': 'application/x-gzip' });
    res.end(body);
  });
  t.is(code(await t.throwsAsync(openAgent('https://github.com/acme/agents/reviewer', { cwd: '/', githubBaseUrl: chunked, limits }))), 'ZB_ARCHIVE_LIMIT_EXCEEDED');
});

test('limits apply to the agent directory, not to the rest of the repository', async (t) => {
  const limits = { maxCompressedBytes: 1 << 20, maxEntryBytes: 1000, maxExpandedBytes: 1 << 20, maxEntries: 100 };
  const body = repositoryArchive([{ kind: 'file', name: 'agents-abc123/docs/huge.txt', data: Buffer.alloc(50_000, 0x61) }]);
  const base = await serve(t, archiveHandler(body));
  const agent = await openAgent('https://github.com/acme/agents/reviewer', { cwd: '/', githubBaseUrl: base, limits });
  t.is(agent.layout.identity.name, 'reviewer');
});

test('every entry and byte of the repository counts toward the archive-wide limits, also outside the agent directory (issue 22 §8)', async (t) => {
  const limits = { maxCompressedBytes: 1 << 20, maxEntryBytes: 1000, maxExpandedBytes: 1 << 20, maxEntries: 100, maxArchiveEntries: 200, maxDecompressedBytes: 1 << 20 };
  const many = Array.from({ length: 300 }, (_, i): TarPiece => ({ kind: 'file', name: `agents-abc123/other/f${i}.txt`, data: 'x' }));
  const entries = await serve(t, archiveHandler(repositoryArchive(many)));
  const tooMany = await t.throwsAsync(openAgent('https://github.com/acme/agents/reviewer', { cwd: '/', githubBaseUrl: entries, limits }));
  t.is(code(tooMany), 'ZB_ARCHIVE_LIMIT_EXCEEDED');
  t.deepEqual((tooMany as { details?: unknown }).details, { limit: 'archive-entries', max: 200 });
  t.regex(tooMany.message, /repository archive has more than 200 entries.*outside the agent's folder/u);

  // 0.3 MiB of zeros outside the agent's folder compress to almost nothing: the bytes the decompressor yields are counted.
  const zeros = await serve(t, archiveHandler(repositoryArchive([{ kind: 'file', name: 'agents-abc123/docs/zeros.bin', data: Buffer.alloc(300_000) }])));
  const inflated = await t.throwsAsync(openAgent('https://github.com/acme/agents/reviewer', { cwd: '/', githubBaseUrl: zeros, limits: { ...limits, maxDecompressedBytes: 100_000 } }));
  t.is(code(inflated), 'ZB_ARCHIVE_LIMIT_EXCEEDED');
  t.deepEqual((inflated as { details?: unknown }).details, { limit: 'decompressed', max: 100_000 });
});

test('a wrong layout, a symlink in the agent directory, a missing directory and a missing manifest are clear errors', async (t) => {
  const cases: [Buffer, string, string][] = [
    [gzipCompress(buildTar([manifest('reviewer'), { kind: 'file', name: 'second-top/x', data: 'x' }])), 'reviewer', 'ZB_GITHUB_LAYOUT'],
    [repositoryArchive([{ kind: 'link', name: 'agents-abc123/reviewer/escape', target: '/etc/passwd', typeflag: '2' }]), 'reviewer', 'ZB_GITHUB_LAYOUT'],
    [repositoryArchive(), 'nowhere', 'ZB_GITHUB_LAYOUT'],
    [gzipCompress(buildTar([{ kind: 'file', name: 'agents-abc123/empty/AGENT.md', data: 'x' }])), 'empty', 'ZB_LAYOUT_MANIFEST_MISSING'],
  ];
  for (const [body, subdirectory, expected] of cases) {
    const base = await serve(t, archiveHandler(body));
    const error = await t.throwsAsync(openAgent(`https://github.com/acme/agents/${subdirectory}`, { cwd: '/', githubBaseUrl: base }));
    t.is(code(error), expected, subdirectory);
    t.regex(error.message, /https:\/\/github\.com\/acme\/agents/);
  }
});

test('zotbox inspect accepts a GitHub URL, with ZOTBOX_GITHUB_BASE pointing at a mirror', async (t) => {
  const base = await serve(t, archiveHandler(repositoryArchive()));
  const result = await runCliCaptured(['inspect', 'https://github.com/acme/agents/reviewer', '--json'], { env: { ZOTBOX_GITHUB_BASE: base } });
  t.is(result.status, 0, result.stderr);
  t.like(JSON.parse(result.stdout), { name: 'reviewer', source: { kind: 'github', path: 'https://github.com/acme/agents/reviewer', remote: 'acme/agents/reviewer@HEAD' }, format: 'gzip' });
});

test("zotbox inspect shows a GitHub agent's remote on its own line", async (t) => {
  const base = await serve(t, archiveHandler(repositoryArchive()));
  const result = await runCliCaptured(['inspect', 'github:acme/agents/reviewer'], { env: { ZOTBOX_GITHUB_BASE: base } });
  t.is(result.status, 0, result.stderr);
  t.regex(result.stdout, /^remote: +acme\/agents\/reviewer@HEAD$/m);
});

test('a run of a GitHub agent shows its remote source on a line of its own at consent', async (t) => {
  const base = await serve(t, archiveHandler(repositoryArchive()));
  const { runAgent } = await import('../../../src/host/run/run-agent.js');
  const { PassThrough } = await import('node:stream');
  const { mkdtempSync, rmSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const state = mkdtempSync(`${tmpdir()}/zb-gh-consent-`);
  t.teardown(() => rmSync(state, { recursive: true, force: true }));
  const replayFile = `${state}/replay.json`;
  writeFileSync(replayFile, JSON.stringify({ zotbox_replay: 1, model: 'replay', turns: [{ content: [{ type: 'text', text: 'hi' }], stop: 'end', usage: { input_tokens: 1, output_tokens: 1 } }] }));
  // A terminal that declines: the prompt is printed, then nothing runs.
  const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => undefined });
  setImmediate(() => stdin.write('n\r'));
  let shown = '';
  const run = runAgent({
    reference: 'github:acme/agents/reviewer@HEAD',
    cwd: state,
    env: { ZOTBOX_GITHUB_BASE: base },
    stateDirectory: state,
    prompt: 'hi',
    replayFile,
    stdin,
    stdout: { write: (text: string) => (shown += text), isTTY: true },
  });
  const error = await t.throwsAsync(run.next());
  t.regex(shown, /\n {2}source: github acme\/agents\/reviewer@HEAD\n/);
  t.is(code(error), 'ZB_CONSENT_REFUSED');
});

test('a GitHub agent is known by owner/repo/path, without the ref and without case in owner and repo; another path or a fork is another agent (issue 21)', async (t) => {
  const archive = repositoryArchive();
  const base = await serve(
    t,
    archiveHandler(archive, ['/acme/agents/archive/HEAD.tar.gz', '/acme/agents/archive/v2.tar.gz', '/Acme/Agents/archive/HEAD.tar.gz', '/mallory/agents/archive/HEAD.tar.gz']),
  );
  const open = async (reference: string) => (await openAgent(reference, { cwd: '/', githubBaseUrl: base })).sourceIdentity;
  const reviewer = { kind: 'github', owner: 'acme', repo: 'agents', path: 'reviewer' };
  t.deepEqual(await open('github:acme/agents/reviewer'), reviewer);
  t.deepEqual(await open('github:acme/agents/reviewer@v2'), reviewer, 'a new version keeps its data');
  t.deepEqual(await open('https://github.com/Acme/Agents/tree/HEAD/reviewer'), reviewer, 'GitHub names owners and repositories without case');
  t.deepEqual(await open('github:acme/agents/other'), { kind: 'github', owner: 'acme', repo: 'agents', path: 'other' });
  t.deepEqual(await open('github:mallory/agents/reviewer'), { kind: 'github', owner: 'mallory', repo: 'agents', path: 'reviewer' }, 'a fork is another agent');
});
