// The JSON reporter and reader: the report file is the one other commands
// (`zotbox eval merge`, `--last-failed`) read back, so reading is a trust
// boundary (schema-checked, version-checked) and writing is atomic (a temp file
// beside the target, then rename): a reader never sees half a report.
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { fileSystemError, ZotboxError } from '../../../errors.js';
import { ZOTBOX_VERSION } from '../../../version.js';
import { readUserFile } from '../user-file.js';
import { findContradiction } from './consistency.js';
import { EVAL_REPORT_VERSION, type EvalReport, EvalReportSchema } from '../eval-report.js';

/** A report is JSON text zotbox wrote; this bounds what a named file can make zotbox hold. */
export const MAX_REPORT_BYTES = 512 * 1024 * 1024;

/** Reads and checks a JSON eval report. Throws ZB_EVAL_REPORT_INVALID naming the file and, when the shape is wrong, the field. */
export function readEvalReport(file: string): EvalReport {
  const read = readUserFile(file, MAX_REPORT_BYTES);
  if (!read.ok) {
    throw new ZotboxError('ZB_EVAL_REPORT_INVALID', `cannot read the eval report ${file}: ${read.problem}. Fix: give the file that zotbox eval --reporter json=FILE wrote.`, {
      details: { path: file, ...(read.errno === undefined ? {} : { errno: read.errno }) },
    });
  }
  const text = read.text;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw reportError(file, `is not JSON (${(cause as Error).message}). Fix: give the file that zotbox eval --reporter json=FILE wrote.`, '$', cause);
  }
  const version = json !== null && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>).zotbox_eval_report : undefined;
  if (version === undefined) {
    throw reportError(file, 'is not a zotbox eval JSON report: it has no zotbox_eval_report field. Fix: give the file that zotbox eval --reporter json=FILE wrote.', 'zotbox_eval_report');
  }
  if (version !== EVAL_REPORT_VERSION) {
    throw reportError(
      file,
      `is a version ${JSON.stringify(version)} eval report; this zotbox (${ZOTBOX_VERSION}) reads version ${EVAL_REPORT_VERSION}. Fix: read it with the zotbox that wrote it, or run the eval again with this one.`,
      'zotbox_eval_report',
    );
  }
  const parsed = EvalReportSchema.safeParse(json);
  if (!parsed.success) {
    const { field, message } = firstIssue(parsed.error);
    throw reportError(file, `has field ${field} that is wrong (${message}). Fix: give an unedited report written by zotbox eval --reporter json=FILE.`, field);
  }
  const contradiction = findContradiction(parsed.data);
  if (contradiction !== undefined) throw reportError(file, `contradicts itself: it ${contradiction}. Fix: give an unedited report written by zotbox eval --reporter json=FILE.`, '$');
  return parsed.data;
}

function reportError(file: string, message: string, field: string, cause?: unknown): ZotboxError {
  return new ZotboxError('ZB_EVAL_REPORT_INVALID', `eval report ${file} ${message}`, { cause, details: { path: file, field } });
}

/** The first schema problem as a JSON-path-like field (`cases[3].runs[0].status`) and zod's words for it. */
function firstIssue(error: z.ZodError): { field: string; message: string } {
  const issue = error.issues[0];
  if (issue === undefined) return { field: '$', message: 'is invalid' };
  let field = '';
  for (const key of issue.path) field += typeof key === 'number' ? `[${key}]` : `${field === '' ? '' : '.'}${String(key)}`;
  return { field: field === '' ? '$' : field, message: issue.message };
}

/**
 * The report as JSON: 2-space indented, keys in schema order, a trailing newline.
 * It is checked against the schema first, so zotbox never writes a report it could not read back
 * (a NaN cost would become null); that would be a bug in zotbox and throws ZB_EVAL_REPORT_INVALID.
 */
export function formatJsonReport(report: EvalReport): string {
  const parsed = EvalReportSchema.safeParse(report);
  if (!parsed.success) {
    const { field, message } = firstIssue(parsed.error);
    throw new ZotboxError('ZB_EVAL_REPORT_INVALID', `the eval report to write has field ${field} that is wrong (${message}); this is a bug in zotbox. Fix: report it, with the command line.`, {
      details: { field },
    });
  }
  return `${JSON.stringify(parsed.data, null, 2)}\n`;
}

/** Writes the report atomically (writeReportFile). */
export function writeJsonReport(report: EvalReport, file: string): void {
  writeReportFile(file, formatJsonReport(report));
}

/**
 * Writes one reporter's output (JSON, JUnit, Markdown) atomically: parents created,
 * a temp file beside `file` written and synced, then renamed over it, so a reader
 * never sees half a report and a failed write leaves no temp file.
 */
export function writeReportFile(file: string, text: string): void {
  writeReportFiles([{ file, text }]);
}

/**
 * Writes several reporters' outputs all or none: every temp file is written and
 * synced first; only when all are, each is renamed over its target. A failed
 * write removes every temp file and leaves every target as it was.
 */
export function writeReportFiles(outputs: readonly { readonly file: string; readonly text: string }[]): void {
  const temps: { readonly temp: string; readonly file: string }[] = [];
  try {
    for (const { file, text } of outputs) temps.push({ temp: writeTempBeside(file, text), file });
  } catch (error) {
    for (const { temp } of temps) removeQuietly(temp);
    throw error;
  }
  for (let index = 0; index < temps.length; index++) {
    const { temp, file } = temps[index]!;
    try {
      renameSync(temp, file);
    } catch (cause) {
      for (const rest of temps.slice(index)) removeQuietly(rest.temp);
      throw fileSystemError('write the eval report', file, cause);
    }
  }
}

/** A synced temp file beside `file` holding `text`; nothing is left behind when it fails. */
function writeTempBeside(file: string, text: string): string {
  const directory = path.dirname(path.resolve(file));
  try {
    mkdirSync(directory, { recursive: true });
  } catch (cause) {
    throw fileSystemError('create the directory for', file, cause);
  }
  const temp = path.join(directory, `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(temp, 'wx', 0o644);
    writeSync(fd, text);
    fsyncSync(fd);
    closeSync(fd);
    return temp;
  } catch (cause) {
    if (fd !== undefined) closeSync(fd);
    removeQuietly(temp);
    throw fileSystemError('write the eval report', file, cause);
  }
}

function removeQuietly(temp: string): void {
  try {
    unlinkSync(temp);
  } catch {
    // Never created, or already renamed.
  }
}
