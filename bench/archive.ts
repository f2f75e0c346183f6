// npm run bench -- archive
// Side by side, in one run, on a typical agent (~50 files, ~300 KB) and a large
// one (~5,000 files, ~200 MB expanded):
//  (a) loading into an image      vs  `zstd -dc FILE > /dev/null` (the decompression floor);
//      for the large one also the memory floor: paging in as many fresh bytes as the
//      image keeps, with no other work, against the same baseline
//  (b) zotbox unpack              vs  `zstd -dc FILE | tar -x -C DIR` on the same filesystem
//  (c) pack, and directory digest vs  `tar --sort=name -cf - -C DIR . | sha256sum`
// Throughputs are tar bytes per second. Samples alternate zotbox and baseline;
// the ratio is the median over pairs of baseline time / zotbox time (> 1: zotbox
// is faster), which cancels the drift this machine's disk shows between runs.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ZstdDecompressionWorker, digestSourceTree, loadImageFromFile, unpackArchiveFile, walkSourceTree } from '../src/archive/index.js';
import { packAgent } from '../src/host/load/pack-agent.js';
import { formatTable, measurePair, throughputMBs, type PairResult } from './harness.js';

interface Corpus {
  readonly label: string;
  readonly dir: string;
  readonly zot: string;
  readonly tarBytes: number;
  readonly samples: number;
}

/** Deterministic text-like content: compresses roughly like source code (about 3-4x). */
function makeContent(seed: number, size: number): Buffer {
  const words = ['const', 'return', 'function', 'agent', 'value', 'path', 'error', 'if', 'else', '{', '}', '(', ')', ';', 'await', 'import', 'export', 'zotbox', 'policy', 'gate'];
  let state = seed >>> 0 || 1;
  const out = Buffer.allocUnsafe(size);
  let offset = 0;
  while (offset < size) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    const word = state % 7 === 0 ? `${state.toString(36)} ` : `${words[state % words.length]!}${state % 11 === 0 ? '\n' : ' '}`;
    offset += out.write(word, offset, 'latin1');
  }
  return out;
}

async function makeCorpus(root: string, label: string, files: number, totalBytes: number, samples: number): Promise<Corpus> {
  const dir = path.join(root, label, 'agent');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify({ zotfile: 1, name: label, version: '1.0.0' }));
  writeFileSync(path.join(dir, 'AGENT.md'), '# Bench agent\n');
  const perFile = Math.floor(totalBytes / files);
  for (let i = 0; i < files; i++) {
    const sub = path.join(dir, 'assets', `d${i % 50}`);
    mkdirSync(sub, { recursive: true });
    // Sizes vary around the mean so padding and small-file costs both show.
    const size = Math.max(1, Math.floor(perFile * (0.5 + ((i * 37) % 100) / 100)));
    writeFileSync(path.join(sub, `f${i}.txt`), makeContent(i + 1, size));
  }
  const zot = path.join(root, label, `${label}.zot`);
  const packed = await packAgent(dir, zot, { cwd: root });
  return { label, dir, zot, tarBytes: packed.tarSize, samples };
}

/**
 * The memory floor of a load: fresh buffers of the decoder's chunk size holding as many
 * bytes as the image keeps, each byte written once. A load can be no faster than this.
 */
function pageInFreshBytes(total: number): Buffer[] {
  const chunk = 4 * 1024 * 1024;
  const kept: Buffer[] = [];
  for (let left = total; left > 0; left -= chunk) kept.push(Buffer.allocUnsafe(Math.min(chunk, left)).fill(1));
  return kept;
}

function shell(command: string): void {
  const result = spawnSync('sh', ['-c', command], { stdio: ['ignore', 'ignore', 'pipe'] });
  if (result.status !== 0) throw new Error(`baseline command failed: ${command}: ${result.stderr.toString()}`);
}

function row(task: string, corpus: Corpus, pair: PairResult): string[] {
  const { a: ours, b: baseline } = pair;
  const oursMBs = throughputMBs(corpus.tarBytes, ours.medianMs);
  const baseMBs = throughputMBs(corpus.tarBytes, baseline.medianMs);
  return [
    corpus.label,
    task,
    `${ours.medianMs.toFixed(2)} ms (p99 ${ours.p99Ms.toFixed(2)})`,
    `${oursMBs.toFixed(0)} MB/s`,
    `${baseline.medianMs.toFixed(2)} ms`,
    `${baseMBs.toFixed(0)} MB/s`,
    `${pair.speedup.toFixed(2)}x`,
  ];
}

