// Safe extraction to disk, used only by `zotbox unpack`. The archive is first
// loaded into an image (every name, duplicate, collision and limit rule has run
// by then), then written into a fresh 0700 temporary directory beside the
// target: directories are created by us in order, every file is created
// exclusively without following symlinks and given its normalized mode, and
// links, devices and FIFOs are never created. The temporary directory is
// renamed onto the target only on success and removed on any failure or abort.
import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, constants, fchmodSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { chmod, mkdir, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { ZotboxError } from '../errors.js';
import type { AgentImage } from './agent-image.js';
import { loadImageFromFile, type LoadOptions } from './load-image.js';

export interface UnpackResult {
  readonly target: string;
  readonly image: AgentImage;
  readonly files: number;
  readonly directories: number;
}

const CREATE_FILE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

function interrupted(): ZotboxError {
  return new ZotboxError('ZB_ARCHIVE_INTERRUPTED', 'unpacking was cancelled; nothing was left behind.');
}

/** The target must not exist, or must be an empty directory. Returns whether it exists. */
async function checkTarget(target: string): Promise<boolean> {
  let stats;
  try {
    stats = await stat(target);
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw new ZotboxError('ZB_ARCHIVE_UNPACK_TARGET', `cannot use ${target}: ${(cause as NodeJS.ErrnoException).code ?? String(cause)}.`, { cause, details: { path: target } });
  }
  if (!stats.isDirectory() || (await readdir(target)).length > 0) {
    throw new ZotboxError('ZB_ARCHIVE_UNPACK_TARGET', `${target} already exists and is not an empty directory. Choose a new directory name, or empty it first.`, { details: { path: target } });
  }
  return true;
}

/** In private staging, an existing name can only come from the archive itself: a file/directory collision. */
function collisionsAreDuplicates<T>(name: string, create: () => T): T {
  try {
    return create();
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST' && code !== 'ENOTDIR') throw cause;
    throw new ZotboxError('ZB_ARCHIVE_ENTRY_DUPLICATE', `the archive has "${name}" both as a file and as a directory. Re-create it with 'zotbox pack'.`, {
      cause,
      details: { entry: name },
    });
  }
}

/**
 * Writes entries below `root`, a directory this process just created with mode
 * 0700 (no one else can create anything inside it). Directories are created by
 * this writer only, parents first; files are created exclusively without
 * following symlinks, and get their normalized mode whatever the umask.
 */
class StagingWriter {
  private readonly created = new Set<string>(['']);

  constructor(private readonly root: string) {}

  directory(name: string): void {
    if (this.created.has(name)) return;
    const slash = name.lastIndexOf('/');
    if (slash > 0) this.directory(name.slice(0, slash));
    const target = path.join(this.root, name);
    collisionsAreDuplicates(name, () => mkdirSync(target, { mode: 0o755 })); // never follows a symlink in its last component
    chmodSync(target, 0o755);
    this.created.add(name);
  }

  file(name: string, bytes: Uint8Array, mode: 0o644 | 0o755): void {
    const slash = name.lastIndexOf('/');
    if (slash > 0) this.directory(name.slice(0, slash));
    const fd = collisionsAreDuplicates(name, () => openSync(path.join(this.root, name), CREATE_FILE, mode));
    try {
      let written = 0;
      while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
      fchmodSync(fd, mode); // the umask must not change what the archive's digest describes
    } finally {
      closeSync(fd);
    }
  }
}

/**
 * A directory given as the archive is an agent's source, which unpack has no use
 * for: say that, and how to get a .zot from it (issue 13). Anything else that is
 * not a readable file is reported when the archive is read.
 */
async function refuseDirectoryArchive(file: string): Promise<void> {
  const stats = await stat(file).catch(() => undefined);
  if (stats?.isDirectory() !== true) return;
  throw new ZotboxError(
    'ZB_IO_FAILED',
    `cannot unpack ${file}: it is a directory, not a .zot file; unpack extracts an archive. Fix: pass a .zot file (to make one from this directory: zotbox pack ${file}; to look inside it: zotbox inspect ${file}).`,
    { details: { path: file, errno: 'EISDIR' } },
  );
}

/** Extracts a .zot file into `target` (created; or an existing empty directory). */
export async function unpackArchiveFile(file: string, target: string, options: LoadOptions = {}): Promise<UnpackResult> {
  await refuseDirectoryArchive(file);
  const absoluteTarget = path.resolve(target);
  const targetExists = await checkTarget(absoluteTarget);
  const parent = path.dirname(absoluteTarget);
  const staging = path.join(parent, `.${path.basename(absoluteTarget)}.${randomBytes(6).toString('hex')}.unpack`);
  try {
    await mkdir(staging, { mode: 0o700 });
  } catch (cause) {
    throw new ZotboxError(
      'ZB_ARCHIVE_UNPACK_TARGET',
      `cannot create a working directory in ${parent}: ${(cause as NodeJS.ErrnoException).code ?? String(cause)}. Check that it exists and you may write to it.`,
      {
        cause,
        details: { path: parent },
      },
    );
  }
  let committed = false;
  let image: AgentImage;
  try {
    // Files are written as they stream in, overlapping decompression and disk writes. That is
    // safe because staging is private and is removed unless every check below passes.
    const writer = new StagingWriter(staging);
    image = await loadImageFromFile(file, {
      ...options,
      onEntryStreamed: (entry, bytes) => (entry.type === 'directory' ? writer.directory(entry.name) : writer.file(entry.name, bytes!, entry.mode)),
    });
    // Directories the archive only implied (no entry of their own) exist already; empty ones may not.
    for (const entry of image.entries) if (entry.type === 'directory') writer.directory(entry.name);
    if (options.signal?.aborted) throw interrupted();
    await chmod(staging, 0o755);
    // An empty target directory is replaced; if something appeared in it meanwhile, rmdir fails and we stop.
    if (targetExists) await rmdir(absoluteTarget);
    await rename(staging, absoluteTarget);
    committed = true;
  } catch (cause) {
    if (cause instanceof ZotboxError) throw cause;
    const code = (cause as NodeJS.ErrnoException).code ?? 'error';
    throw new ZotboxError('ZB_ARCHIVE_UNPACK_TARGET', `cannot unpack into ${absoluteTarget}: ${code}. Nothing was left behind.`, {
      cause,
      details: { path: absoluteTarget, errno: code },
    });
  } finally {
    if (!committed) await rm(staging, { recursive: true, force: true });
  }
  const files = image.entries.filter((e) => e.type === 'file').length;
  return { target: absoluteTarget, image, files, directories: image.entries.length - files };
}
