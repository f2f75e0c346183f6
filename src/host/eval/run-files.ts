// The files a run changed, as the report keeps them for the HTML report (issue 27 §4,
// "the files changed with diffs"): each changed file with a unified diff of its text
// in the fixture against its text after the run, made at case end while both are
// there. Bounded (docs/eval.md, Report bounds): at most MAX_REPORTED_FILES files, a
// diff of at most MAX_FILE_DIFF_CHARS each and MAX_RUN_DIFF_CHARS for the run; what
// is past a bound is said, never silently left out. A binary, too large or unreadable
// file gets no diff, and says why.
import type { CaseWorkspace } from './case-workspace.js';
import type { ReportedFile } from './eval-report.js';
import { unifiedDiff } from './file-diff.js';
import type { ChangedFile } from './grader-input.js';

/** Files listed per run, at most; past it the list says how many more there were. */
export const MAX_REPORTED_FILES = 100;
/** Characters of one file's diff, at most (then cut with a marker). */
export const MAX_FILE_DIFF_CHARS = 16 * 1024;
/** Characters of all of one run's diffs; past it, further files are listed without a diff (omitted: budget). */
export const MAX_RUN_DIFF_CHARS = 64 * 1024;
/** Bytes of a fixture file read for its before-text (the change walk's own content bound). */
const MAX_BEFORE_BYTES = 256 * 1024;

export interface ReportedFiles {
  readonly files: ReportedFile[];
  /** Files the run changed that are not listed (past MAX_REPORTED_FILES, or the change walk's own bound). */
  readonly files_cut?: string;
}

export function reportFiles(workspace: Pick<CaseWorkspace, 'changedFiles' | 'fixtureText'>, scrub: (text: string) => string): ReportedFiles {
  const changes = workspace.changedFiles();
  let budget = MAX_RUN_DIFF_CHARS;
  const files: ReportedFile[] = [];
  for (const file of changes.files.slice(0, MAX_REPORTED_FILES)) {
    const reported = reportFile(file, workspace, budget, scrub);
    budget -= reported.diff?.length ?? 0;
    files.push(reported);
  }
  const more = changes.files.length - files.length;
  const cuts = [...(more > 0 ? [`${more} more files past the ${MAX_REPORTED_FILES} listed`] : []), ...(changes.truncated ? ['the change walk reached its bound: added files may be missing'] : [])];
  return cuts.length === 0 ? { files } : { files, files_cut: cuts.join('; ') };
}

function reportFile(file: ChangedFile, workspace: Pick<CaseWorkspace, 'fixtureText'>, budget: number, scrub: (text: string) => string): ReportedFile {
  const head = { path: scrub(file.path), change: file.change, size: file.size };
  if (file.change === 'deleted') {
    const before = workspace.fixtureText(file.path, MAX_BEFORE_BYTES);
    return 'text' in before ? withDiff(head, before.text, '', budget, scrub) : { ...head, omitted: 'before_unreadable' };
  }
  if (file.content === null) return { ...head, omitted: file.omitted === 'not_a_regular_file' ? 'not_a_regular_file' : (file.omitted ?? 'binary') };
  if (file.change === 'added') return withDiff(head, '', file.content, budget, scrub);
  const before = workspace.fixtureText(file.path, MAX_BEFORE_BYTES);
  return 'text' in before ? withDiff(head, before.text, file.content, budget, scrub) : { ...head, omitted: 'before_unreadable' };
}

function withDiff(head: Pick<ReportedFile, 'path' | 'change' | 'size'>, before: string, after: string, budget: number, scrub: (text: string) => string): ReportedFile {
  if (budget <= 0) return { ...head, omitted: 'budget' };
  const diff = unifiedDiff(before, after, Math.min(MAX_FILE_DIFF_CHARS, budget));
  return { ...head, diff: scrub(diff.text), ...(diff.cut ? { diff_cut: true } : {}) };
}
