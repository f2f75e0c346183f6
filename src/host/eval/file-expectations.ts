// File expectations: what is in the case's workspace after the run. Files are
// read through the workspace's no-link reader (case-workspace.ts): a path the
// agent replaced with a link, a FIFO or a directory is "not a regular file",
// never the target's content. When the run's change list is incomplete (a walk
// bound reached, or entries zotbox cannot read), every file expectation says so,
// and file_absent never passes (issue 22 §2).
import { parseStrictJson } from '../../policy/strict-json.js';
import type { ExpectationResult } from './eval-report.js';
import type { WorkspaceFile } from './case-workspace.js';
import { describeIncompleteChanges, type WorkspaceChanges } from './workspace-changes.js';
import type { Expectation } from './suite-schema.js';
import { quote } from './reason-text.js';
import { jsonPathValue } from './json-path.js';

export interface WorkspaceFiles {
  /** The workspace's canonical path (call paths are matched relative to it). */
  readonly workspace: string;
  readFile(relative: string, maxBytes: number): WorkspaceFile;
  /** The run's changes, walked once, within the change bounds (workspace-changes.ts). */
  changes(): Pick<WorkspaceChanges, 'truncated' | 'unreadable'>;
}

/** Deepest JSON file_json compares: comparing and quoting a value recurse, so deeper agent files fail the expectation instead. */
export const MAX_JSON_DEPTH = 1000;

/** The most of one file an expectation reads. */
export const MAX_EXPECTED_FILE_BYTES = 8 * 1024 * 1024;

type FileExpectation = Extract<Expectation, { file_exists: unknown } | { file_absent: unknown } | { file_contains: unknown } | { file_equals: unknown } | { file_json: unknown }>;

export function checkFileExpectation(expectation: FileExpectation, files: WorkspaceFiles): ExpectationResult {
  const result = checkFile(expectation, files);
  const incomplete = describeIncompleteChanges(files.changes());
  if (incomplete === undefined) return result;
  // Absence is what an incomplete walk cannot vouch for; the others read their own path, and say what the walk could not.
  if (result.kind === 'file_absent') return { kind: result.kind, passed: false, reason: `${result.reason}, but ${incomplete}, so file_absent cannot pass` };
  return { ...result, reason: `${result.reason} (note: ${incomplete})` };
}

function checkFile(expectation: FileExpectation, files: WorkspaceFiles): ExpectationResult {
  if ('file_exists' in expectation) {
    const read = files.readFile(expectation.file_exists, 0);
    const exists = read.kind === 'file' || read.kind === 'too_large';
    return { kind: 'file_exists', passed: exists, reason: `${expectation.file_exists} ${exists ? 'exists' : describeMissing(read)}` };
  }
  if ('file_absent' in expectation) {
    const read = files.readFile(expectation.file_absent, 0);
    return {
      kind: 'file_absent',
      passed: read.kind === 'absent',
      reason: `${expectation.file_absent} ${read.kind === 'absent' ? 'is absent' : read.kind === 'not_regular' ? `exists (${read.what} at ${read.at})` : 'exists'}`,
    };
  }
  const target = 'file_contains' in expectation ? expectation.file_contains.path : 'file_equals' in expectation ? expectation.file_equals.path : expectation.file_json.path;
  const kind = expectationKindOf(expectation);
  const read = files.readFile(target, MAX_EXPECTED_FILE_BYTES);
  if (read.kind !== 'file')
    return {
      kind,
      passed: false,
      reason: `${target} ${read.kind === 'too_large' ? `is ${read.size} bytes, over the ${MAX_EXPECTED_FILE_BYTES}-byte limit of file expectations` : describeMissing(read)}`,
    };
  const text = read.bytes.toString('utf8');
  if ('file_contains' in expectation) {
    const found = text.includes(expectation.file_contains.text);
    return { kind, passed: found, reason: `${target} ${found ? 'contains' : 'does not contain'} ${quote(expectation.file_contains.text)}` };
  }
  if ('file_equals' in expectation) {
    const equal = text === expectation.file_equals.text;
    return { kind, passed: equal, reason: equal ? `${target} has the expected content` : `${target} is ${quote(text)}, not ${quote(expectation.file_equals.text)}` };
  }
  return checkJsonValue(expectation.file_json, text, read.bytes);
}

function checkJsonValue(expected: { path: string; json_path: string; equals?: unknown }, text: string, bytes: Uint8Array): ExpectationResult {
  let document: unknown;
  try {
    document = JSON.parse(text) as unknown;
  } catch (cause) {
    return { kind: 'file_json', passed: false, reason: `${expected.path} is not JSON: ${(cause as Error).message}` };
  }
  if (jsonDepth(document) > MAX_JSON_DEPTH)
    return { kind: 'file_json', passed: false, reason: `${expected.path} is JSON nested more than ${MAX_JSON_DEPTH} levels deep, deeper than file_json compares` };
  // JSON.parse keeps the last of two duplicate keys; another reader of the agent's file may keep the first, or fold case: such a file is not one value.
  const strict = parseStrictJson(bytes, { maxDepth: MAX_JSON_DEPTH });
  if (!strict.ok) {
    const where = strict.line === undefined ? '' : ` (line ${strict.line}, column ${strict.column ?? 1})`;
    return { kind: 'file_json', passed: false, reason: `${expected.path} is JSON that readers disagree on: ${strict.message} at ${strict.path}${where}` };
  }
  const found = jsonPathValue(document, expected.json_path);
  if (!found.found) return { kind: 'file_json', passed: false, reason: `${expected.path} has no value at ${expected.json_path}` };
  const equal = deepEqualJson(found.value, expected.equals);
  return {
    kind: 'file_json',
    passed: equal,
    reason: `${expected.path} ${expected.json_path} is ${jsonText(found.value)}${equal ? '' : `, not ${jsonText(expected.equals)}`}`,
  };
}

/** How deeply a parsed JSON value nests, counted without recursion (the agent chooses the depth); stops counting past the bound. */
function jsonDepth(root: unknown): number {
  let deepest = 0;
  const pending: { value: unknown; depth: number }[] = [{ value: root, depth: 0 }];
  while (pending.length > 0) {
    const { value, depth } = pending.pop() as { value: unknown; depth: number };
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_JSON_DEPTH) return deepest;
    if (typeof value === 'object' && value !== null) for (const child of Object.values(value)) pending.push({ value: child, depth: depth + 1 });
  }
  return deepest;
}

/** JSON text of a value; JSON.stringify gives undefined for a value JSON has no text for. */
function jsonText(value: unknown): string {
  const text = (JSON.stringify(value) as string | undefined) ?? 'undefined';
  // JSON text is already quoted and one line; only its length is cut.
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

function describeMissing(read: WorkspaceFile): string {
  if (read.kind === 'not_regular') return `is not a regular file (${read.what} at ${read.at})`;
  if (read.kind === 'unreadable') return `cannot be read by zotbox (${read.errno} at ${read.at})`;
  return 'does not exist';
}

function expectationKindOf(expectation: FileExpectation): string {
  return Object.keys(expectation)[0] ?? 'file';
}

/** Structural equality of two JSON values (object key order ignored). */
export function deepEqualJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, index) => deepEqualJson(item, b[index]));
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  return keys.length === Object.keys(right).length && keys.every((key) => Object.hasOwn(right, key) && deepEqualJson(left[key], right[key]));
}
