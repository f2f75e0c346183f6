import test from 'ava';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ImageBuilder } from '../../src/archive/image-builder.js';
import { DEFAULT_LIMITS } from '../../src/archive/limits.js';
import { loadImageFromArchive } from '../../src/archive/load-image.js';
import { TarReader } from '../../src/archive/tar-read.js';
import { REPO_ROOT } from '../fixtures/paths.js';
import { MINIMAL_MANIFEST, buildTar, gzipCompress, zot, type TarPiece } from '../fixtures/tar-builder.js';

/** Runs a tar through the builder and reports whether it took the one-pass (canonical) path. */
function build(tar: Buffer) {
  const builder = new ImageBuilder(DEFAULT_LIMITS);
  const reader = new TarReader(builder);
  builder.observeTarBytes(tar);
  reader.push(tar);
  reader.end();
  const onePass = (builder as unknown as { canonical: boolean }).canonical;
  return { image: builder.build('zstd', { digest: 'sha256:x', size: 0 }, reader.paddingAfterTrailer), onePass };
}

const manifest: TarPiece = { kind: 'file', name: 'manifest.json', data: MINIMAL_MANIFEST };

test('the reference tars are canonical streams: their digest is taken in one pass', (t) => {
  const compat = path.join(REPO_ROOT, 'test/fixtures/compat');
  for (const name of ['code-reviewer', 'nested-layout', 'edge-cases']) t.true(build(readFileSync(path.join(compat, `${name}.tar`))).onePass, name);
});

const notCanonical = test.macro((t, pieces: TarPiece[]) => {
  const { onePass, image } = build(buildTar(pieces));
  t.false(onePass);
  // And the recomputed digest equals the one of the canonical form of the same entries.
  const canonical = build(buildTar([{ kind: 'dir', name: 'a/' }, { kind: 'file', name: 'a/b', data: 'x' }, manifest]));
  t.is(image.contentDigest, canonical.image.contentDigest);
});

test('entries out of order', notCanonical, [manifest, { kind: 'dir', name: 'a/' }, { kind: 'file', name: 'a/b', data: 'x' }]);
test('a missing directory entry', notCanonical, [{ kind: 'file', name: 'a/b', data: 'x' }, manifest]);
test('a non-normalized mode', notCanonical, [{ kind: 'dir', name: 'a/', mode: 0o700 }, { kind: 'file', name: 'a/b', data: 'x', mode: 0o600 }, manifest]);
test('a leading ./', notCanonical, [{ kind: 'dir', name: './a/' }, { kind: 'file', name: './a/b', data: 'x' }, manifest]);
test('an ignored link among the entries', notCanonical, [{ kind: 'dir', name: 'a/' }, { kind: 'file', name: 'a/b', data: 'x' }, { kind: 'link', name: 'l', target: 'a', typeflag: '2' }, manifest]);

// Git metadata (issue 9): an archive with any entry whose effective name has a
// component git treats as ".git" is rejected whole, whatever the entry type.
const refusesGitMetadata = test.macro({
  async exec(t, pieces: TarPiece[], component: string) {
    for (const archive of [zot([manifest, ...pieces]), gzipCompress(buildTar([manifest, ...pieces]))]) {
      const error = await t.throwsAsync(loadImageFromArchive(archive));
      t.is((error as { code?: string }).code, 'ZB_ARCHIVE_ENTRY_UNSAFE', error.message);
      t.is((error as { details?: { component?: string } }).details?.component, component);
      t.regex(error.message, /git metadata/);
    }
  },
  title: (title = '') => `an archive is rejected when it holds ${title}`,
});

const config = (directory: string): TarPiece[] => [{ kind: 'file', name: `${directory}/config`, data: '[core]\n\tfsmonitor = touch /tmp/pwned\n' }];

