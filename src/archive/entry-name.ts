// Pure checks on archive entry names (no I/O). An entry name is judged on its
// effective value — after the USTAR prefix, a GNU long name or a PAX path were
// applied — and is rejected, never rewritten, when unsafe (spec Part A,
// Extraction). The only normalisation is dropping a leading "./". Git metadata
// names live here too, so the archive layer and policy (which re-exports them)
// share one implementation.

/** Longest accepted entry name in UTF-8 bytes (PATH_MAX on Linux). */
export const MAX_ENTRY_NAME_BYTES = 4096;
/** Longest accepted path component in UTF-8 bytes (NAME_MAX on common filesystems). */
export const MAX_COMPONENT_BYTES = 255;

export type EntryNameCheck =
  | { readonly ok: true; readonly skip: false; readonly name: string; readonly isDirectory: boolean }
  | { readonly ok: true; readonly skip: true }
  | { readonly ok: false; readonly reason: string };

// C0 controls, DEL and C1 controls: never part of a file name we accept.
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Checks one effective entry name. A trailing "/" marks a directory. Returns the
 * normalised name (leading "./" removed, trailing "/" removed) or a reason.
 * Bare "." and "./" entries are skipped, as GNU tar writes them for `-C dir .`.
 */
export function checkEntryName(raw: string): EntryNameCheck {
  if (raw.length === 0) return { ok: false, reason: 'the entry name is empty' };
  if (raw.includes('\u0000')) return { ok: false, reason: 'the entry name contains a NUL byte' };
  if (CONTROL_CHARACTER.test(raw)) return { ok: false, reason: 'the entry name contains a control character' };
  if (raw.includes('\ufffd')) {
    return { ok: false, reason: 'the entry name is not valid UTF-8 (or contains U+FFFD), so it cannot be represented exactly' };
  }
  if (raw.includes('\\')) return { ok: false, reason: 'the entry name contains a backslash' };
  if (raw.startsWith('/')) return { ok: false, reason: 'the entry name is an absolute path' };

  let name = raw;
  while (name.startsWith('./')) name = name.slice(2);
  if (name === '' || name === '.') return { ok: true, skip: true };

  const isDirectory = name.endsWith('/');
  if (isDirectory) name = name.slice(0, -1);
  if (Buffer.byteLength(name, 'utf8') > MAX_ENTRY_NAME_BYTES) {
    return { ok: false, reason: `the entry name is longer than ${MAX_ENTRY_NAME_BYTES} bytes` };
  }
  for (const component of name.split('/')) {
    if (component === '') return { ok: false, reason: 'the entry name has an empty path component ("//" or a trailing "//")' };
    if (component === '.') return { ok: false, reason: 'the entry name has a "." component' };
    if (component === '..') return { ok: false, reason: 'the entry name has a ".." component (path traversal)' };
    if (Buffer.byteLength(component, 'utf8') > MAX_COMPONENT_BYTES) {
      return { ok: false, reason: `a component of the entry name is longer than ${MAX_COMPONENT_BYTES} bytes` };
    }
  }
  return { ok: true, skip: false, name, isDirectory };
}

/** Code points HFS+ ignores when comparing names, as git strips them (utf8.c, is_hfs_dotgit). */
const HFS_IGNORABLE = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/gu;

/**
 * True when one path component names a git directory or gitfile on some volume:
 * ".git" in any case, with HFS-ignorable code points inside, with trailing dots or
 * spaces, an NTFS stream suffix (".git::$INDEX_ALLOCATION") or a backslash (a
 * separator on Windows volumes, as git's is_xplatform_dir_sep), or an 8.3 short
 * alias "git~N" (git itself checks only "git~1"; after a collision Windows hands
 * out "git~2" and on, so every N is matched: refusing too much is the safe side).
 * Git finds a repository through any such entry, and git's own verify_path refuses
 * the same aliases (is_hfs_dotgit, is_ntfs_dotgit).
 */
export function isGitDirectoryName(component: string): boolean {
  // Every alias holds a "g" (the hot path: most names do not, and skip the folding).
  if (!component.includes('g') && !component.includes('G')) return false;
  const folded = component.replace(HFS_IGNORABLE, '').toLowerCase();
  return /^(?:\.git|git~[0-9]+)[ .]*(?:[:\\].*)?$/su.test(folded);
}

/**
 * The first "/"-separated component of a relative entry name that names git
 * metadata (see isGitDirectoryName), or undefined. Zotfiles never carry git
 * metadata: git run in an unpacked agent would obey the hooks, fsmonitor and
 * filters it names (issue 9).
 */
export function findGitMetadataComponent(name: string): string | undefined {
  return name.split('/').find((component) => isGitDirectoryName(component));
}

/** Compares two strings by their UTF-8 bytes, the canonical tar order (spec B §3.2). */
export function compareUtf8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
