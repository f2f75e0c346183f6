import test from 'ava';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ImageBuilder } from '../../src/archive/image-builder.js';
import { DEFAULT_LIMITS } from '../../src/archive/limits.js';
import { TarReader } from '../../src/archive/tar-read.js';
import { REPO_ROOT } from '../fixtures/paths.js';
import { MINIMAL_MANIFEST, buildTar, type TarPiece } from '../fixtures/tar-builder.js';

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
