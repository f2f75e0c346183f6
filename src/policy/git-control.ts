// Which path names are git metadata (gate-rules §7, issue 9). Pure string checks,
// no I/O. Git finds a repository through any directory entry named ".git" (a
// directory, or a "gitfile" pointing elsewhere) and, on case-insensitive or
// normalising volumes, through its aliases; git's own verify_path refuses the
// same aliases (is_hfs_dotgit, is_ntfs_dotgit). Everything matched here is
// treated as git metadata: agents may not create or write it with the file
// tools, and the sandbox keeps its control files read-only.

/** Code points HFS+ ignores when comparing names, as git strips them (utf8.c, is_hfs_dotgit). */
const HFS_IGNORABLE = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/gu;

/**
 * True when one path component names a git directory or gitfile on some volume:
 * ".git" in any case, with HFS-ignorable code points inside, with trailing dots or
 * spaces, an NTFS stream suffix (".git::$INDEX_ALLOCATION") or a backslash (a
 * separator on Windows volumes, as git's is_xplatform_dir_sep), or an 8.3 short
 * alias "git~N" (git itself checks only "git~1"; after a collision Windows hands
 * out "git~2" and on, so every N is matched: refusing too much is the safe side).
 */
export function isGitDirectoryName(component: string): boolean {
  const folded = component.replace(HFS_IGNORABLE, '').toLowerCase();
  return /^(?:\.git|git~[0-9]+)[ .]*(?:[:\\].*)?$/su.test(folded);
}

/** The entries of a .git directory that make git run programs or redirect it elsewhere (lower case). */
export const GIT_CONTROL_ENTRIES: readonly string[] = ['config', 'config.worktree', 'hooks', 'info', 'commondir', 'modules', 'worktrees'];

/** True when `name` (one component inside a .git directory) is a control entry, compared case-insensitively. */
export function isGitControlEntry(name: string): boolean {
  return GIT_CONTROL_ENTRIES.includes(name.toLowerCase());
}

/**
 * The index of the first component of `absolutePath` that names a git directory
 * or gitfile, or -1. "/w/sub/.GIT/hooks/x" → 3 (components split on "/", the
 * empty root component included).
 */
export function gitMetadataComponent(absolutePath: string): number {
  const components = absolutePath.split('/');
  return components.findIndex((component) => isGitDirectoryName(component));
}

/** True when any component of the path is a .git directory, a gitfile, or one of their aliases. */
export function isInsideGitMetadata(absolutePath: string): boolean {
  return gitMetadataComponent(absolutePath) !== -1;
}
