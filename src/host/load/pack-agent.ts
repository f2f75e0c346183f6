// `zotbox pack`: validates a source directory and writes its canonical .zot.
// The archive is streamed (the tree is never held in memory) into a temporary
// file beside the output, fsynced, and renamed into place only on success; on
// any failure or abort the temporary file is removed. The output and the
// temporary file are excluded from the walk by canonical path (spec Part A).
import { randomBytes, createHash } from 'node:crypto';
import { lstat, open, readFile, realpath, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { ArchiveLimits, Digest } from '../../archive/index.js';
// From the archive's own files, not archive/index.js, which would load the zstd binding for every user of the agents API.
import { formatDigest } from '../../archive/digest.js';
import { DEFAULT_LIMITS } from '../../archive/limits.js';
import { walkSourceTree } from '../../archive/source-tree.js';
import { canonicalTarParts } from '../../archive/tar-pack.js';
import { ZotboxError, fileSystemError } from '../../errors.js';
import { readAgentManifest, validateAgentLayout, type AgentIdentity } from './agent-layout.js';

export interface PackOptions {
  /** Directory relative paths are resolved against, and where the default output goes. */
  readonly cwd: string;
  readonly signal?: AbortSignal;
  readonly limits?: ArchiveLimits;
}

export interface PackResult {
  readonly output: string;
  readonly identity: AgentIdentity;
  readonly artifactDigest: Digest;
  readonly contentDigest: Digest;
  readonly artifactSize: number;
  readonly tarSize: number;
  readonly entries: number;
}

/** Compress in batches: many 512-byte headers make one call each otherwise. */
const COMPRESS_BATCH = 256 * 1024;

/** The output path rule of spec B §3.8: ".zot" is appended unless the name ends in exactly ".zot". */
export function packOutputPath(cwd: string, output: string | undefined, agentName: string): string {
  const chosen = output ?? `${agentName}.zot`;
  return path.resolve(cwd, chosen.endsWith('.zot') ? chosen : `${chosen}.zot`);
}

/**
 * The directory to pack must exist and be a directory: each other case says what is
 * wrong with the path given, not that a manifest is missing (issue 13).
 */
async function requireDirectory(root: string): Promise<void> {
  const stats = await stat(root).catch((cause: unknown) => {
    if ((cause as NodeJS.ErrnoException).code !== 'ENOENT') throw fileSystemError('pack', root, cause);
    throw new ZotboxError(
      'ZB_LOAD_NOT_FOUND',
      `cannot pack ${root}: nothing exists there. Fix: pass the agent's directory (the one with manifest.json at its root), or create an agent there with 'zotbox init ${root}'.`,
      { details: { path: root } },
    );
  });
  if (!stats.isDirectory()) {
    throw new ZotboxError(
      'ZB_IO_FAILED',
      `cannot pack ${root}: it is ${stats.isFile() ? 'a file' : 'a special file'}, not a directory. Fix: pass the agent's directory (the one with manifest.json at its root); a .zot file is packed already ('zotbox verify' checks one).`,
      { details: { path: root, errno: 'ENOTDIR' } },
    );
  }
}

async function readManifestBytes(root: string): Promise<Buffer> {
  const manifestPath = path.join(root, 'manifest.json');
  const stats = await lstat(manifestPath).catch(() => undefined);
  if (stats === undefined || !stats.isFile()) {
    throw new ZotboxError(
      'ZB_LAYOUT_MANIFEST_MISSING',
      stats?.isSymbolicLink()
        ? `${manifestPath} is a symlink; zotfiles may contain only regular files. Replace it with the file itself.`
        : `${root} has no manifest.json at its root. Add one ({"zotfile": 1, "name": "my-agent"} at least).`,
      { details: { path: manifestPath } },
    );
  }
  return readFile(manifestPath);
}

/** The canonical path a not-yet-existing file will have: its parent resolved, its name kept. */
async function canonicalFuturePath(file: string): Promise<string> {
  const parent = await realpath(path.dirname(file)).catch((cause: unknown) => {
    throw fileSystemError('write into the directory', path.dirname(file), cause);
  });
  return path.join(parent, path.basename(file));
}

export async function packAgent(directory: string | undefined, output: string | undefined, options: PackOptions): Promise<PackResult> {
  const limits = options.limits ?? DEFAULT_LIMITS;
  const root = path.resolve(options.cwd, directory ?? '.');
  await requireDirectory(root);
  const manifestBytes = await readManifestBytes(root);
  const { identity } = readAgentManifest(manifestBytes);
  const outputPath = packOutputPath(options.cwd, output, identity.name);
  const canonicalOutput = await canonicalFuturePath(outputPath);
  const tempPath = path.join(path.dirname(canonicalOutput), `.${path.basename(canonicalOutput)}.${randomBytes(6).toString('hex')}.tmp`);

  const tree = await walkSourceTree(root, { exclude: new Set([canonicalOutput, tempPath]), limits });
  validateAgentLayout({
    entries: tree.entries.map((e) => ({ name: e.relativePath, type: e.type })),
    readFile: (name) => (name === 'manifest.json' ? manifestBytes : undefined),
  });

  const handle = await open(tempPath, 'wx', 0o644).catch((cause: unknown) => {
    throw fileSystemError('create a file in', path.dirname(tempPath), cause);
  });
  const tarHash = createHash('sha256');
  const artifactHash = createHash('sha256');
  let tarSize = 0;
  let artifactSize = 0;
  let committed = false;
  try {
    // The zstd binding (a native module) is loaded only when packing, not by every user of the agents API.
    const { ZstdEncoder } = await import('../../archive/zstd-stream.js');
    const encoder = new ZstdEncoder();
    const write = async (chunks: Buffer[]) => {
      for (const chunk of chunks) {
        artifactSize += chunk.length;
        if (artifactSize > limits.maxCompressedBytes) {
          throw new ZotboxError(
            'ZB_ARCHIVE_LIMIT_EXCEEDED',
            `the packed archive would be larger than ${limits.maxCompressedBytes} bytes, which zotbox refuses to load. Remove what the agent does not need.`,
            { details: { limit: 'compressed', max: limits.maxCompressedBytes } },
          );
        }
        artifactHash.update(chunk);
        await handle.write(chunk);
      }
    };
    let batch: Buffer[] = [];
    let batchSize = 0;
    for await (const part of canonicalTarParts(tree)) {
      if (options.signal?.aborted) throw new ZotboxError('ZB_ARCHIVE_INTERRUPTED', 'packing was cancelled; no archive was written.');
      tarHash.update(part.bytes);
      tarSize += part.bytes.length;
      batch.push(part.bytes);
      batchSize += part.bytes.length;
      if (batchSize >= COMPRESS_BATCH) {
        await write(encoder.push(batch.length === 1 ? batch[0]! : Buffer.concat(batch)));
        batch = [];
        batchSize = 0;
      }
    }
    if (batchSize > 0) await write(encoder.push(Buffer.concat(batch)));
    await write(encoder.end());
    await handle.sync();
    await handle.close();
    await rename(tempPath, canonicalOutput);
    committed = true;
    await syncDirectory(path.dirname(canonicalOutput));
  } catch (cause) {
    // Archive and limit errors pass through; a failing write, fsync or rename names the output.
    throw fileSystemError('write', outputPath, cause);
  } finally {
    if (!committed) {
      await handle.close().catch(() => undefined); // already closed on the success path's late failures
      await unlink(tempPath).catch(() => undefined); // nothing to remove if creation or rename already moved it
    }
  }
  return {
    output: outputPath,
    identity,
    artifactDigest: formatDigest(artifactHash),
    contentDigest: formatDigest(tarHash),
    artifactSize,
    tarSize,
    entries: tree.entries.length,
  };
}

/** Makes a rename durable. Some filesystems refuse fsync on directories; the rename itself already happened. */
async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r').catch(() => undefined);
  if (handle === undefined) return;
  try {
    await handle.sync().catch(() => undefined); // EINVAL on filesystems without directory fsync: nothing more to do
  } finally {
    await handle.close();
  }
}
