// What a zotfile manifest (version 1) may hold: key names, patterns, value sets
// and the scope-string rule, shared by the two readers of a manifest (the zod
// schema in manifest-schema.ts and the recogniser in manifest-shape.ts), so a
// rule is written once. Data and pure functions only: imports nothing.

export const AGENT_NAME_PATTERN = /^[a-z0-9]([a-z0-9._-]*[a-z0-9])?$/;
/** Allowlisted commands are plain names; identity is decided by PATH lookup at check time. */
export const COMMAND_NAME_PATTERN = /^[A-Za-z0-9_+][A-Za-z0-9._+-]*$/;
export const SCOPE_VARIABLES = ['workspace', 'agent_data'] as const;
export const MODEL_CAPABILITIES = ['tools', 'vision', 'reasoning'] as const;
/** Go's GOOS values, which requirements.os names. */
export const GO_OS_NAMES = ['aix', 'android', 'darwin', 'dragonfly', 'freebsd', 'illumos', 'ios', 'js', 'linux', 'netbsd', 'openbsd', 'plan9', 'solaris', 'wasip1', 'windows'] as const;
export const BASH_MODES = ['none', 'ask', 'allowlist'] as const;

export const KNOWN_TOP_LEVEL = ['zotfile', 'name', 'version', 'description', 'license', 'runtime', 'model', 'permissions', 'requirements', 'entry', 'replace_system_prompt'];
export const KNOWN_ENTRY = ['greeting', 'pre', 'default_prompt'];

export type BashMode = (typeof BASH_MODES)[number];

/**
 * What is wrong with a non-empty scope string (an unknown ${variable}, an
 * unterminated "${", a NUL, a leading "~"), one message per problem; empty when
 * it is well formed.
 */
export function scopeStringProblems(value: string): string[] {
  const problems: string[] = [];
  for (const match of value.matchAll(/\$\{([^}]*)\}/g)) {
    if (!(SCOPE_VARIABLES as readonly string[]).includes(match[1]!)) problems.push(`unknown variable ${match[0]}; only \${workspace} and \${agent_data} exist`);
  }
  if (/\$\{[^}]*$/.test(value)) problems.push('an unterminated "${"');
  if (value.includes('\u0000')) problems.push('contains a NUL byte');
  if (value.startsWith('~')) problems.push('"~" is not expanded; use ${workspace} or ${agent_data}');
  return problems;
}

/**
 * A valid manifest's fields as written (null read as absent), before defaults:
 * what both readers return, and what parseManifest turns into a Manifest.
 */
export interface ManifestFields {
  readonly zotfile: 1;
  readonly name: string;
  readonly version?: string | undefined;
  readonly description?: string | undefined;
  readonly license?: string | undefined;
  readonly runtime?: { readonly min_zot?: string | undefined } | undefined;
  readonly model?:
    | {
        readonly requires?: readonly (typeof MODEL_CAPABILITIES)[number][] | undefined;
        readonly min_context?: number | undefined;
        readonly preferred?: readonly string[] | undefined;
      }
    | undefined;
  readonly permissions?:
    | {
        readonly fs?: { readonly read?: readonly string[] | undefined; readonly write?: readonly string[] | undefined } | undefined;
        readonly bash?: { readonly mode?: BashMode | undefined; readonly allow?: readonly string[] | undefined } | undefined;
        readonly net?: { readonly allow?: readonly string[] | undefined } | undefined;
      }
    | undefined;
  readonly requirements?: { readonly bin?: readonly string[] | undefined; readonly os?: readonly (typeof GO_OS_NAMES)[number][] | undefined } | undefined;
  readonly entry?: { readonly greeting?: string | undefined; readonly pre?: string | undefined; readonly default_prompt?: string | undefined } | undefined;
  readonly replace_system_prompt?: boolean | undefined;
}
