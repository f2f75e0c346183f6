// A suite schema problem in words a person can act on (issue 27 §3): where it is
// (the field, and its line and column in the file, from the yaml package's node
// ranges), what is wrong, and for a key zotbox does not know, the known key it is
// closest to. Reads the parsed document and the schema only; no I/O.
import { isMap, isScalar, isSeq, type Document, type LineCounter, type Node } from 'yaml';
import type { z } from 'zod';
import { closestName } from '../../errors.js';

type Key = string | number;

/** Where a parsed suite's nodes are: the document (YAML, or JSON read as YAML for its positions) and its line index. */
export interface SuitePositions {
  readonly document: Document.Parsed;
  readonly lines: LineCounter;
}

export interface SuiteProblem {
  /** The field, as `cases.0.expect.1` (the top level when empty). */
  readonly where: string;
  /** 1-based, when the file's positions are known. */
  readonly line?: number;
  readonly column?: number;
  readonly problem: string;
  /** The fix, in words. */
  readonly fix: string;
}

const FIX = 'Fix the field as docs/eval.md ("Suite fields", "Case fields", "Expectations") describes.';

/** The first issue of a failed parse of `data` against `schema`, placed in the file. */
export function describeSuiteIssue(issue: z.core.$ZodIssue, data: unknown, schema: z.ZodType, positions: SuitePositions | undefined): SuiteProblem {
  const path = issue.path.filter((key): key is Key => typeof key !== 'symbol');
  if (issue.code === 'unrecognized_keys') return unknownKey(path, issue.keys[0] ?? '', knownKeys(schemaAt(schema, path)), positions);
  if (issue.code === 'invalid_union') {
    const value = valueAt(data, path);
    const options = schemaAt(schema, path);
    if (isPlainObject(value) && options !== undefined) {
      const keys = Object.keys(value);
      const kinds = knownKeys(options);
      const unknown = keys.find((key) => !kinds.includes(key));
      if (unknown !== undefined) return unknownKey(path, unknown, kinds, positions, 'kind');
      if (keys.length !== 1) {
        return {
          ...place(path, undefined, positions),
          problem: `an expectation has exactly one key, its kind; this one has ${keys.length === 0 ? 'none' : keys.join(', ')}`,
          fix: 'Write each expectation as its own list item.',
        };
      }
      // One known kind with a wrong value: the problem is the one its own schema finds.
      const kind = keys[0]!;
      const parsed = schemaAt(options, [kind])?.safeParse(value[kind]);
      const first = parsed !== undefined && !parsed.success ? parsed.error.issues[0] : undefined;
      if (first !== undefined) return describeSuiteIssue({ ...first, path: [...path, kind, ...first.path] }, data, schema, positions);
    }
  }
  return { ...place(path, undefined, positions), problem: issue.message, fix: FIX };
}

function unknownKey(path: readonly Key[], key: string, known: readonly string[], positions: SuitePositions | undefined, what = 'key'): SuiteProblem {
  const guess = closestName(key, known);
  const listed = known.length > 0 && known.length <= 20 ? ` Known ${what}s here: ${known.join(', ')}.` : '';
  return {
    ...place([...path, key], key, positions),
    problem: `unknown ${what} "${key}"${guess === undefined ? '' : ` (did you mean "${guess}"?)`}`,
    fix: `${guess === undefined ? 'Remove it, or rename it to a known one.' : `Rename it to ${guess}.`}${listed}`,
  };
}

/** The field in words and its position: of the key itself when `key` is given (an unknown key), else of the value. */
function place(path: readonly Key[], key: string | undefined, positions: SuitePositions | undefined): Pick<SuiteProblem, 'where' | 'line' | 'column'> {
  const where = path.length === 0 ? 'the top level' : path.map(String).join('.');
  const offset = positions === undefined ? undefined : offsetOf(positions.document, key === undefined ? path : path.slice(0, -1), key);
  if (offset === undefined || positions === undefined) return { where };
  const { line, col } = positions.lines.linePos(offset);
  return { where, line, column: col };
}

function offsetOf(document: Document.Parsed, path: readonly Key[], key: string | undefined): number | undefined {
  // The deepest node that exists on the path: a missing field is placed at the object that lacks it.
  let node: unknown = document.contents;
  for (const step of path) {
    const next: unknown = isMap(node) || isSeq(node) ? node.get(step, true) : undefined;
    if (next === undefined || next === null) break;
    node = next;
  }
  if (key !== undefined && isMap(node)) {
    const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === key);
    if (pair !== undefined && isScalar(pair.key)) return pair.key.range?.[0];
  }
  return (node as Node | null)?.range?.[0];
}

function valueAt(data: unknown, path: readonly Key[]): unknown {
  let value = data;
  for (const step of path) value = value !== null && typeof value === 'object' ? (value as Record<Key, unknown>)[step] : undefined;
  return value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

interface SchemaDef {
  readonly type: string;
  readonly innerType?: z.ZodType;
  readonly in?: z.ZodType;
  readonly shape?: Record<string, z.ZodType>;
  readonly element?: z.ZodType;
  readonly options?: readonly z.ZodType[];
}

const defOf = (schema: z.ZodType): SchemaDef => (schema as unknown as { _zod: { def: SchemaDef } })._zod.def;

/** The schema without its wrappers (optional, default, a refinement's pipe). */
function unwrap(schema: z.ZodType): z.ZodType {
  for (;;) {
    const def = defOf(schema);
    const inner = def.innerType ?? (def.type === 'pipe' ? def.in : undefined);
    if (inner === undefined) return schema;
    schema = inner;
  }
}

/** The schema of the value at `path`; for a union, of the option that has the key. */
function schemaAt(schema: z.ZodType | undefined, path: readonly Key[]): z.ZodType | undefined {
  let current = schema;
  for (const step of path) {
    if (current === undefined) return undefined;
    const def = defOf(unwrap(current));
    if (def.type === 'object') current = typeof step === 'string' ? def.shape?.[step] : undefined;
    else if (def.type === 'array') current = def.element;
    else if (def.type === 'union') current = def.options?.map((option) => defOf(unwrap(option)).shape?.[String(step)]).find((found) => found !== undefined);
    else return undefined;
  }
  return current === undefined ? undefined : unwrap(current);
}

/** The keys an object schema knows (every option's, for a union of objects). */
function knownKeys(schema: z.ZodType | undefined): string[] {
  if (schema === undefined) return [];
  const def = defOf(unwrap(schema));
  if (def.type === 'object') return Object.keys(def.shape ?? {});
  if (def.type === 'union') return (def.options ?? []).flatMap(knownKeys);
  return [];
}
