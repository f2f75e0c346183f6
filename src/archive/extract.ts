// Safe extraction to disk, used only by `zotbox unpack`. The archive is first
// loaded into an image (every name, duplicate, collision and limit rule has run
// by then), then written into a fresh 0700 temporary directory beside the
// target: directories are created by us in order, every file is created
// exclusively without following symlinks and given its normalized mode, and
// links, devices and FIFOs are never created. The temporary directory is
// renamed onto the target only on success and removed on any failure or abort.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { chmod, mkdir, open, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
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
    throw new ZotboxError('ZB_ARCHIVE_UNPACK_TARGET', `cannot use ${target}: ${(cause as NodeJS.ErrnoException).code}.`, { cause, details: { path: target } });
  }
  if (!stats.isDirectory() || (await readdir(target)).length > 0) {
    throw new ZotboxError(
      'ZB_ARCHIVE_UNPACK_TARGET',
      `${target} already exists and is not an empty directory. Choose a new directory name, or empty it first.`,
      { details: { path: target } },
    );
  }
  return true;
}

/** Writes every entry of `image` below `root`, which this process just created and owns. */
async function writeImage(image: AgentImage, root: string, signal: AbortSignal | undefined): Promise<void> {
  for (const entry of image.entries) {
    if (signal?.aborted) throw interrupted();
    const target = path.join(root, ...entry.name.split('/'));
    if (entry.type === 'directory') {
      // Parents come first in canonical order, and mkdir never follows a symlink in its last component.
      await mkdir(target, { mode: 0o755 });
      await chmod(target, 0o755);
      continue;
    }
    const handle = await open(target, CREATE_FILE, entry.mode);
    try {
      await handle.writeFile(image.readFile(entry.name)!);
      await handle.chmod(entry.mode); // the umask must not change what the archive's digest describes
    } finally {
      await handle.close();
    }
  }
}

/** Extracts a .zot file into `target` (created; or an existing empty directory). */
export async function unpackArchiveFile(file: string, target: string, options: LoadOptions = {}): Promise<UnpackResult> {
  const absoluteTarget = path.resolve(target);
  const targetExists = await checkTarget(absoluteTarget);
  const image = await loadImageFromFile(file, options);

  const parent = path.dirname(absoluteTarget);
  const staging = path.join(parent, `.${path.basename(absoluteTarget)}.${randomBytes(6).toString('hex')}.unpack`);
  try {
    await mkdir(staging, { mode: 0o700 });
  } catch (cause) {
    throw new ZotboxError('ZB_ARCHIVE_UNPACK_TARGET', `cannot create a working directory in ${parent}: ${(cause as NodeJS.ErrnoException).code}. Check that it exists and you may write to it.`, {
      cause,
      details: { path: parent },
    });
  }
  let committed = false;
  try {
    await writeImage(image, staging, options.signal);
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
