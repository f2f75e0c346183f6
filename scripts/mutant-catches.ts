// Which tests caught a mutant, read from ava's TAP output, and the ava arguments that run only those tests again
// without the patch (scripts/mutants.ts checks them once, after every mutant: a test that fails there too caught
// nothing). Pure: reads no files, runs nothing.

/** One test: its compiled file (dist/test/….test.js, as the mutant's tests line names it) and its title. */
export interface TestId {
  readonly file: string;
  readonly title: string;
}

/** What one ava run's TAP output says: the tests that passed and failed, and whether a failure names no test of ours. */
export interface TapResults {
  readonly passed: TestId[];
  readonly failed: TestId[];
  /** A failure not of one test of these files (a file that crashed, a hook, a timeout): its file must be run whole. */
  readonly unattributed: boolean;
}

/** ava's title separator between a file's folders, its name and the test's title. */
const SEPARATOR = ' › ';

/** The prefix ava puts before each title of `file` when it runs `files` (none for a single file). */
export function titlePrefix(files: readonly string[], file: string): string {
  if (files.length < 2) return '';
  // ava's base: the longest common leading part of the paths, up to a "/".
  let base = files[0]!;
  for (const other of files) while (!other.startsWith(base)) base = base.slice(0, base.lastIndexOf('/', base.length - 2) + 1);
  const parts = file.slice(base.length).split('/');
  const name = parts.pop()!.replace(/\.test\.js$/u, '');
  return [...parts, name].join(SEPARATOR) + SEPARATOR;
}

/** The tests a TAP report of running `files` names as passed and failed. */
export function tapResults(output: string, files: readonly string[]): TapResults {
  const passed: TestId[] = [];
  const failed: TestId[] = [];
  let unattributed = false;
  // The longest prefix first: a folder's name may begin another's.
  const prefixes = files.map((file) => ({ file, prefix: titlePrefix(files, file) })).sort((a, b) => b.prefix.length - a.prefix.length);
  for (const line of output.replace(/\u001b\[[0-9;]*m/gu, '').split('\n')) {
    const result = /^(ok|not ok) \d+ - (.*?)(?: # (?:SKIP|TODO))?$/u.exec(line);
    if (result === null) continue;
    const name = result[2]!;
    const owner = prefixes.find(({ prefix }) => name.startsWith(prefix));
    const id = owner === undefined ? undefined : { file: owner.file, title: name.slice(owner.prefix.length) };
    if (result[1] === 'ok') {
      if (id !== undefined) passed.push(id);
    } else if (id === undefined || /^(?:before|after|beforeEach|afterEach)(?:\.always)? hook(?: |$)/u.test(id.title)) unattributed = true;
    else failed.push(id);
  }
  return { passed, failed, unattributed };
}

/**
 * ava's `--match` for one title: itself, with a leading "!" (which would negate) made a wildcard. A "*" in a title is a
 * wildcard that matches itself too: a pattern may run more tests than the one, never fewer.
 */
export function matchPattern(title: string): string {
  return title.startsWith('!') ? `*${title.slice(1)}` : title;
}

/** A key for a test in sets. */
export function testKey(id: TestId): string {
  return `${id.file}\u0000${id.title}`;
}
