// In which order a mutant's test files run: the ones that start no sandbox, repository or CLI first. Most mutants are
// caught by a unit test file in a few seconds; the end-to-end files (test/e2e/, the adversarial reviews', which build
// workspaces and run real bubblewrap) then need not run at all. A mutant no quick file catches runs the rest.

/** Whether a compiled test file is end to end: under dist/test/e2e/ or an adversarial review's folder. */
export function isEndToEnd(file: string): boolean {
  return /(?:^|\/)dist\/test\/(?:e2e|adversarial[^/]*)\//u.test(file);
}

/** The test files in the stages they run in: the quick ones, then the end-to-end ones; no empty stage. */
export function testStages(files: readonly string[]): readonly (readonly string[])[] {
  const quick = files.filter((file) => !isEndToEnd(file));
  const slow = files.filter(isEndToEnd);
  return [quick, slow].filter((stage) => stage.length > 0);
}
