// Recognises a valid manifest without zod (issue 11: zod's import costs more than
// Node's start-up). Closed world: it returns the fields only for a value that the
// schema (manifest-schema.ts) accepts with the same result, and declines anything
// else, unusual or wrong, so that the schema decides and explains it. It must never
// accept what the schema rejects; test/policy/manifest-shape.test.ts holds the two
// together.
import { AGENT_NAME_PATTERN, BASH_MODES, COMMAND_NAME_PATTERN, GO_OS_NAMES, MODEL_CAPABILITIES, scopeStringProblems, type ManifestFields } from './manifest-fields.js';
import { MAX_NET_ENTRIES, parseNetAllowEntry } from './net-allow.js';
import { parseSemver } from './semver.js';

type JsonObject = { readonly [key: string]: unknown };

/** Thrown inside this file only, when a value is not plainly valid; readManifestFields turns it into undefined. */
class Declined extends Error {}
// One instance made at load, compared by identity: declining costs no stack capture per value.
const DECLINED = new Declined('manifest-shape: not plainly valid; the schema decides');

function decline(): never {
  throw DECLINED;
}

/**
 * The fields of a manifest the schema accepts, or undefined: then the schema must
 * decide (it rejects the value, and says why).
 */
export function readManifestFields(value: JsonObject): ManifestFields | undefined {
  try {
    return readFields(value);
  } catch (thrown) {
    if (thrown === DECLINED) return undefined;
    throw thrown;
  }
}

function field(object: JsonObject, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/** Absent and null are the same (spec B §1.1). */
function optional<T>(object: JsonObject, key: string, read: (value: unknown) => T): T | undefined {
  const value = field(object, key);
  return value === undefined || value === null ? undefined : read(value);
}

/** An object; with `keys`, a strict one that holds no other key. */
function object(value: unknown, keys?: readonly string[]): JsonObject {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) decline();
  const result = value as JsonObject;
  if (keys !== undefined && !Object.keys(result).every((key) => keys.includes(key))) decline();
  return result;
}

function string(value: unknown): string {
  return typeof value === 'string' ? value : decline();
}

function member<T extends string>(values: readonly T[]): (value: unknown) => T {
  return (value) => ((values as readonly unknown[]).includes(value) ? (value as T) : decline());
}

/** An array of strings, each accepted by `item`, none listed twice. */
function uniqueList<T extends string>(item: (value: unknown) => T): (value: unknown) => T[] {
  return (value) => {
    if (!Array.isArray(value)) decline();
    const list = value.map(item);
    return new Set(list).size === list.length ? list : decline();
  };
}

const matching = (pattern: RegExp) => (value: unknown) => (pattern.test(string(value)) ? (value as string) : decline());
const nonEmpty = (value: unknown) => (string(value).length > 0 ? (value as string) : decline());
const scope = (value: unknown) => {
  const text = nonEmpty(value);
  return scopeStringProblems(text).length === 0 ? text : decline();
};
const netEntry = (value: unknown) => (parseNetAllowEntry(string(value)).ok ? (value as string) : decline());
const netAllowList = (value: unknown) => {
  const list = uniqueList(netEntry)(value);
  return list.length <= MAX_NET_ENTRIES ? list : decline();
};
const emptyList = (value: unknown): readonly never[] => (Array.isArray(value) && value.length === 0 ? [] : decline());

function readFields(top: JsonObject): ManifestFields {
  if (field(top, 'zotfile') !== 1) decline();
  const name = matching(AGENT_NAME_PATTERN)(field(top, 'name'));
  const entry = optional(top, 'entry', (value) => object(value));
  return {
    zotfile: 1,
    name,
    version: optional(top, 'version', string),
    description: optional(top, 'description', string),
    license: optional(top, 'license', string),
    runtime: optional(top, 'runtime', (value) => ({
      min_zot: optional(object(value, ['min_zot']), 'min_zot', (v) => (parseSemver(string(v)) === undefined ? decline() : (v as string))),
    })),
    model: optional(top, 'model', readModel),
    permissions: optional(top, 'permissions', readPermissions),
    requirements: optional(top, 'requirements', (value) => {
      const requirements = object(value, ['bin', 'os']);
      return { bin: optional(requirements, 'bin', uniqueList(matching(COMMAND_NAME_PATTERN))), os: optional(requirements, 'os', uniqueList(member(GO_OS_NAMES))) };
    }),
    entry: entry === undefined ? undefined : { greeting: optional(entry, 'greeting', string), pre: optional(entry, 'pre', string), default_prompt: optional(entry, 'default_prompt', string) },
    replace_system_prompt: optional(top, 'replace_system_prompt', (value) => (typeof value === 'boolean' ? value : decline())),
  };
}

function readModel(value: unknown): NonNullable<ManifestFields['model']> {
  const model = object(value, ['requires', 'min_context', 'preferred', 'min_tier']);
  // Tiers are not supported: only the empty string (or nothing) passes.
  optional(model, 'min_tier', (tier) => (string(tier) === '' ? tier : decline()));
  return {
    requires: optional(model, 'requires', uniqueList(member(MODEL_CAPABILITIES))),
    min_context: optional(model, 'min_context', (n) => (typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : decline())),
    preferred: optional(model, 'preferred', uniqueList(nonEmpty)),
  };
}

function readPermissions(value: unknown): NonNullable<ManifestFields['permissions']> {
  const permissions = object(value, ['fs', 'bash', 'net', 'env']);
  // Environment access cannot be enforced yet: only empty lists pass.
  optional(permissions, 'env', (env) => optional(object(env, ['read']), 'read', emptyList));
  return {
    net: optional(permissions, 'net', (net) => ({ allow: optional(object(net, ['allow']), 'allow', netAllowList) })),
    fs: optional(permissions, 'fs', (fs) => {
      const scopes = object(fs, ['read', 'write']);
      return { read: optional(scopes, 'read', uniqueList(scope)), write: optional(scopes, 'write', uniqueList(scope)) };
    }),
    bash: optional(permissions, 'bash', (bash) => {
      const declared = object(bash, ['mode', 'allow']);
      const mode = optional(declared, 'mode', member(BASH_MODES));
      const allow = optional(declared, 'allow', uniqueList(matching(COMMAND_NAME_PATTERN)));
      // Allowlist mode needs a command; any other mode, none.
      if ((mode === 'allowlist') !== (allow ?? []).length > 0) decline();
      return { mode, allow };
    }),
  };
}
