import test from 'ava';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCliCaptured } from '../fixtures/cli-harness.js';
import { EXAMPLES_DIR } from '../fixtures/paths.js';
import { MINIMAL_MANIFEST, zot } from '../fixtures/tar-builder.js';
import { tempDir } from '../fixtures/temp.js';

const DIGEST = /^sha256:[0-9a-f]{64}$/;

test('pack prints the output path and both digests, and --json gives the documented shape', async (t) => {
  const dir = tempDir(t);
  const text = await runCliCaptured(['pack', path.join(EXAMPLES_DIR, 'code-reviewer')], { cwd: dir });
  t.is(text.status, 0, text.stderr);
  t.regex(text.stdout, new RegExp(`^wrote ${dir}/code-reviewer\\.zot\\nartifact digest  sha256:[0-9a-f]{64}\\ncontent digest   sha256:[0-9a-f]{64}\\n`));
  const json = await runCliCaptured(['pack', path.join(EXAMPLES_DIR, 'code-reviewer'), 'second', '--json'], { cwd: dir });
  t.is(json.status, 0, json.stderr);
  const doc = JSON.parse(json.stdout) as { output: string; artifact_digest: string; content_digest: string };
  t.deepEqual(Object.keys(doc), ['ok', 'output', 'name', 'version', 'artifact_digest', 'content_digest', 'artifact_size', 'tar_size', 'entries']);
  t.is(doc.output, path.join(dir, 'second.zot'));
  t.regex(doc.artifact_digest, DIGEST);
  t.regex(doc.content_digest, DIGEST);
});

