// The zotfile manifest, version 1 (spec B §1.1 with Part A's decisions): strict JSON
// (duplicate and case-variant keys rejected), then the zod schema (manifest-schema.ts)
// or, for a plainly valid manifest, the zod-free recogniser (manifest-shape.ts, issue
// 11) with the same result. Every failure names the JSON path and the fix.
import { ZotboxError } from '../errors.js';
import { GO_OS_NAMES, KNOWN_ENTRY, KNOWN_TOP_LEVEL, MODEL_CAPABILITIES, type BashMode, type ManifestFields } from './manifest-fields.js';
import { manifestSchema } from './manifest-schema.js';
import { readManifestFields } from './manifest-shape.js';
import { childPath, foldKey, parseStrictJson } from './strict-json.js';

export { AGENT_NAME_PATTERN, COMMAND_NAME_PATTERN, GO_OS_NAMES, MODEL_CAPABILITIES, SCOPE_VARIABLES, type BashMode } from './manifest-fields.js';

/** The parsed manifest with defaults applied. Scopes are kept as declared (unexpanded). */
export interface Manifest {
  readonly zotfile: 1;
  readonly name: string;
  readonly version: string;
  readonly description: string;
  readonly license: string;
  readonly runtime: { readonly minZot: string | undefined };
  readonly model: {
    readonly requires: readonly (typeof MODEL_CAPABILITIES)[number][];
    readonly minContext: number;
    readonly preferred: readonly string[];
  };
  readonly permissions: {
    readonly fs: { readonly read: readonly string[]; readonly write: readonly string[] };
    readonly bash: { readonly mode: BashMode; readonly allow: readonly string[] };
    /** Hosts commands may reach through the sandbox's proxy (net-allow.ts), as written. */
    readonly net: { readonly allow: readonly string[] };
  };
  readonly requirements: { readonly bin: readonly string[]; readonly os: readonly (typeof GO_OS_NAMES)[number][] };
  readonly entry: { readonly greeting: string; readonly pre: string; readonly defaultPrompt: string | undefined };
  readonly replaceSystemPrompt: boolean;
  /** Keys zotbox does not know at the top level and in `entry` (reported by inspect). */
  readonly unknownKeys: readonly string[];
}

function manifestError(path: string, message: string, issues: readonly { path: string; message: string }[]): ZotboxError {
  return new ZotboxError('ZB_MANIFEST_INVALID', `manifest.json: ${path} ${message}.`, { details: { path, issues } });
}

function jsonPath(segments: readonly PropertyKey[]): string {
  return segments.reduce<string>((parent, key) => childPath(parent, typeof key === 'number' ? key : String(key)), '$');
}

const INTEGER_FIELDS = ['$.zotfile', '$.model.min_context'];
const MAX_MANIFEST_BYTES = 1024 * 1024;

/**
 * Where unknown keys are allowed (top level, entry), a key that folds to a known
 * one ("Permissions", "permiſſions") is still rejected: zot folds case, so it
 * would read that key as the known one while zotbox ignored it (Part A).
 */
function rejectCaseVariants(object: { [key: string]: unknown }, path: string, known: readonly string[]): void {
  for (const key of Object.keys(object)) {
    if (known.includes(key)) continue;
    const match = known.find((k) => foldKey(k) === foldKey(key));
    if (match !== undefined) {
      const at = childPath(path, key);
      const message = `is a case variant of ${JSON.stringify(match)}; other readers would treat it as ${JSON.stringify(match)}, so zotbox refuses it. Write ${JSON.stringify(match)} exactly`;
      throw manifestError(at, message, [{ path: at, message }]);
    }
  }
}

/** The schema's verdict: the fields, or ZB_MANIFEST_INVALID naming each problem's JSON path. */
function validateWithSchema(value: unknown): ManifestFields {
  const result = manifestSchema().safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      const keys = (issue as { keys: string[] }).keys;
      return {
        path: jsonPath([...issue.path, keys[0]!]),
        message: `is not a known key here${
          keys.length > 1
            ? ` (nor ${keys
                .slice(1)
                .map((k) => JSON.stringify(k))
                .join(', ')})`
            : ''
        }; zotbox rejects unknown keys in this section because it could not enforce them. Remove it, or check the spelling`,
      };
    }
    return { path: jsonPath(issue.path), message: issue.message };
  });
  const first = issues[0]!;
  throw manifestError(first.path, first.message, issues);
}

/**
 * Parses and validates manifest.json bytes. Throws ZB_MANIFEST_INVALID naming the
 * JSON path of the first problem (all problems are in `details.issues`).
 */
export function parseManifest(bytes: Uint8Array): Manifest {
  if (bytes.length > MAX_MANIFEST_BYTES) {
    throw manifestError('$', `is ${bytes.length} bytes; a manifest may be at most ${MAX_MANIFEST_BYTES} bytes`, [{ path: '$', message: 'too large' }]);
  }
  const json = parseStrictJson(bytes);
  if (!json.ok) throw manifestError(json.path, `is not valid: ${json.message}`, [{ path: json.path, message: json.message }]);
  // Integer fields must be integer literals: 1.0 and 1e0 are rejected as zot rejects them (spec B §1.2).
  for (const path of INTEGER_FIELDS) {
    const literal = json.numberLiterals.get(path);
    if (literal !== undefined && !/^-?(0|[1-9][0-9]*)$/.test(literal)) {
      throw manifestError(path, `must be written as a whole number, not ${literal}`, [{ path, message: `not an integer literal: ${literal}` }]);
    }
  }
  if (json.value === null || typeof json.value !== 'object' || Array.isArray(json.value)) {
    throw manifestError('$', 'must be a JSON object', [{ path: '$', message: 'not an object' }]);
  }
  rejectCaseVariants(json.value, '$', KNOWN_TOP_LEVEL);
  const entry = json.value['entry'];
  if (entry !== null && typeof entry === 'object' && !Array.isArray(entry)) rejectCaseVariants(entry, '$.entry', KNOWN_ENTRY);
  // A plainly valid manifest is read without zod; anything else, the schema decides and explains.
  const m = readManifestFields(json.value) ?? validateWithSchema(json.value);
  const unknownKeys = Object.keys(json.value).filter((k) => !KNOWN_TOP_LEVEL.includes(k));
  // From the manifest as written: the fields keep known keys only.
  if (entry !== null && typeof entry === 'object') for (const key of Object.keys(entry)) if (!KNOWN_ENTRY.includes(key)) unknownKeys.push(`entry.${key}`);
  return {
    zotfile: 1,
    name: m.name,
    version: m.version ?? '',
    description: m.description ?? '',
    license: m.license ?? '',
    runtime: { minZot: m.runtime?.min_zot },
    model: { requires: m.model?.requires ?? [], minContext: m.model?.min_context ?? 0, preferred: m.model?.preferred ?? [] },
    permissions: {
      fs: { read: m.permissions?.fs?.read ?? [], write: m.permissions?.fs?.write ?? [] },
      bash: { mode: m.permissions?.bash?.mode ?? 'none', allow: m.permissions?.bash?.allow ?? [] },
      net: { allow: m.permissions?.net?.allow ?? [] },
    },
    requirements: { bin: m.requirements?.bin ?? [], os: m.requirements?.os ?? [] },
    entry: { greeting: m.entry?.greeting ?? '', pre: m.entry?.pre ?? '', defaultPrompt: m.entry?.default_prompt },
    replaceSystemPrompt: m.replace_system_prompt ?? false,
    unknownKeys,
  };
}
