// The zotfile manifest, version 1: a zod schema over the output of the strict
// JSON parser, with Part A's decisions on top of the reference fields (spec B
// §1.1): exact keys (case variants and duplicates are rejected by the parser),
// unknown keys rejected inside permissions, model, runtime and requirements
// (they could carry a requirement zotbox would silently ignore), allowed at the
// top level and in entry for forward compatibility. Every failure names the
// JSON path and the fix. The parsed Manifest is the one typed value used
// everywhere else.
import { z } from 'zod';
import { ZotboxError } from '../errors.js';
import { childPath, foldKey, parseStrictJson } from './strict-json.js';
import { parseSemver } from './semver.js';

export const AGENT_NAME_PATTERN = /^[a-z0-9]([a-z0-9._-]*[a-z0-9])?$/;
/** Allowlisted commands are plain names; identity is decided by PATH lookup at check time. */
export const COMMAND_NAME_PATTERN = /^[A-Za-z0-9_+][A-Za-z0-9._+-]*$/;
export const SCOPE_VARIABLES = ['workspace', 'agent_data'] as const;
export const MODEL_CAPABILITIES = ['tools', 'vision', 'reasoning'] as const;
/** Go's GOOS values, which requirements.os names. */
export const GO_OS_NAMES = ['aix', 'android', 'darwin', 'dragonfly', 'freebsd', 'illumos', 'ios', 'js', 'linux', 'netbsd', 'openbsd', 'plan9', 'solaris', 'wasip1', 'windows'] as const;

const KNOWN_TOP_LEVEL = ['zotfile', 'name', 'version', 'description', 'license', 'runtime', 'model', 'permissions', 'requirements', 'entry', 'replace_system_prompt'];
const KNOWN_ENTRY = ['greeting', 'pre', 'default_prompt'];

/** A field that may be absent or null (zot treats null as absent, spec B §1.1). */
const optional = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? undefined);

const nonEmptyString = (what: string) => z.string({ error: `must be a string (${what})` }).min(1, { error: `must not be empty (${what})` });

const uniqueStrings = <T extends string>(item: z.ZodType<T>, what: string) =>
  z.array(item, { error: `must be an array of strings (${what})` }).superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((value, index) => {
      if (seen.has(value)) ctx.addIssue({ code: 'custom', path: [index], message: `${JSON.stringify(value)} is listed twice; list it once` });
      seen.add(value);
    });
  });

const scopeString = nonEmptyString('a path, "${workspace}", "${agent_data}", or a path below one of them').superRefine((value, ctx) => {
  for (const match of value.matchAll(/\$\{([^}]*)\}/g)) {
    if (!(SCOPE_VARIABLES as readonly string[]).includes(match[1]!)) {
      ctx.addIssue({ code: 'custom', message: `unknown variable ${match[0]}; only \${workspace} and \${agent_data} exist` });
    }
  }
  if (/\$\{[^}]*$/.test(value)) ctx.addIssue({ code: 'custom', message: 'an unterminated "${"' });
  if (value.includes('\u0000')) ctx.addIssue({ code: 'custom', message: 'contains a NUL byte' });
  if (value.startsWith('~')) ctx.addIssue({ code: 'custom', message: '"~" is not expanded; use ${workspace} or ${agent_data}' });
});

const emptyList = (feature: string) =>
  optional(z.array(z.unknown(), { error: 'must be an array' }).max(0, { error: `${feature} is not supported by zotbox yet: it could not be enforced; remove it or leave it empty` }));

const PermissionsSchema = z.strictObject({
  fs: optional(
    z.strictObject({
      read: optional(uniqueStrings(scopeString, 'read scopes')),
      write: optional(uniqueStrings(scopeString, 'write scopes')),
    }),
  ),
  bash: optional(
    z
      .strictObject({
        mode: optional(z.enum(['none', 'ask', 'allowlist'], { error: 'must be exactly "none", "ask" or "allowlist" (lowercase, no spaces)' })),
        allow: optional(
          uniqueStrings(
            nonEmptyString('a command name').regex(COMMAND_NAME_PATTERN, {
              error: 'must be a plain command name such as "git" (no path, spaces or shell syntax): which file runs is decided by a PATH lookup',
            }),
            'command names',
          ),
        ),
      })
      .superRefine((bash, ctx) => {
        const allow = bash.allow ?? [];
        if (bash.mode === 'allowlist' && allow.length === 0) {
          ctx.addIssue({ code: 'custom', path: ['allow'], message: 'allowlist mode needs at least one command; list them, e.g. ["git", "ls"]' });
        }
        if (bash.mode !== 'allowlist' && allow.length > 0) {
          ctx.addIssue({ code: 'custom', path: ['allow'], message: `has no effect in mode "${bash.mode ?? 'none'}"; set "mode": "allowlist" or remove "allow"` });
        }
      }),
  ),
  net: optional(z.strictObject({ allow: emptyList('network access') })),
  env: optional(z.strictObject({ read: emptyList('reading environment variables') })),
});

