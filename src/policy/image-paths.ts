// The agent's own package, as tools and commands see it (issue 25): each skill's
// folder at /zotbox/skills/<name>/ and the assets at /zotbox/assets/, read-only.
// These paths name the image (the digested bytes the user consented to), never a
// place on the host: they are decided lexically, before anything is resolved on
// disk, so a host directory called /zotbox changes nothing. Pure: the host gives
// the index of what the image holds.
import path from 'node:path';

export const IMAGE_ROOT = '/zotbox';
/** The image's folders that are visible, each at /zotbox/<name>. */
export const IMAGE_TREES: readonly string[] = ['skills', 'assets'];

export interface ImageIndex {
  /** What an image entry is ("skills/pdf/SKILL.md"); "" is /zotbox itself. */
  kindOf(entry: string): 'file' | 'directory' | undefined;
  /** Whether commands see /zotbox: only in the sandbox, which mounts it (never unconfined, never under a scope of "/"). */
  readonly inCommands: boolean;
  /** Why commands do not see it, when they do not. */
  readonly notInCommands?: string;
}

/**
 * The image entry an absolute path names, or undefined. Only a path spelled from /zotbox counts, with ".." that stays
 * inside it resolved lexically (the image holds no links): "/ws/../zotbox" reaches /zotbox only through the host's
 * directories, which the host's resolver decides, as it decides "/zotbox/../etc".
 */
export function imageEntryOf(absolute: string): { readonly virtual: string; readonly entry: string } | undefined {
  const spelled = absolute.replace(/^\/+/u, '/');
  if (spelled !== IMAGE_ROOT && !spelled.startsWith(`${IMAGE_ROOT}/`)) return undefined;
  const virtual = path.posix.normalize(spelled).replace(/(?<=.)\/+$/u, '');
  if (virtual === IMAGE_ROOT) return { virtual, entry: '' };
  if (!virtual.startsWith(`${IMAGE_ROOT}/`)) return undefined;
  return { virtual, entry: virtual.slice(IMAGE_ROOT.length + 1) };
}

/** True for /zotbox and anything below it, as spelled (lexically). */
export function isImagePath(absolute: string): boolean {
  return imageEntryOf(absolute) !== undefined;
}
