import test from 'ava';
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, readFileSync, readdirSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { unpackArchiveFile } from '../../src/archive/extract.js';
import { loadImageFromDirectory } from '../../src/archive/load-image.js';
import { packAgent } from '../../src/host/load/pack-agent.js';
import { REPO_ROOT } from '../fixtures/paths.js';
import { MINIMAL_MANIFEST, zot, type TarPiece } from '../fixtures/tar-builder.js';
import { tempDir } from '../fixtures/temp.js';

const manifest: TarPiece = { kind: 'file', name: 'manifest.json', data: MINIMAL_MANIFEST };

function writeArchive(dir: string, bytes: Buffer): string {
  const file = path.join(dir, 'agent.zot');
  writeFileSync(file, bytes);
  return file;
}

test("unpack creates the directory with normalized modes and exactly the archive's entries", async (t) => {
  const dir = tempDir(t);
  const file = writeArchive(
    dir,
    zot([manifest, { kind: 'dir', name: 'bin/', mode: 0o700 }, { kind: 'file', name: 'bin/run', data: '#!/bin/sh\n', mode: 0o777 }, { kind: 'file', name: 'secret', data: 's', mode: 0o4600 }]),
  );
  const result = await unpackArchiveFile(file, path.join(dir, 'out'));
  t.is(result.files, 3);
  const mode = (name: string) => (statSync(path.join(dir, 'out', name)).mode & 0o7777).toString(8);
  t.is(mode('.'), '755');
  t.is(mode('bin'), '755');
  t.is(mode('bin/run'), '755');
  t.is(mode('secret'), '644');
  t.deepEqual(readdirSync(dir).sort(), ['agent.zot', 'out']);
});

test('unpack honours normalized modes under a restrictive umask', async (t) => {
  const dir = tempDir(t);
  const file = writeArchive(dir, zot([manifest, { kind: 'file', name: 'run.sh', data: 'x', mode: 0o755 }]));
  const script = `import('${path.join(REPO_ROOT, 'dist/src/archive/extract.js')}').then((m) => m.unpackArchiveFile(process.argv[1], process.argv[2]))`;
  execFileSync('sh', ['-c', `umask 077 && "${process.execPath}" -e "$0" "$1" "$2"`, script, file, path.join(dir, 'out')]);
  t.is((statSync(path.join(dir, 'out', 'run.sh')).mode & 0o777).toString(8), '755');
  t.is((statSync(path.join(dir, 'out', 'manifest.json')).mode & 0o777).toString(8), '644');
});

test('unpack into an existing empty directory works; a non-empty one is refused', async (t) => {
  const dir = tempDir(t);
  const file = writeArchive(dir, zot([manifest]));
  mkdirSync(path.join(dir, 'empty'));
  await unpackArchiveFile(file, path.join(dir, 'empty'));
  t.true(lstatSync(path.join(dir, 'empty', 'manifest.json')).isFile());
  mkdirSync(path.join(dir, 'full'));
  writeFileSync(path.join(dir, 'full', 'keep.txt'), 'mine');
  const error = await t.throwsAsync(unpackArchiveFile(file, path.join(dir, 'full')));
  t.is((error as { code?: string }).code, 'ZB_ARCHIVE_UNPACK_TARGET');
  t.deepEqual(readdirSync(path.join(dir, 'full')), ['keep.txt']);
  writeFileSync(path.join(dir, 'plain-file'), '');
  t.is(((await t.throwsAsync(unpackArchiveFile(file, path.join(dir, 'plain-file')))) as { code?: string }).code, 'ZB_ARCHIVE_UNPACK_TARGET');
});

test('a hostile archive leaves nothing behind: no target, no temporary directory', async (t) => {
  const dir = tempDir(t);
  for (const pieces of [
    [manifest, { kind: 'file', name: '../escape', data: 'x' }],
    [manifest, { kind: 'link', name: 'a', target: '/tmp', typeflag: '2' }, { kind: 'file', name: 'a', data: 'x' }],
  ] as TarPiece[][]) {
    const file = writeArchive(dir, zot(pieces));
    await t.throwsAsync(unpackArchiveFile(file, path.join(dir, 'out')));
    t.deepEqual(readdirSync(dir), ['agent.zot']);
  }
});