export async function runArchiveBench(): Promise<void> {
  const root = mkdtempSync(path.join(tmpdir(), 'zb-bench-archive-'));
  try {
    const corpora = [await makeCorpus(root, 'typical', 50, 300 * 1024, 200), await makeCorpus(root, 'large', 5000, 200 * 1024 * 1024, 9)];
    const rows: string[][] = [];
    for (const corpus of corpora) {
      const opts = { samples: corpus.samples, warmup: corpus.samples > 10 ? 20 : 1 };
      const load = await measurePair({ name: 'load', fn: () => loadImageFromFile(corpus.zot) }, { name: 'zstd -dc', fn: () => shell(`zstd -dc "${corpus.zot}" > /dev/null`) }, opts);
      rows.push(row('(a) load image  vs zstd -dc >/dev/null', corpus, load));
      if (corpus.label === 'large') {
        // A long-lived host keeps one decompression worker instead of starting one per load.
        const worker = new ZstdDecompressionWorker();
        try {
          const warm = await measurePair(
            { name: 'load (reused worker)', fn: () => loadImageFromFile(corpus.zot, { decompressionWorker: worker }) },
            { name: 'zstd -dc', fn: () => shell(`zstd -dc "${corpus.zot}" > /dev/null`) },
            opts,
          );
          rows.push(row('(a) load, reused worker vs zstd -dc', corpus, warm));
        } finally {
          await worker.close();
        }
        const floor = await measurePair({ name: 'page in', fn: () => pageInFreshBytes(corpus.tarBytes) }, { name: 'zstd -dc', fn: () => shell(`zstd -dc "${corpus.zot}" > /dev/null`) }, opts);
        rows.push(row('(a) floor: page in the bytes vs zstd -dc', corpus, floor));
      }

      let n = 0;
      const unpackRoot = path.join(root, corpus.label, 'unpacked');
      mkdirSync(unpackRoot);
      const unpack = await measurePair(
        { name: 'unpack', fn: () => unpackArchiveFile(corpus.zot, path.join(unpackRoot, `z${n++}`)) },
        {
          name: 'zstd|tar',
          fn: () => {
            const target = path.join(unpackRoot, `t${n++}`);
            mkdirSync(target);
            shell(`zstd -dc "${corpus.zot}" | tar -x -C "${target}"`);
          },
        },
        { ...opts, samples: Math.min(opts.samples, 30) },
      );
      rmSync(unpackRoot, { recursive: true, force: true });
      rows.push(row('(b) unpack      vs zstd -dc | tar -x', corpus, unpack));

      const tarDigestCommand = () => shell(`tar --sort=name -cf - -C "${corpus.dir}" . | sha256sum`);
      const digest = await measurePair({ name: 'digest', fn: async () => digestSourceTree(await walkSourceTree(corpus.dir)) }, { name: 'tar|sha256sum', fn: tarDigestCommand }, opts);
      rows.push(row('(c) dir digest  vs tar --sort=name | sha256sum', corpus, digest));
      const out = path.join(root, corpus.label, 'repack.zot');
      const pack = await measurePair({ name: 'pack', fn: () => packAgent(corpus.dir, out, { cwd: root }) }, { name: 'tar|sha256sum', fn: tarDigestCommand }, opts);
      rows.push(row('(c) pack        vs tar --sort=name | sha256sum', corpus, pack));
      if (corpus.label === 'typical') {
        process.stdout.write(`typical agent load, in-process median: ${load.a.medianMs.toFixed(2)} ms (target < 3 ms), p99 ${load.a.p99Ms.toFixed(2)} ms\n`);
      }
    }
    process.stdout.write(`\n${corpora.map((c) => `${c.label}: ${c.tarBytes} tar bytes`).join(', ')}\n`);
    process.stdout.write(formatTable(['corpus', 'task', 'zotbox median', 'zotbox', 'baseline median', 'baseline', 'ratio'], rows));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
