// Words no file can be named: the readers take every word of a program as a possible path, and a long literal (the
// base64 wasm in Yarn's .pnp.cjs) fails its lstat with ENAMETOOLONG. Such a word names nothing, now or later, and is
// no reason to refuse. Exact on both sides: a deep path whose components all fit may exist (made a directory at a
// time), so its ENAMETOOLONG still refuses; a long name the file system takes (FUSE allows more) is looked up as any.
import { Buffer } from 'node:buffer';
import { lstatSync } from 'node:fs';

/** The longest file name (one path component) Linux file systems take, in bytes: NAME_MAX. */
export const NAME_MAX = 255;

/** Whether some component of `p` is longer than NAME_MAX, in the UTF-8 bytes the kernel is given: a string check. */
export function hasOverlongComponent(p: string): boolean {
  return p.split('/').some((component) => Buffer.byteLength(component, 'utf8') > NAME_MAX);
}

/** Whether `p` names no file for its length: a component is over NAME_MAX, and the kernel refuses it (ENAMETOOLONG). */
export function namesNoFile(p: string): boolean {
  if (!hasOverlongComponent(p)) return false; // every component fits: a deep path may exist, whatever the kernel says
  try {
    lstatSync(p);
    return false; // a file system that takes longer names (FUSE): looked up as any name
  } catch (error) {
    // Any other failure (ENOENT below a missing directory, ELOOP, EACCES) is the callers' to read as they do.
    return (error as NodeJS.ErrnoException).code === 'ENAMETOOLONG';
  }
}