test('unpacking an archive with git metadata writes nothing: no target, no temporary directory, no partial files', async (t) => {
  const dir = tempDir(t);
  // Ordinary entries come first, so they were already streamed into staging when the git entry is met.
  const before: TarPiece[] = [manifest, { kind: 'dir', name: 'skills/' }, { kind: 'file', name: 'skills/SKILL.md', data: 'skill' }, { kind: 'file', name: 'AGENT.md', data: '# x' }];
  for (const git of [
    [{ kind: 'file', name: '.git/config', data: '[core]\n\tfsmonitor = touch /tmp/pwned\n' }],
    [{ kind: 'file', name: 'skills/.GIT/hooks/post-checkout', data: '#!/bin/sh\n', mode: 0o755 }],
    [{ kind: 'dir', name: 'git~1/' }],
    [{ kind: 'file', name: 'skills/.git', data: 'gitdir: ../evil\n' }],
    [
      { kind: 'dir', name: '.git./' },
      { kind: 'file', name: '.git./HEAD', data: 'ref: x' },
    ],
  ] as TarPiece[][]) {
    const file = writeArchive(dir, zot([...before, ...git]));
    const error = await t.throwsAsync(unpackArchiveFile(file, path.join(dir, 'out')));
    t.is((error as { code?: string }).code, 'ZB_ARCHIVE_ENTRY_UNSAFE', error.message);
    t.deepEqual(readdirSync(dir), ['agent.zot']);
    // An existing empty target stays empty.
    mkdirSync(path.join(dir, 'empty'));
    await t.throwsAsync(unpackArchiveFile(file, path.join(dir, 'empty')));
    t.deepEqual(readdirSync(dir).sort(), ['agent.zot', 'empty']);
    t.deepEqual(readdirSync(path.join(dir, 'empty')), []);
    rmdirSync(path.join(dir, 'empty'));
  }
});

test('a symlink entry followed by a file through it writes nothing, inside or outside', async (t) => {
  const dir = tempDir(t);
  const outside = path.join(dir, 'outside');
  mkdirSync(outside);
  const file = writeArchive(dir, zot([manifest, { kind: 'link', name: 'a', target: outside, typeflag: '2' }, { kind: 'file', name: 'a/planted', data: 'x' }]));
  const error = await t.throwsAsync(unpackArchiveFile(file, path.join(dir, 'out')));
  t.is((error as { code?: string }).code, 'ZB_ARCHIVE_ENTRY_DUPLICATE');
  t.deepEqual(readdirSync(outside), []);
  t.deepEqual(readdirSync(dir).sort(), ['agent.zot', 'outside']);
});

test('an aborted unpack leaves nothing behind', async (t) => {
  const dir = tempDir(t);
  const file = writeArchive(dir, zot([manifest]));
  const controller = new AbortController();
  controller.abort();
  const error = await t.throwsAsync(unpackArchiveFile(file, path.join(dir, 'out'), { signal: controller.signal }));
  t.is((error as { code?: string }).code, 'ZB_ARCHIVE_INTERRUPTED');
  t.deepEqual(readdirSync(dir), ['agent.zot']);
});

// Random trees: names from a small alphabet (with unicode and dots) so collisions and nesting are common.
const segment = fc.stringMatching(/^[a-zA-Z0-9é._-]{1,12}$/).filter((s) => s !== '.' && s !== '..');
const treeArbitrary = fc.uniqueArray(
  fc.record({
    path: fc.array(segment, { minLength: 1, maxLength: 4 }),
    content: fc.uint8Array({ maxLength: 2000 }),
    executable: fc.boolean(),
  }),
  { maxLength: 25, selector: (f) => f.path.join('/').toLowerCase() },
);

test('pack → load → unpack reproduces any random tree byte for byte (property)', async (t) => {
  let runs = 0;
  await fc.assert(
    fc.asyncProperty(treeArbitrary, async (files) => {
      const dir = tempDir(t, 'zb-prop-');
      const source = path.join(dir, 'src');
      mkdirSync(source);
      writeFileSync(path.join(source, 'manifest.json'), MINIMAL_MANIFEST);
      const written = new Map<string, { content: Uint8Array; executable: boolean }>();
      for (const file of files) {
        const relative = file.path.join('/');
        // Skip files whose path collides with a directory another file needs (a file cannot be both).
        if (relative === 'manifest.json' || [...written.keys()].some((w) => w.startsWith(`${relative}/`) || relative.startsWith(`${w}/`))) continue;
        mkdirSync(path.dirname(path.join(source, relative)), { recursive: true });
        writeFileSync(path.join(source, relative), file.content, { mode: file.executable ? 0o755 : 0o644 });
        written.set(relative, file);
      }
      const packed = await packAgent(source, path.join(dir, 'a.zot'), { cwd: dir });
      const sourceImage = await loadImageFromDirectory(source);
      t.is(packed.contentDigest, sourceImage.contentDigest);
      await unpackArchiveFile(path.join(dir, 'a.zot'), path.join(dir, 'out'));
      for (const [relative, file] of written) {
        t.deepEqual(new Uint8Array(readFileSync(path.join(dir, 'out', relative))), file.content, relative);
        t.is((statSync(path.join(dir, 'out', relative)).mode & 0o777) === 0o755, file.executable, relative);
      }
      t.is((await loadImageFromDirectory(path.join(dir, 'out'))).contentDigest, packed.contentDigest);
      runs++;
    }),
    { numRuns: 40 },
  );
  t.is(runs, 40);
});
