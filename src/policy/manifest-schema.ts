// The manifest's zod schema: the authority on what a manifest may be, and the
// author of every rejection message (spec B §1.1, Part A). Built on first use, with
// zod loaded then (synchronously, its CommonJS build): importing zod costs more
// than Node's own start-up (95 modules), and a valid manifest is read without it
// (manifest-shape.ts), so `zotbox check` and `inspect` start fast (issue 11).
import { createRequire } from 'node:module';
import type * as Zod from 'zod';
import { AGENT_NAME_PATTERN, BASH_MODES, COMMAND_NAME_PATTERN, GO_OS_NAMES, MODEL_CAPABILITIES, scopeStringProblems } from './manifest-fields.js';
import { MAX_NET_ENTRIES, parseNetAllowEntry } from './net-allow.js';
import { parseSemver } from './semver.js';

const require = createRequire(import.meta.url);

type ManifestSchema = ReturnType<typeof buildManifestSchema>;
let built: ManifestSchema | undefined;

/** The schema, built once per process; the first call loads zod. */
export function manifestSchema(): ManifestSchema {
  built ??= buildManifestSchema((require('zod') as typeof Zod).z);
  return built;
}

function buildManifestSchema(z: typeof Zod.z) {
  /** A field that may be absent or null (zot treats null as absent, spec B §1.1). */
  const optional = <T extends Zod.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? undefined);

  const nonEmptyString = (what: string) => z.string({ error: `must be a string (${what})` }).min(1, { error: `must not be empty (${what})` });

  const uniqueStrings = <T extends string>(item: Zod.ZodType<T>, what: string) =>
    z.array(item, { error: `must be an array of strings (${what})` }).superRefine((list, ctx) => {
      const seen = new Set<string>();
      list.forEach((value, index) => {
        if (seen.has(value)) ctx.addIssue({ code: 'custom', path: [index], message: `${JSON.stringify(value)} is listed twice; list it once` });
        seen.add(value);
      });
    });

  const scopeString = nonEmptyString('a path, "${workspace}", "${agent_data}", or a path below one of them').superRefine((value, ctx) => {
    for (const message of scopeStringProblems(value)) ctx.addIssue({ code: 'custom', message });
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
          mode: optional(z.enum(BASH_MODES, { error: 'must be exactly "none", "ask" or "allowlist" (lowercase, no spaces)' })),
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
    // Hosts the sandbox's proxy lets commands reach (net-allow.ts); each entry in its canonical form.
    net: optional(
      z.strictObject({
        allow: optional(
          uniqueStrings(
            z.string({ error: 'must be a string (a host, *.domain, or either with :port)' }).superRefine((value, ctx) => {
              const parsed = parseNetAllowEntry(value);
              if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.reason });
            }),
            'hosts',
          ).refine((list) => list.length <= MAX_NET_ENTRIES, { error: `may list at most ${MAX_NET_ENTRIES} hosts` }),
        ),
      }),
    ),
    env: optional(z.strictObject({ read: emptyList('reading environment variables') })),
  });

  const ModelSchema = z.strictObject({
    requires: optional(uniqueStrings(z.enum(MODEL_CAPABILITIES, { error: `must be one of ${MODEL_CAPABILITIES.join(', ')}` }), 'capabilities')),
    min_context: optional(z.number({ error: 'must be a whole number of tokens' }).int({ error: 'must be a whole number' }).min(0, { error: 'must not be negative' })),
    preferred: optional(uniqueStrings(nonEmptyString('a model id'), 'model ids')),
    min_tier: optional(z.string().max(0, { error: 'model tiers are not supported; remove min_tier and use requires/min_context' })),
  });

  return z.looseObject({
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
}
