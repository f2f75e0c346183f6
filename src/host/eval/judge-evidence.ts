// What the judge is shown of a run, built so that the agent cannot push a change
// out of its view (issue 22 §2): the answer's length, and the names and sizes of
// the files it adds, are the agent's choice. Every changed path comes first, by
// name (files that existed before the run first, then new ones), within a bound;
// then the final answer, cut at its own bound; then the changes to the fixture's
// files, each as a diff against its text before the run, then the new files, each
// excerpt bounded, until the evidence bound. Whatever is cut is marked where it is
// and counted, so the judge is told, and a pass on cut evidence is not a pass
// (ZB_EVAL_JUDGE_EVIDENCE_CUT). When the names alone pass their bound, the judge
// is not asked at all: it could not be told what changed.
import { compareUtf8 } from '../../archive/entry-name.js';
import type { ChangedFile } from './grader-input.js';

/** The most characters of evidence the judge is shown, all parts together. */
export const MAX_JUDGED_CHARS = 100_000;
/** The most characters of the list of changed paths; past it the judge is not asked. */
export const MAX_JUDGED_NAMES_CHARS = 20_000;
/** The most characters of the final answer. */
export const MAX_JUDGED_ANSWER_CHARS = 20_000;
/** The most characters of one file's diff or text. */
export const MAX_JUDGED_FILE_CHARS = 10_000;

/** A fixture file's text before the run, or why there is none. */
export type BeforeText = { readonly text: string } | { readonly missing: string };

export interface EvidenceInput {
  readonly finalText: string;
  /** The run's changed files (the change list), in any order. */
  readonly files: readonly ChangedFile[];
  /** The text a fixture file had before the run (read from the fixture, checked against the snapshot). */
  readonly before: (path: string) => BeforeText;
}

export type Evidence =
  /** `cuts`: what was cut, in words, for the verdict's reason; empty when the judge saw everything. */
  | { readonly ok: true; readonly text: string; readonly cuts: readonly string[] }
  /** The list of names alone is past its bound: the judge is not asked. */
  | { readonly ok: false; readonly why: string };

function listed(file: ChangedFile): string {
  const detail = file.omitted === undefined || file.omitted === 'deleted' ? '' : ` (${file.kind ?? file.omitted}, ${file.size} bytes)`;
  return `${file.change} ${file.path}${detail}`;
}

/** At most `most` characters of `text`, and whether it was cut. */
function excerpt(text: string, most: number): { shown: string; cut: boolean } {
  if (text.length <= most) return { shown: text, cut: false };
  return { shown: `${text.slice(0, most)}\n[cut by zotbox: ${most} of ${text.length} characters shown]`, cut: true };
}

/**
 * A diff of `before` to `after` by lines: the lines in common at the start and the
 * end are left out, what lies between is shown removed, then added. Linear in the
 * text, never minimal: the judge sees every changed line, with its line number.
 */
export function lineDiff(before: string, after: string): string {
  const a = before.split('\n');
  const b = after.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const removed = a.slice(start, endA).map((line) => `-${line}`);
  const added = b.slice(start, endB).map((line) => `+${line}`);
  return [`@@ from line ${start + 1}: ${endA - start} lines before, ${endB - start} lines after @@`, ...removed, ...added].join('\n');
}

export function judgeEvidence(input: EvidenceInput): Evidence {
  // Files that existed before the run first (changed or deleted), then new ones; each part in path order.
  const ordered = [...input.files].sort((x, y) => compareUtf8(x.path, y.path));
  const existing = ordered.filter((file) => file.change !== 'added');
  const added = ordered.filter((file) => file.change === 'added');
  const names = [...existing, ...added].map(listed).join('\n');
  if (names.length > MAX_JUDGED_NAMES_CHARS) {
    return {
      ok: false,
      why: `the names of the ${input.files.length} changed files take ${names.length} characters, over the ${MAX_JUDGED_NAMES_CHARS} the judge is shown, so the judge could not be shown what changed and was not asked`,
    };
  }
  const cuts: string[] = [];
  const answer = excerpt(input.finalText, MAX_JUDGED_ANSWER_CHARS);
  if (answer.cut) cuts.push(`the final answer (${MAX_JUDGED_ANSWER_CHARS} of ${input.finalText.length} characters shown)`);
  let room = MAX_JUDGED_CHARS - names.length - answer.shown.length;
  const shownFile = (file: ChangedFile): string => {
    const header = `--- ${listed(file)}`;
    if (room <= header.length) {
      cuts.push(`${file.path} (not shown: the evidence bound of ${MAX_JUDGED_CHARS} characters was reached)`);
      return `${header}\n[not shown by zotbox: the evidence bound was reached]`;
    }
    const body = fileBody(file, input.before, cuts);
    const most = Math.min(MAX_JUDGED_FILE_CHARS, room - header.length - 1);
    const part = excerpt(body, most);
    if (part.cut) cuts.push(`${file.path} (${most} of ${body.length} characters shown)`);
    room -= header.length + 1 + part.shown.length;
    return `${header}\n${part.shown}`;
  };
  const before = existing.map(shownFile).join('\n');
  const after = added.map(shownFile).join('\n');
  const text = [
    `Changed files (${input.files.length}; files that existed before the run first, then new files):\n${names === '' ? '(none)' : names}`,
    `Final answer:\n${answer.shown}`,
    `Changes to files that existed before the run (diffs against their text before the run):\n${before === '' ? '(none)' : before}`,
    `New files:\n${after === '' ? '(none)' : after}`,
  ].join('\n\n');
  return { ok: true, text, cuts };
}

/** A file's part of the evidence: a diff for a modified fixture file, its text for a new one, or what it is. */
function fileBody(file: ChangedFile, before: EvidenceInput['before'], cuts: string[]): string {
  if (file.change === 'deleted') return '(deleted)';
  if (file.content === null) {
    // Whatever the judge is not shown as text is cut: one stray byte that makes a file "binary" must not hide a change.
    if (file.omitted === 'too_large') cuts.push(`${file.path} (its ${file.size} bytes are past the change list's content bounds)`);
    else if (file.omitted === 'binary') cuts.push(`${file.path} (not UTF-8 text: its ${file.size} bytes are not shown)`);
    else cuts.push(`${file.path} (${file.kind === undefined ? 'not a regular file' : `a ${file.kind}`}: what it holds is not shown)`);
    return `(no text: ${file.omitted === 'not_a_regular_file' ? `a ${file.kind ?? 'special file'}` : (file.omitted ?? 'none')})`;
  }
  if (file.change === 'added') return file.content;
  const was = before(file.path);
  if ('missing' in was) {
    cuts.push(`${file.path} (its text before the run is not shown: ${was.missing})`);
    return `(its text before the run is not shown: ${was.missing}; its text now:)\n${file.content}`;
  }
  return lineDiff(was.text, file.content);
}