const ModelSchema = z
  .strictObject({
    requires: optional(uniqueStrings(z.enum(MODEL_CAPABILITIES, { error: `must be one of ${MODEL_CAPABILITIES.join(', ')}` }), 'capabilities')),
    min_context: optional(z.number({ error: 'must be a whole number of tokens' }).int({ error: 'must be a whole number' }).min(0, { error: 'must not be negative' })),
    preferred: optional(uniqueStrings(nonEmptyString('a model id'), 'model ids')),
    min_tier: optional(z.string().max(0, { error: 'model tiers are not supported; remove min_tier and use requires/min_context' })),
  });

const ManifestSchema = z.looseObject({
  zotfile: z.literal(1, { error: 'must be 1: zotbox reads zotfile version 1' }),
  name: z
    .string({ error: 'is required: a lowercase name such as "code-reviewer"' })
    .regex(AGENT_NAME_PATTERN, { error: 'must use only lowercase letters, digits, dots, hyphens and underscores, and start and end with a letter or digit (e.g. "code-reviewer")' }),
  version: optional(z.string({ error: 'must be a string such as "1.0.0"' })),
  description: optional(z.string({ error: 'must be a string' })),
  license: optional(z.string({ error: 'must be a string such as "MIT"' })),
  runtime: optional(
    z.strictObject({
      min_zot: optional(
        z.string({ error: 'must be a version string such as "0.2.76"' }).refine((v) => parseSemver(v) !== undefined, {
          error: 'must be a semantic version such as "0.2.76" (no leading zeros, lowercase "v" only)',
        }),
      ),
    }),
  ),
  model: optional(ModelSchema),
  permissions: optional(PermissionsSchema),
  requirements: optional(
    z.strictObject({
      bin: optional(uniqueStrings(nonEmptyString('a program name').regex(COMMAND_NAME_PATTERN, { error: 'must be a program name looked up on PATH, such as "git"' }), 'program names')),
      os: optional(uniqueStrings(z.enum(GO_OS_NAMES, { error: `must be a Go OS name: ${GO_OS_NAMES.join(', ')}` }), 'OS names')),
    }),
  ),
  entry: optional(
    z.looseObject({
      greeting: optional(z.string({ error: 'must be a string' })),
      pre: optional(z.string({ error: 'must be a string' })),
      // null and absent are the same; "" is a prompt that says nothing.
      default_prompt: optional(z.string({ error: 'must be a string' })),
    }),
  ),
  replace_system_prompt: optional(z.boolean({ error: 'must be true or false' })),
});

export type BashMode = 'none' | 'ask' | 'allowlist';

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
  const result = ManifestSchema.safeParse(json.value);
  if (!result.success) {
    const issues = result.error.issues.map((issue) => {
      if (issue.code === 'unrecognized_keys') {
        const keys = (issue as { keys: string[] }).keys;
        return {
          path: jsonPath([...issue.path, keys[0]!]),
          message: `is not a known key here${keys.length > 1 ? ` (nor ${keys.slice(1).map((k) => JSON.stringify(k)).join(', ')})` : ''}; zotbox rejects unknown keys in this section because it could not enforce them. Remove it, or check the spelling`,
        };
      }
      return { path: jsonPath(issue.path), message: issue.message };
    });
    const first = issues[0]!;
    throw manifestError(first.path, first.message, issues);
  }
  const m = result.data;
  const unknownKeys = Object.keys(json.value).filter((k) => !KNOWN_TOP_LEVEL.includes(k));
  if (m.entry !== undefined) for (const key of Object.keys(m.entry)) if (!KNOWN_ENTRY.includes(key)) unknownKeys.push(`entry.${key}`);
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
    },
    requirements: { bin: m.requirements?.bin ?? [], os: m.requirements?.os ?? [] },
    entry: { greeting: m.entry?.greeting ?? '', pre: m.entry?.pre ?? '', defaultPrompt: m.entry?.default_prompt },
    replaceSystemPrompt: m.replace_system_prompt ?? false,
    unknownKeys,
  };
}