test('inspect describes an agent without running it, in text and JSON', async (t) => {
  const text = await runCliCaptured(['inspect', path.join(EXAMPLES_DIR, 'repo-maintainer')]);
  t.is(text.status, 0, text.stderr);
  t.regex(text.stdout, /^name: +repo-maintainer\nversion: +0\.3\.0\n/);
  t.regex(text.stdout, / {2}fs read: \$\{workspace\}, \$\{agent_data\}\n {2}fs write: \$\{workspace\}, \$\{agent_data\}\n {2}bash: allowlist \(git, grep, ls\)\n/);
  t.regex(text.stdout, /\n {2}skills\/triage-issue\/SKILL\.md +\d+ B\n/);
  // The command limits in force: the defaults (the agent declares none), and the mechanism this host enforces them with.
  t.regex(text.stdout, /\n {2}limits: (a cgroup v[12] per command: at most 1024 processes and 4096 MiB|rlimits only)/);
  const json = await runCliCaptured(['inspect', path.join(EXAMPLES_DIR, 'code-reviewer'), '--json']);
  const doc = JSON.parse(json.stdout) as { format: string; artifact_digest: string | null; permissions: unknown; files: unknown[] };
  t.deepEqual(Object.keys(doc), [
    'source',
    'format',
    'name',
    'version',
    'description',
    'artifact_digest',
    'content_digest',
    'artifact_size',
    'expanded_size',
    'permissions',
    'unknown_keys',
    'warnings',
    'files',
    'skills',
    'env_read',
    'confinement',
    'limits',
    'search_path',
    'wide_grants',
    'storage',
  ]);
  t.deepEqual((doc as unknown as { search_path: string[] }).search_path, ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin']);
  t.is(doc.format, 'directory');
  t.is(doc.artifact_digest, null);
  t.deepEqual(doc.permissions, { fs: { read: ['${workspace}'], write: [] }, bash: { mode: 'none', allow: [] }, env: { read: [] }, limits: {}, net: { allow: [] } });
  t.deepEqual(doc.files[0], { path: 'AGENT.md', type: 'file', size: readFileSync(path.join(EXAMPLES_DIR, 'code-reviewer/AGENT.md')).length, mode: '0644' });
});

test('inspect shows each env.read name and whether it is set here, never its value', async (t) => {
  const agent = path.join(realpathSync(tempDir(t, 'zb-inspect-env-')), 'agent');
  mkdirSync(agent);
  writeFileSync(path.join(agent, 'manifest.json'), JSON.stringify({ zotfile: 1, name: 'env-reader', permissions: { env: { read: ['ZB_TEST_SET', 'ZB_TEST_UNSET', 'ZB_TEST_EMPTY'] } } }));
  writeFileSync(path.join(agent, 'AGENT.md'), 'Reads variables.\n');
  const env = { ZB_TEST_SET: 'value-that-must-not-show-7f3a', ZB_TEST_EMPTY: '' };
  const text = await runCliCaptured(['inspect', agent], { env });
  t.is(text.status, 0, text.stderr);
  t.regex(text.stdout, /\n {2}env read: ZB_TEST_SET \(set\), ZB_TEST_UNSET \(not set: absent for commands\), ZB_TEST_EMPTY \(set\)\n/);
  const json = await runCliCaptured(['inspect', agent, '--json'], { env });
  t.is(json.status, 0, json.stderr);
  const doc = JSON.parse(json.stdout) as { env_read: unknown; permissions: { env: unknown }; warnings: string[] };
  t.deepEqual(doc.env_read, [
    { name: 'ZB_TEST_SET', set: true },
    { name: 'ZB_TEST_UNSET', set: false },
    { name: 'ZB_TEST_EMPTY', set: true },
  ]);
  t.deepEqual(doc.permissions.env, { read: ['ZB_TEST_SET', 'ZB_TEST_UNSET', 'ZB_TEST_EMPTY'] });
  t.true(
    doc.warnings.some((w) => w.includes('zot refuses such an agent')),
    'inspect warns that zot would not run it',
  );
  for (const output of [text.stdout, text.stderr, json.stdout, json.stderr]) t.false(output.includes('must-not-show'));
});

test("inspect shows where the agent's data, sessions and receipts live: by name and source, so a copy elsewhere has its own", async (t) => {
  const root = realpathSync(tempDir(t, 'zb-inspect-storage-'));
  const home = path.join(root, 'state');
  const copy = path.join(root, 'elsewhere', 'code-reviewer');
  cpSync(path.join(EXAMPLES_DIR, 'code-reviewer'), copy, { recursive: true });
  const storage = async (reference: string) => {
    const result = await runCliCaptured(['inspect', reference, '--json'], { env: { ZOTBOX_HOME: home } });
    t.is(result.status, 0, result.stderr);
    return (JSON.parse(result.stdout) as { storage: { source: string; directory: string; data: string; sessions: string; consents: string } }).storage;
  };
  const original = await storage(path.join(EXAMPLES_DIR, 'code-reviewer'));
  const copied = await storage(copy);
  t.is(copied.source, copy);
  t.is(original.source, realpathSync(path.join(EXAMPLES_DIR, 'code-reviewer')));
  for (const s of [original, copied]) {
    t.regex(path.relative(home, s.directory), /^agents\/code-reviewer-[0-9a-f]{16}$/);
    t.deepEqual([s.data, s.sessions, s.consents], [path.join(s.directory, 'data'), path.join(s.directory, 'sessions'), path.join(s.directory, 'consents')]);
  }
  t.not(copied.directory, original.directory);
  const text = await runCliCaptured(['inspect', copy], { env: { ZOTBOX_HOME: home } });
  t.true(text.stdout.includes(`data kept for code-reviewer from ${copy}:\n  agent data:    ${copied.data}\n  sessions:      ${copied.sessions}\n  consents:      ${copied.consents}\n`), text.stdout);
  t.false(existsSync(home), 'inspect creates nothing in the state directory');
});

test('inspect reports unknown keys and a missing AGENT.md', async (t) => {
  const dir = tempDir(t);
  writeFileSync(path.join(dir, 'a.zot'), zot([{ kind: 'file', name: 'manifest.json', data: JSON.stringify({ zotfile: 1, name: 'x', future: true, entry: { later: 1 } }) }]));
  const doc = JSON.parse((await runCliCaptured(['inspect', 'a.zot', '--json'], { cwd: dir })).stdout) as { unknown_keys: string[]; warnings: string[] };
  t.deepEqual(doc.unknown_keys, ['future', 'entry.later']);
  t.is(doc.warnings.length, 1);
  t.regex(doc.warnings[0] ?? '', /AGENT\.md is missing/);
});

test('verify --expect passes on either digest and fails with exit 1 otherwise', async (t) => {
  const dir = tempDir(t);
  const packed = JSON.parse((await runCliCaptured(['pack', path.join(EXAMPLES_DIR, 'code-reviewer'), 'a.zot', '--json'], { cwd: dir })).stdout) as { artifact_digest: string; content_digest: string };
  for (const digest of [packed.artifact_digest, packed.content_digest]) {
    const ok = await runCliCaptured(['verify', 'a.zot', '--expect', digest], { cwd: dir });
    t.is(ok.status, 0, ok.stderr);
  }
  const dirOk = await runCliCaptured(['verify', path.join(EXAMPLES_DIR, 'code-reviewer'), '--expect', packed.content_digest]);
  t.is(dirOk.status, 0, 'a directory matches the content digest of its .zot');
  const wrong = `sha256:${'0'.repeat(64)}`;
  const bad = await runCliCaptured(['verify', 'a.zot', '--expect', wrong, '--json'], { cwd: dir });
  t.is(bad.status, 1);
  t.like(JSON.parse(bad.stdout), { type: 'error', code: 'ZB_ARCHIVE_DIGEST_MISMATCH', details: { expected: wrong, artifact_digest: packed.artifact_digest, content_digest: packed.content_digest } });
  t.regex(bad.stderr, /^zotbox: error\[ZB_ARCHIVE_DIGEST_MISMATCH\]/);
  const malformed = await runCliCaptured(['verify', 'a.zot', '--expect', 'abc'], { cwd: dir });
  t.is(malformed.status, 2);
});

test('verify --json gives the documented shape', async (t) => {
  const doc = JSON.parse((await runCliCaptured(['verify', path.join(EXAMPLES_DIR, 'code-reviewer'), '--json'])).stdout) as { matched: unknown };
  t.deepEqual(Object.keys(doc), ['ok', 'name', 'version', 'artifact_digest', 'content_digest', 'expect', 'matched', 'warnings']);
  t.is(doc.matched, null);
});

test('unpack extracts into a new directory; a hostile archive exits 1 and leaves nothing', async (t) => {
  const dir = tempDir(t);
  await runCliCaptured(['pack', path.join(EXAMPLES_DIR, 'code-reviewer'), 'a.zot'], { cwd: dir });
  const ok = await runCliCaptured(['unpack', 'a.zot', 'out', '--json'], { cwd: dir });
  t.is(ok.status, 0, ok.stderr);
  t.deepEqual(Object.keys(JSON.parse(ok.stdout) as object), ['ok', 'target', 'files', 'directories', 'artifact_digest', 'content_digest']);
  t.is(readFileSync(path.join(dir, 'out/AGENT.md'), 'utf8'), readFileSync(path.join(EXAMPLES_DIR, 'code-reviewer/AGENT.md'), 'utf8'));
  writeFileSync(
    path.join(dir, 'evil.zot'),
    zot([
      { kind: 'file', name: 'manifest.json', data: MINIMAL_MANIFEST },
      { kind: 'file', name: '../../escape', data: 'x' },
    ]),
  );
  const bad = await runCliCaptured(['unpack', 'evil.zot', 'evil-out'], { cwd: dir });
  t.is(bad.status, 1);
  t.regex(bad.stderr, /^zotbox: error\[ZB_ARCHIVE_ENTRY_UNSAFE\]: unsafe archive entry "\.\.\/\.\.\/escape"/);
  t.deepEqual(readdirSync(dir).sort(), ['a.zot', 'evil.zot', 'out']);
});

test('a missing agent is one clear line and exit 1, naming the path and the github: form', async (t) => {
  const result = await runCliCaptured(['inspect', '/nonexistent/agent']);
  t.is(result.status, 1);
  t.regex(result.stderr, /^zotbox: error\[ZB_LOAD_NOT_FOUND\]: no agent at \/nonexistent\/agent: nothing exists there\. .*github:OWNER\/REPO\/PATH/);
  t.is(result.stderr.split('\n').length, 2);
});

test('a mistyped relative agent is not looked up on GitHub', async (t) => {
  const dir = tempDir(t);
  // An unreachable mirror: a guess at GitHub would fail as ZB_GITHUB_DOWNLOAD_FAILED instead.
  const result = await runCliCaptured(['inspect', 'examples/code-reviwer'], { cwd: dir, env: { ZOTBOX_GITHUB_BASE: 'http://127.0.0.1:9' } });
  t.is(result.status, 1);
  t.regex(result.stderr, new RegExp(`^zotbox: error\\[ZB_LOAD_NOT_FOUND\\]: no agent at ${dir}/examples/code-reviwer: `));
});

test('inspect, verify and unpack refuse a .zot holding git metadata', async (t) => {
  const dir = tempDir(t);
  writeFileSync(
    path.join(dir, 'git.zot'),
    zot([
      { kind: 'file', name: 'manifest.json', data: MINIMAL_MANIFEST },
      { kind: 'file', name: 'sub/.git', data: 'gitdir: ../evil\n' },
    ]),
  );
  for (const args of [
    ['inspect', 'git.zot'],
    ['verify', 'git.zot'],
    ['unpack', 'git.zot', 'out'],
  ]) {
    const result = await runCliCaptured(args, { cwd: dir });
    t.is(result.status, 1, args[0]);
    t.regex(result.stderr, /^zotbox: error\[ZB_ARCHIVE_ENTRY_UNSAFE\]: unsafe archive entry "sub\/\.git": ".git" is git metadata/, args[0]);
  }
  t.deepEqual(readdirSync(dir), ['git.zot']);
});

test('inspect shows the hosts of net.allow, and "none" without them', async (t) => {
  const dir = tempDir(t, 'zb-inspect-net-');
  writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify({ zotfile: 1, name: 'fetcher', permissions: { net: { allow: ['api.github.com', '*.npmjs.org:443'] } } }));
  const text = await runCliCaptured(['inspect', dir]);
  t.is(text.status, 0, text.stderr);
  t.regex(text.stdout, /\n {2}net: api\.github\.com, \*\.npmjs\.org:443 \(through the sandbox's proxy; no port: 80 and 443 only\)\n/);
  const json = await runCliCaptured(['inspect', dir, '--json']);
  t.deepEqual((JSON.parse(json.stdout) as { permissions: { net: unknown } }).permissions.net, { allow: ['api.github.com', '*.npmjs.org:443'] });
  const none = await runCliCaptured(['inspect', path.join(EXAMPLES_DIR, 'code-reviewer')]);
  t.regex(none.stdout, /\n {2}net: none \(no network\)\n/);
});

test('inspect flags wide grants: a read scope of /, a write scope of the home directory, and bash ask mode; an ordinary agent has none', async (t) => {
  const agent = path.join(tempDir(t), 'wide');
  mkdirSync(agent);
  const home = (await import('node:os')).homedir();
  writeFileSync(path.join(agent, 'manifest.json'), JSON.stringify({ zotfile: 1, name: 'wide', version: '1.0.0', permissions: { fs: { read: ['/'], write: [`${home}/`] }, bash: { mode: 'ask' } } }));
  const text = await runCliCaptured(['inspect', agent]);
  t.is(text.status, 0, text.stderr);
  t.regex(
    text.stdout,
    /\nWIDE GRANTS \(3\): read these before you consent\n {2}! fs\.read \/: the whole file system[^\n]*\n {2}! fs\.write [^\n]+: your whole home directory[^\n]*\n {2}! bash\.mode ask: /,
  );
  const json = JSON.parse((await runCliCaptured(['inspect', agent, '--json'])).stdout) as { wide_grants: { permission: string; value: string }[] };
  t.deepEqual(
    json.wide_grants.map((w) => [w.permission, w.value]),
    [
      ['fs.read', '/'],
      ['fs.write', `${home}/`],
      ['bash.mode', 'ask'],
    ],
  );
  const ordinary = await runCliCaptured(['inspect', path.join(EXAMPLES_DIR, 'code-reviewer')]);
  t.false(ordinary.stdout.includes('WIDE GRANTS'));
});
