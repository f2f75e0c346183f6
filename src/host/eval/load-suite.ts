// Reading an eval suite file: YAML (.yaml, .yml) or JSON (.json), bounded in
// size, checked against the suite schema, with every problem reported as
// ZB_EVAL_SUITE_INVALID naming the file and the field. JSON is read strictly
// (duplicate keys refused, with their line), as YAML is. YAML is read in its core
// schema: unknown tags, duplicate keys and any warning are errors, and aliases
// are capped, so a suite cannot expand into gigabytes (a "billion laughs").
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { isScalar, isSeq, LineCounter, parseDocument, type ParsedNode } from 'yaml';
import { ZotboxError } from '../../errors.js';
import { foldKey, parseStrictJson } from '../../policy/strict-json.js';
import { EvalSuiteSchema, type EvalSuite } from './suite-schema.js';
import { describeSuiteIssue, type SuitePositions } from './suite-problem.js';
import { readUserFile } from './user-file.js';

/** A suite file is text a person writes; this is far above any real one. */
export const MAX_SUITE_BYTES = 16 * 1024 * 1024;
const MAX_YAML_ALIASES = 1000;

export interface LoadedSuite {
  readonly suite: EvalSuite;
  /** The suite's name in reports: its `name`, else the file name without its extension. */
  readonly name: string;
  /** The file as the user gave it (reports show it). */
  readonly file: string;
  /** The canonical folder the suite's paths are relative to. */
  readonly directory: string;
  /** The agent reference, with a local path made absolute from the suite folder. */
  readonly agentReference: string;
  /** Each case's line in the file (1-based), in case order; empty when the file's positions are unknown. */
  readonly caseLines: readonly (number | undefined)[];
}

/** Loads one suite. `file` is resolved from `cwd`; `shownAs` is how reports name it (default: as given). */
export function loadSuite(file: string, cwd: string): LoadedSuite {
  const absolute = path.resolve(cwd, file);
  const text = readSuiteText(absolute, file);
  const data = parseSuiteText(text, file);
  const positions = suitePositions(text);
  const parsed = EvalSuiteSchema.safeParse(data);
  if (!parsed.success) {
    // A misspelt required key is both unknown and missing: the unknown one is the one to name (with its guess).
    const issue = parsed.error.issues.find((found) => found.code === 'unrecognized_keys') ?? parsed.error.issues[0];
    if (issue === undefined) throw suiteError(file, 'it does not match the suite format', 'Compare it with docs/eval.md.');
    const problem = describeSuiteIssue(issue, data, EvalSuiteSchema, positions);
    const at = problem.line === undefined ? '' : ` (line ${problem.line}, column ${problem.column ?? 1})`;
    throw suiteError(file, `${problem.problem} at ${problem.where}${at}`, problem.fix, undefined, {
      field: problem.where,
      ...(problem.line === undefined ? {} : { line: problem.line, column: problem.column ?? 1 }),
    });
  }
  const suite = parsed.data;
  const directory = realpathSync.native(path.dirname(absolute));
  return {
    suite,
    name: suite.name ?? defaultSuiteName(absolute, file),
    file,
    directory,
    agentReference: agentReferenceFrom(suite.agent, directory),
    caseLines: caseLines(positions, suite.cases.length),
  };
}

/**
 * The positions of a suite's nodes: its text read as YAML (JSON is YAML too), only
 * for line numbers once the strict reading above succeeded; undefined when that
 * reading fails (then messages name the field without a line).
 */
function suitePositions(text: string): SuitePositions | undefined {
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, uniqueKeys: false, schema: 'core', merge: false });
  return document.errors.length === 0 ? { document, lines } : undefined;
}

function caseLines(positions: SuitePositions | undefined, count: number): (number | undefined)[] {
  const cases = positions?.document.get('cases', true);
  if (positions === undefined || !isSeq(cases)) return [];
  return Array.from({ length: count }, (_, i) => {
    const offset = (cases.items[i] as ParsedNode | undefined)?.range[0];
    return offset === undefined ? undefined : positions.lines.linePos(offset).line;
  });
}