test('.git/config', refusesGitMetadata, config('.git'), '.git');
test('.GIT/config', refusesGitMetadata, config('.GIT'), '.GIT');
test('.Git/hooks/pre-commit', refusesGitMetadata, [{ kind: 'file', name: '.Git/hooks/pre-commit', data: '#!/bin/sh\n', mode: 0o755 }], '.Git');
test('".git."/config (NTFS trailing dot)', refusesGitMetadata, config('.git.'), '.git.');
test('".git "/config (NTFS trailing space)', refusesGitMetadata, config('.git '), '.git ');
test('".git::$INDEX_ALLOCATION"/config (NTFS stream)', refusesGitMetadata, config('.git::$INDEX_ALLOCATION'), '.git::$INDEX_ALLOCATION');
test('git~1/config (NTFS 8.3 name)', refusesGitMetadata, config('git~1'), 'git~1');
test('GIT~1/config', refusesGitMetadata, config('GIT~1'), 'GIT~1');
test('".g\\u200cit"/config (HFS+ ignorable code point)', refusesGitMetadata, config('.g\u200cit'), '.g\u200cit');
test('"\\ufeff.git"/config (HFS+ byte-order mark)', refusesGitMetadata, config('\ufeff.git'), '\ufeff.git');
test('a nested a/.git/config', refusesGitMetadata, [{ kind: 'dir', name: 'a/' }, ...config('a/.git')], '.git');
test('a deep skills/x/.git/hooks/post-checkout', refusesGitMetadata, [{ kind: 'file', name: 'skills/x/.git/hooks/post-checkout', data: 'x' }], '.git');
test('a .git directory entry with no children', refusesGitMetadata, [{ kind: 'dir', name: '.git/' }], '.git');
test(
  'a nested empty sub/.GIT/ directory entry',
  refusesGitMetadata,
  [
    { kind: 'dir', name: 'sub/' },
    { kind: 'dir', name: 'sub/.GIT/' },
  ],
  '.GIT',
);
test('a gitfile sub/.git (a regular file)', refusesGitMetadata, [{ kind: 'file', name: 'sub/.git', data: 'gitdir: ../evil\n' }], '.git');
test('a symlink named .git (never created, still refused)', refusesGitMetadata, [{ kind: 'link', name: '.git', target: '/tmp/evil', typeflag: '2' }], '.git');
test('a hard link named sub/.git', refusesGitMetadata, [{ kind: 'link', name: 'sub/.git', target: 'manifest.json', typeflag: '1' }], '.git');
test('.git/config spelled ./.git/config', refusesGitMetadata, config('./.git'), '.git');
test('.git/config through the USTAR prefix', refusesGitMetadata, [{ kind: 'file', name: 'config', prefix: 'a/.git', data: 'x' }], '.git');
test(
  '.git/config through a PAX path',
  refusesGitMetadata,
  [
    { kind: 'pax', records: { path: 'a/.git/config' } },
    { kind: 'file', name: 'innocent', data: 'x' },
  ],
  '.git',
);
test(
  '.git/config through a GNU long name',
  refusesGitMetadata,
  [
    { kind: 'gnu-long-name', name: `${'d'.repeat(120)}/.git/config` },
    { kind: 'file', name: 'innocent', magic: 'gnu', data: 'x' },
  ],
  '.git',
);

test('names that only look like git metadata load', async (t) => {
  const image = await loadImageFromArchive(
    zot([
      manifest,
      { kind: 'file', name: '.gitignore', data: 'x' },
      { kind: 'file', name: '.github/workflows/ci.yml', data: 'x' },
      { kind: 'file', name: 'docs/.gitattributes', data: 'x' },
      { kind: 'file', name: 'git/notes', data: 'x' },
    ]),
  );
  t.deepEqual(
    image.entries.map((e) => e.name),
    ['.github', '.github/workflows', '.github/workflows/ci.yml', '.gitignore', 'docs', 'docs/.gitattributes', 'git', 'git/notes', 'manifest.json'],
  );
});
