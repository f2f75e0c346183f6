// Cross-implementation checks with tar-stream, an independent tar encoder and
// decoder: what it writes, zotbox reads; what zotbox packs, it reads back the same.
import test from 'ava';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import tar from 'tar-stream';
import { loadImageFromArchive } from '../../src/archive/load-image.js';
import { packAgent } from '../../src/host/load/pack-agent.js';
import { gzipCompress, zstdCompress } from '../fixtures/tar-builder.js';
import { tempDir } from '../fixtures/temp.js';
import { execFileSync } from 'node:child_process';

async function packWithTarStream(entries: { name: string; data?: string; type?: 'directory' | 'file'; mode?: number }[]): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  const done = (async () => {
    for await (const chunk of pack as unknown as AsyncIterable<Buffer>) chunks.push(chunk);
  })();
  for (const entry of entries) {
    if (entry.type === 'directory') pack.entry({ name: entry.name, type: 'directory', mode: entry.mode ?? 0o755 });
    else pack.entry({ name: entry.name, mode: entry.mode ?? 0o644 }, entry.data ?? '');
  }
  pack.finalize();
  await done;
  return Buffer.concat(chunks);
}

const longName = `${'deep/'.repeat(40)}file.txt`;

test('archives written by tar-stream (PAX long and non-ASCII names, no directory entries) load in zotbox', async (t) => {
  const archive = await packWithTarStream([
    { name: 'manifest.json', data: '{"zotfile":1,"name":"x"}' },
    { name: longName, data: 'long' },
    { name: 'naïve/ünïcode.md', data: 'unicode' },
    { name: 'bin/run', data: '#!/bin/sh\n', mode: 0o755 },
  ]);
  for (const compressed of [zstdCompress(archive), gzipCompress(archive)]) {
    const image = await loadImageFromArchive(compressed);
    t.is(image.readText(longName), 'long');
    t.is(image.readText('naïve/ünïcode.md'), 'unicode');
    t.is(image.entries.find((e) => e.name === 'bin/run')?.mode, 0o755);
  }
});

test('tar-stream reads a zotbox .zot back with the same names, types and bytes', async (t) => {
  const dir = tempDir(t);
  const agent = path.join(dir, 'agent');
  mkdirSync(path.join(agent, path.dirname(longName)), { recursive: true });
  writeFileSync(path.join(agent, 'manifest.json'), '{"zotfile":1,"name":"x"}');
  writeFileSync(path.join(agent, longName), 'long');
  writeFileSync(path.join(agent, 'café.md'), 'accent');
  await packAgent(agent, path.join(dir, 'x.zot'), { cwd: dir });
  const tarBytes = execFileSync('zstd', ['-dc', path.join(dir, 'x.zot')]);
  const extract = tar.extract();
  const seen = new Map<string, string>();
  const done = (async () => {
    for await (const entry of extract) {
      const parts: Buffer[] = [];
      for await (const chunk of entry) parts.push(chunk as Buffer);
      seen.set(`${entry.header.type}:${entry.header.name}`, Buffer.concat(parts).toString());
    }
  })();
  Readable.from([tarBytes]).pipe(extract);
  await done;
  t.is(seen.get(`file:${longName}`), 'long');
  t.is(seen.get('file:café.md'), 'accent');
  t.is(seen.get('file:manifest.json'), readFileSync(path.join(agent, 'manifest.json'), 'utf8'));
  t.true(seen.has('directory:deep/'));
});
