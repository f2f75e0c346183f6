import test from 'ava';
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, readFileSync, readdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { loadImageFromDirectory, loadImageFromFile } from '../../../src/archive/load-image.js';
import { packAgent, packOutputPath } from '../../../src/host/load/pack-agent.js';
import { REPO_ROOT } from '../../fixtures/paths.js';
import { tempDir } from '../../fixtures/temp.js';

const COMPAT = path.join(REPO_ROOT, 'test/fixtures/compat');
/** zot's digests and canonical tars of the reference agents, by agent directory (the fields read here). */
type CompatDigests = Record<string, { dir_digest: string; canonical_tar_file: string; canonical_tar_size: number }>;
const DIGESTS = JSON.parse(readFileSync(path.join(COMPAT, 'digests.json'), 'utf8')) as CompatDigests;

function makeAgent(root: string, files: Record<string, string> = {}): string {
  mkdirSync(root, { recursive: true });
  writeFileSync(path.join(root, 'manifest.json'), JSON.stringify({ zotfile: 1, name: 'sample', version: '0.1.0' }));
  writeFileSync(path.join(root, 'AGENT.md'), '# Sample\n');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
  return root;
}

test("directory digests of copies of the reference agents equal zot's, whatever the copies' modes", async (t) => {
  const dir = tempDir(t);
  cpSync(path.join(COMPAT, 'agents'), path.join(dir, 'agents'), { recursive: true });
  // Modes as a umask-002 git checkout or a careless copy would leave them.
  for (const entry of readdirSync(path.join(dir, 'agents'), { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    if (entry.isDirectory()) chmodSync(full, 0o775);
    else chmodSync(full, full.endsWith('run.sh') ? 0o775 : 0o664);
  }
  for (const [key, info] of Object.entries(DIGESTS)) {
    const image = await loadImageFromDirectory(path.join(dir, key));
    t.is(image.contentDigest, `sha256:${info.dir_digest}`, key);
  }
});

test("the canonical tar of each reference agent equals zot's .tar byte for byte", async (t) => {
  const dir = tempDir(t);
  cpSync(path.join(COMPAT, 'agents'), path.join(dir, 'agents'), { recursive: true });
  for (const [key, info] of Object.entries(DIGESTS)) {
    const out = path.join(dir, `${path.basename(key)}.zot`);
    const result = await packAgent(path.join(dir, key), out, { cwd: dir });
    const tar = execFileSync('zstd', ['-dc', out]);
    t.deepEqual(tar, readFileSync(path.join(COMPAT, info.canonical_tar_file)), key);
    t.is(result.contentDigest, `sha256:${info.dir_digest}`);
    t.is(result.tarSize, info.canonical_tar_size);
  }
});

test('packing twice, or after touching mtimes, gives byte-identical output', async (t) => {
  const dir = tempDir(t);
  const agent = makeAgent(path.join(dir, 'agent'), { 'skills/a/SKILL.md': 'skill', 'assets/x.bin': 'x'.repeat(1000) });
  const first = await packAgent(agent, path.join(dir, 'one.zot'), { cwd: dir });
  utimesSync(path.join(agent, 'AGENT.md'), new Date(2001, 1, 1), new Date(2001, 1, 1));
  chmodSync(path.join(agent, 'AGENT.md'), 0o600);
  chmodSync(path.join(agent, 'skills'), 0o700);
  const second = await packAgent(agent, path.join(dir, 'two.zot'), { cwd: dir });
  t.deepEqual(readFileSync(path.join(dir, 'one.zot')), readFileSync(path.join(dir, 'two.zot')));
  t.is(first.artifactDigest, second.artifactDigest);
  t.is(first.contentDigest, second.contentDigest);
});

test('packing under another umask gives the same bytes', async (t) => {
  const dir = tempDir(t);
  const agent = makeAgent(path.join(dir, 'agent'), { 'scripts/run.sh': '#!/bin/sh\n' });
  chmodSync(path.join(agent, 'scripts/run.sh'), 0o755);
  await packAgent(agent, path.join(dir, 'here.zot'), { cwd: dir });
  const script = `import('${path.join(REPO_ROOT, 'dist/src/host/load/pack-agent.js')}').then((m) => m.packAgent(process.argv[1], process.argv[2], { cwd: '/' }))`;
  execFileSync('sh', ['-c', `umask 077 && "${process.execPath}" -e "$0" "$1" "$2"`, script, agent, path.join(dir, 'there.zot')]);
  t.deepEqual(readFileSync(path.join(dir, 'here.zot')), readFileSync(path.join(dir, 'there.zot')));
});

test('modes are normalized: 0755 for directories and owner-executable files, else 0644', async (t) => {
  const dir = tempDir(t);
  const agent = makeAgent(path.join(dir, 'agent'), { 'a.sh': '', 'b.txt': '', 'c.txt': '' });
  chmodSync(path.join(agent, 'a.sh'), 0o700);
  chmodSync(path.join(agent, 'b.txt'), 0o666);
  chmodSync(path.join(agent, 'c.txt'), 0o011); // group/other execute only: not executable for the owner
  const image = await loadImageFromDirectory(agent);
  const modes = Object.fromEntries(image.entries.map((e) => [e.name, e.mode.toString(8)]));
  t.like(modes, { 'a.sh': '755', 'b.txt': '644', 'c.txt': '644' });
});

test('a symlink anywhere in the tree is an error naming it, and no archive is written', async (t) => {
  const dir = tempDir(t);
  const agent = makeAgent(path.join(dir, 'agent'), { 'skills/a/SKILL.md': 'x' });
  symlinkSync('/etc/passwd', path.join(agent, 'skills/a/link'));
  const error = await t.throwsAsync(packAgent(agent, path.join(dir, 'out.zot'), { cwd: dir }));
  t.is((error as { code?: string }).code, 'ZB_ARCHIVE_SOURCE_UNSUPPORTED');
  t.regex(error.message, /skills\/a\/link is a symlink/);
  t.deepEqual(readdirSync(dir), ['agent']);
});

test('a symlinked agent directory is refused rather than digested as empty', async (t) => {
  const dir = tempDir(t);
  const agent = makeAgent(path.join(dir, 'agent'));
  symlinkSync(agent, path.join(dir, 'link'));
  const error = await t.throwsAsync(loadImageFromDirectory(path.join(dir, 'link')));
  t.is((error as { code?: string }).code, 'ZB_ARCHIVE_SOURCE_UNSUPPORTED');
});

test('a FIFO in the tree is an error', async (t) => {
  const dir = tempDir(t);
  const agent = makeAgent(path.join(dir, 'agent'));
  execFileSync('mkfifo', [path.join(agent, 'pipe')]);
  const error = await t.throwsAsync(loadImageFromDirectory(agent));
  t.is((error as { code?: string }).code, 'ZB_ARCHIVE_SOURCE_UNSUPPORTED');
  t.regex(error.message, /pipe is a FIFO/);
});

test('a socket in the tree is an error', async (t) => {
  const dir = tempDir(t);
  const agent = makeAgent(path.join(dir, 'agent'));
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(path.join(agent, 'sock'), resolve));
  t.teardown(() => server.close());
  const error = await t.throwsAsync(loadImageFromDirectory(agent));
  t.is((error as { code?: string }).code, 'ZB_ARCHIVE_SOURCE_UNSUPPORTED');
  t.regex(error.message, /sock is a socket/);
});

test('a bundled extension is rejected wherever it sits under extensions/', async (t) => {
  for (const name of ['extensions/x/extension.json', 'extensions/a/b/extension.json']) {
    const dir = tempDir(t);
    const agent = makeAgent(path.join(dir, 'agent'), { [name]: '{}' });
    const error = await t.throwsAsync(packAgent(agent, path.join(dir, 'out.zot'), { cwd: dir }));
    t.is((error as { code?: string }).code, 'ZB_LAYOUT_EXTENSION_BUNDLED', name);
  }
});

test('a missing manifest, an invalid name and a directory AGENT.md are layout errors', async (t) => {
  const dir = tempDir(t);
  mkdirSync(path.join(dir, 'empty'));
  t.is(((await t.throwsAsync(packAgent(path.join(dir, 'empty'), undefined, { cwd: dir }))) as { code?: string }).code, 'ZB_LAYOUT_MANIFEST_MISSING');
  const badName = makeAgent(path.join(dir, 'bad'));
  writeFileSync(path.join(badName, 'manifest.json'), JSON.stringify({ zotfile: 1, name: 'Bad Name' }));
  t.is(((await t.throwsAsync(packAgent(badName, undefined, { cwd: dir }))) as { code?: string }).code, 'ZB_MANIFEST_INVALID');
  const agentMdDir = makeAgent(path.join(dir, 'mddir'));
  execFileSync('rm', [path.join(agentMdDir, 'AGENT.md')]);
  mkdirSync(path.join(agentMdDir, 'AGENT.md'));
  t.is(((await t.throwsAsync(packAgent(agentMdDir, undefined, { cwd: dir }))) as { code?: string }).code, 'ZB_LAYOUT_AGENT_MD_INVALID');
});

test('the output inside the source tree is excluded by canonical path, also when named through a symlink', async (t) => {
  const dir = tempDir(t);
  const agent = makeAgent(path.join(dir, 'agent'));
  symlinkSync(agent, path.join(dir, 'alias'));
  const first = await packAgent(agent, path.join(dir, 'alias', 'self.zot'), { cwd: dir });
  const again = await packAgent(agent, path.join(agent, 'self.zot'), { cwd: dir });
  t.is(first.contentDigest, again.contentDigest, 'the earlier output is not packed into the next one');
  const image = await loadImageFromFile(path.join(agent, 'self.zot'));
  t.false(image.entries.some((e) => e.name.endsWith('.zot') || e.name.endsWith('.tmp')));
});

test('the default output is <name>.zot in the working directory and ".zot" is appended when missing', (t) => {
  t.is(packOutputPath('/w', undefined, 'code-reviewer'), '/w/code-reviewer.zot');
  t.is(packOutputPath('/w', 'out', 'x'), '/w/out.zot');
  t.is(packOutputPath('/w', 'x.ZOT', 'x'), '/w/x.ZOT.zot');
  t.is(packOutputPath('/w', '/abs/y.zot', 'x'), '/abs/y.zot');
});

test('a failed pack leaves no output and no temporary file', async (t) => {
  const dir = tempDir(t);
  const agent = makeAgent(path.join(dir, 'agent'), { 'big.bin': 'x'.repeat(5000) });
  const error = await t.throwsAsync(
    packAgent(agent, path.join(dir, 'out.zot'), { cwd: dir, limits: { maxCompressedBytes: 1_000_000, maxEntryBytes: 1000, maxExpandedBytes: 1_000_000, maxEntries: 100 } }),
  );
  t.is((error as { code?: string }).code, 'ZB_ARCHIVE_LIMIT_EXCEEDED');
  t.deepEqual(readdirSync(dir), ['agent']);
});

for (const [why, layout, component] of [
  ['a git checkout (.git/ with config and hooks)', { '.git/config': '[core]\n', '.git/hooks/pre-commit': '#!/bin/sh\n' }, '.git'],
  ['an empty .git directory', { '.git/': '' }, '.git'],
  ['a nested skills/x/.git/config', { 'skills/x/.git/config': '[core]\n' }, '.git'],
  ['a gitfile sub/.git', { 'sub/.git': 'gitdir: ../evil\n' }, '.git'],
  ['an upper-case .GIT', { '.GIT/HEAD': 'ref: x\n' }, '.GIT'],
  ['a trailing-dot .git.', { 'a/.git./HEAD': 'ref: x\n' }, '.git.'],
  ['the 8.3 alias git~1', { 'git~1/HEAD': 'ref: x\n' }, 'git~1'],
  ['an HFS+ alias .g\\u200cit', { '.g\u200cit/HEAD': 'ref: x\n' }, '.g\u200cit'],
] as const) {
  test(`pack refuses a source with ${why}, and leaves no output or temporary file`, async (t) => {
    const dir = tempDir(t);
    const agent = makeAgent(path.join(dir, 'agent'));
    for (const [name, text] of Object.entries(layout)) {
      mkdirSync(path.join(agent, name.endsWith('/') ? name : path.dirname(name)), { recursive: true });
      if (!name.endsWith('/')) writeFileSync(path.join(agent, name), text);
    }
    const error = await t.throwsAsync(packAgent(agent, path.join(dir, 'out.zot'), { cwd: dir }));
    t.is((error as { code?: string }).code, 'ZB_ARCHIVE_ENTRY_UNSAFE', error.message);
    t.is((error as { details?: { component?: string } }).details?.component, component);
    t.regex(error.message, /git metadata.*Fix: pack a copy of the agent without it/);
    t.deepEqual(readdirSync(dir), ['agent']);
  });
}

test('a local directory agent that is a git checkout still loads, its .git included', async (t) => {
  const dir = tempDir(t);
  const agent = makeAgent(path.join(dir, 'agent'), { '.git/HEAD': 'ref: refs/heads/main\n', 'sub/.git': 'gitdir: ../x\n' });
  const image = await loadImageFromDirectory(agent);
  t.deepEqual(
    image.entries.map((e) => e.name),
    ['.git', '.git/HEAD', 'AGENT.md', 'manifest.json', 'sub', 'sub/.git'],
  );
});

test('pack refuses an archive its own loader would reject for size', async (t) => {
  const dir = tempDir(t);
  const agent = makeAgent(path.join(dir, 'agent'), { 'noise.bin': Buffer.from(Array.from({ length: 20_000 }, () => Math.floor(Math.random() * 256))).toString('latin1') });
  const error = await t.throwsAsync(
    packAgent(agent, path.join(dir, 'out.zot'), { cwd: dir, limits: { maxCompressedBytes: 2000, maxEntryBytes: 1_000_000, maxExpandedBytes: 1_000_000, maxEntries: 100 } }),
  );
  t.is((error as { code?: string }).code, 'ZB_ARCHIVE_LIMIT_EXCEEDED');
  t.deepEqual(readdirSync(dir), ['agent']);
});

test('an aborted pack removes its temporary file', async (t) => {
  const dir = tempDir(t);
  const agent = makeAgent(path.join(dir, 'agent'));
  const controller = new AbortController();
  controller.abort();
  const error = await t.throwsAsync(packAgent(agent, path.join(dir, 'out.zot'), { cwd: dir, signal: controller.signal }));
  t.is((error as { code?: string }).code, 'ZB_ARCHIVE_INTERRUPTED');
  t.deepEqual(readdirSync(dir), ['agent']);
});

test('a .zot written by zotbox is a plain zstd tar that the system tools read', async (t) => {
  const dir = tempDir(t);
  const agent = makeAgent(path.join(dir, 'agent'), { 'café.md': 'x', [`${'d'.repeat(120)}/f`]: 'y' });
  await packAgent(agent, path.join(dir, 'a.zot'), { cwd: dir });
  const listing = execFileSync('sh', ['-c', `zstd -dc "${path.join(dir, 'a.zot')}" | tar -tf -`], { encoding: 'utf8' });
  t.true(listing.includes('café.md'));
  t.true(listing.includes(`${'d'.repeat(120)}/f`));
});

test('an output that cannot be written is ZB_IO_FAILED naming it, and nothing is left behind', async (t) => {
  const dir = tempDir(t);
  const agent = makeAgent(path.join(dir, 'agent'));
  mkdirSync(path.join(dir, 'taken.zot'));
  const onDirectory = await t.throwsAsync(packAgent(agent, path.join(dir, 'taken.zot'), { cwd: dir }));
  t.is((onDirectory as { code?: string }).code, 'ZB_IO_FAILED');
  t.regex(onDirectory.message, /cannot write .*taken\.zot: it is a directory \(EISDIR\)/);
  t.deepEqual(readdirSync(dir).sort(), ['agent', 'taken.zot']);
  const noParent = await t.throwsAsync(packAgent(agent, path.join(dir, 'missing', 'x.zot'), { cwd: dir }));
  t.is((noParent as { code?: string }).code, 'ZB_IO_FAILED');
  t.regex(noParent.message, /missing: it does not exist \(ENOENT\)/);
});
