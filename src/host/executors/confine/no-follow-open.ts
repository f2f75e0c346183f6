// Opens a canonical path one component at a time without following any symlink
// (issue 9 §2: never mount what a link points at). Node has no openat(2), so each
// step opens "<parent fd's /proc/self/fd link>/<name>" with O_PATH|O_NOFOLLOW:
// the kernel resolves the magic link to the already-opened directory and then
// looks up exactly one name in it. The descriptor is what bubblewrap binds
// (--bind-fd), so a link swapped in after the walk changes nothing.
import { closeSync, constants, fstatSync, openSync } from 'node:fs';
import { ZotboxError } from '../../../errors.js';

/** O_PATH is Linux's; Node does not export it (asm-generic value, the same on x86_64 and arm64). */
const O_PATH = 0o10000000;

export type OpenedPath = { readonly fd: number; readonly kind: 'directory' | 'file' } | { readonly missing: true };

function unsafe(path: string, why: string): ZotboxError {
  return new ZotboxError(
    'ZB_CONFINEMENT_BIND_UNSAFE',
    `command refused: ${path} cannot be mounted into the sandbox safely: ${why}. Remove the link or the odd entry, or declare the scope by its real path.`,
    { details: { path } },
  );
}

/**
 * Opens `canonical` (absolute, normalized) for binding. Every component must be
 * a real directory, and the last a directory or a regular file. A missing
 * component gives { missing: true }; a symlink or any other kind is refused.
 */
export function openPathWithoutLinks(canonical: string): OpenedPath {
  const names = canonical.split('/').filter((name) => name !== '');
  let fd = openSync('/', O_PATH | constants.O_DIRECTORY);
  try {
    for (const [index, name] of names.entries()) {
      if (name === '.' || name === '..') throw unsafe(canonical, 'it is not a canonical path');
      let next: number;
      try {
        next = openSync(`/proc/self/fd/${fd}/${name}`, O_PATH | constants.O_NOFOLLOW);
      } catch (cause) {
        if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return { missing: true };
        throw unsafe(canonical, `opening ${name} failed (${(cause as NodeJS.ErrnoException).code ?? String(cause)})`);
      }
      closeSync(fd);
      fd = next;
      const stats = fstatSync(fd);
      const last = index === names.length - 1;
      if (stats.isSymbolicLink()) throw unsafe(canonical, `${names.slice(0, index + 1).join('/')} is a symlink`);
      if (!stats.isDirectory() && !(last && stats.isFile())) throw unsafe(canonical, `${names.slice(0, index + 1).join('/')} is not a ${last ? 'directory or regular file' : 'directory'}`);
    }
    const kind = fstatSync(fd).isDirectory() ? 'directory' : 'file';
    const opened = { fd, kind } as const;
    fd = -1; // handed to the caller
    return opened;
  } finally {
    if (fd !== -1) closeSync(fd);
  }
}
