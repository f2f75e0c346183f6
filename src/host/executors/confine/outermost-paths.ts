// The outermost of a set of canonical paths, none inside another: what a recorder must walk once. A protected set can
// hold hundreds of paths (every standard-library name at a `python -m` working directory), so this looks each path's
// ancestors up in a set instead of comparing every pair.

/** The paths none of the others is an ancestor of (isInsideRoot's sense: `/` holds all), shortest first. */
export function outermostPaths(paths: Iterable<string>): string[] {
  const byLength = [...new Set(paths)].sort((a, b) => a.length - b.length);
  const kept = new Set<string>();
  return byLength.filter((candidate) => {
    if (kept.has('/')) return false;
    // Each prefix that ends just before a `/` of the path is an ancestor in isInsideRoot's sense.
    for (let slash = candidate.indexOf('/', 1); slash !== -1; slash = candidate.indexOf('/', slash + 1)) if (kept.has(candidate.slice(0, slash))) return false;
    kept.add(candidate);
    return true;
  });
}