function readSuiteText(absolute: string, shown: string): string {
  const read = readUserFile(absolute, MAX_SUITE_BYTES);
  if (read.ok) return read.text;
  throw suiteError(
    shown,
    read.problem,
    read.errno === undefined ? 'Name a .yaml, .yml or .json suite file, or split a large one into several suites.' : 'Check the path: suites are files such as evals/main.yaml.',
  );
}

/**
 * Whether two YAML keys become one key in the suite: toJS turns a key into its string (`1` and "1", `true`
 * and "true", `~` and "" alike), and keys that differ only by case are refused too, as in JSON suites
 * (policy/strict-json.ts foldKey), so both formats refuse the same mappings.
 */
function sameKey(a: ParsedNode, b: ParsedNode): boolean {
  const text = (node: ParsedNode) => (isScalar(node) && node.value === null ? '' : JSON.stringify(isScalar(node) ? node.value : node.toJSON()).replace(/^"(.*)"$/su, '$1'));
  return foldKey(text(a)) === foldKey(text(b));
}

function parseSuiteText(text: string, shown: string): unknown {
  const extension = path.extname(shown).toLowerCase();
  if (extension === '.json') {
    // Strict, like manifests: JSON.parse keeps the last of two duplicate keys, so a reviewer could read one threshold and zotbox another.
    const parsed = parseStrictJson(Buffer.from(text, 'utf8'));
    if (parsed.ok) return parsed.value;
    const where = parsed.line === undefined ? parsed.path : `${parsed.path} (line ${parsed.line}, column ${parsed.column ?? 1})`;
    throw suiteError(shown, `it is not valid JSON at ${where}: ${parsed.message}`, 'Fix the line it names (strict JSON: no duplicate keys, no comments), or write the suite in YAML.');
  }
  if (extension !== '.yaml' && extension !== '.yml') throw suiteError(shown, `its extension "${extension}" is neither .yaml, .yml nor .json`, 'Rename it to say which format it is in.');
  const document = parseDocument(text, { uniqueKeys: sameKey, prettyErrors: true, schema: 'core', merge: false, strict: true });
  const problem = document.errors[0] ?? document.warnings[0];
  if (problem !== undefined) throw suiteError(shown, `it is not valid YAML: ${problem.message.split('\n')[0] ?? ''}`, 'Fix the line it names (only plain YAML: no custom tags, no duplicate keys).');
  try {
    return document.toJS({ maxAliasCount: MAX_YAML_ALIASES }) as unknown;
  } catch (cause) {
    throw suiteError(shown, `it cannot be read as data: ${(cause as Error).message}`, `Use fewer YAML aliases (at most ${MAX_YAML_ALIASES}).`, cause);
  }
}

function defaultSuiteName(absolute: string, shown: string): string {
  const name = path.basename(absolute).replace(/\.(ya?ml|json)$/i, '');
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name) || name.length > 128) {
    throw suiteError(shown, `its file name "${name}" cannot name the suite in reports`, 'Add name: to the suite (letters, digits, ".", "_" and "-").');
  }
  return name;
}

/** A GitHub reference (github:…, https://…), as opposed to a local path. */
export function isRemoteAgent(agent: string): boolean {
  return agent.startsWith('github:') || agent.startsWith('https://');
}

/** A GitHub reference stays as written; anything else is a local path relative to the suite folder. */
function agentReferenceFrom(agent: string, directory: string): string {
  if (isRemoteAgent(agent)) return agent;
  return path.resolve(directory, agent);
}

function suiteError(file: string, problem: string, fix: string, cause?: unknown, details: Record<string, unknown> = {}): ZotboxError {
  return new ZotboxError('ZB_EVAL_SUITE_INVALID', `eval suite ${file}: ${problem}. Fix: ${fix}`, { details: { file, ...details }, ...(cause === undefined ? {} : { cause }) });
}
