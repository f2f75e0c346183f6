// The zotfile layout rules every source must pass (spec B §2 with Part A):
// manifest.json at the root, AGENT.md a regular file when present, no bundled
// executable extensions. Also reads the agent's identity from the manifest.
// Full manifest validation (exact keys, duplicates, permissions) belongs to
// src/policy/manifest.ts; until it lands, this checks zotfile, name and the
// types of the identity fields, and reports unknown keys.

import { ZotboxError } from '../errors.js';

/** What layout validation needs to see of an agent: its entries and small file reads. */
export interface LayoutView {
  readonly entries: readonly { readonly name: string; readonly type: 'file' | 'directory' }[];
  readFile(name: string): Buffer | undefined;
}

export interface AgentIdentity {
  readonly name: string;
  readonly version: string;
  readonly description: string;
}

export interface AgentLayout {
  readonly identity: AgentIdentity;
  /** The parsed manifest object, for inspect's permission display. */
  readonly manifest: Readonly<Record<string, unknown>>;
  /** Keys zotbox does not know, at the top level and in `entry` (forward compatibility). */
  readonly unknownKeys: readonly string[];
  readonly warnings: readonly string[];
}

export const AGENT_NAME_RULE = /^[a-z0-9]([a-z0-9._-]*[a-z0-9])?$/;
const KNOWN_TOP_LEVEL = new Set(['zotfile', 'name', 'version', 'description', 'license', 'runtime', 'model', 'permissions', 'requirements', 'entry', 'replace_system_prompt']);
const KNOWN_ENTRY = new Set(['greeting', 'pre', 'default_prompt']);
const BUNDLED_EXTENSION = /^extensions\/(?:.*\/)?extension\.json$/;

function invalid(message: string, path: string): ZotboxError {
  return new ZotboxError('ZB_LAYOUT_MANIFEST_INVALID', `manifest.json: ${message}`, { details: { path } });
}

function optionalString(manifest: Record<string, unknown>, key: string): string {
  const value = manifest[key];
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw invalid(`"${key}" must be a string, got ${JSON.stringify(value)}. Fix: write it as a JSON string.`, `$.${key}`);
  return value;
}

/** Checks the layout rules and reads the identity; throws the first failure. */
export function validateAgentLayout(view: LayoutView): AgentLayout {
  const types = new Map(view.entries.map((e) => [e.name, e.type]));
  if (types.get('manifest.json') !== 'file') {
    throw new ZotboxError(
      'ZB_LAYOUT_MANIFEST_MISSING',
      types.has('manifest.json')
        ? 'manifest.json is a directory; it must be a JSON file at the root of the agent.'
        : 'the agent has no manifest.json at its root. Add one ({"zotfile": 1, "name": "my-agent"} at least); a manifest in a subfolder does not count.',
    );
  }
  if (types.get('AGENT.md') === 'directory') {
    throw new ZotboxError('ZB_LAYOUT_AGENT_MD_INVALID', 'AGENT.md must be a regular file, but it is a directory. Rename the directory or replace it with the agent\'s instructions.');
  }
  const extension = view.entries.find((e) => BUNDLED_EXTENSION.test(e.name));
  if (extension !== undefined) {
    throw new ZotboxError(
      'ZB_LAYOUT_EXTENSION_BUNDLED',
      `the agent bundles an executable extension (${extension.name}); extensions cannot yet be confined to the manifest's permissions, so zotbox refuses them. Remove the extensions/ entry.`,
      { details: { entry: extension.name } },
    );
  }

  const { identity, manifest, unknownKeys } = readAgentManifest(view.readFile('manifest.json')!);
  const warnings: string[] = [];
  if (!types.has('AGENT.md')) warnings.push('AGENT.md is missing: the agent runs with the base system prompt only.');
  return { identity, manifest, unknownKeys, warnings };
}

/** Parses manifest.json far enough to know the agent's identity; throws ZB_LAYOUT_MANIFEST_INVALID. */
export function readAgentManifest(bytes: Buffer): Pick<AgentLayout, 'identity' | 'manifest' | 'unknownKeys'> {
  const text = bytes.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) throw invalid('the file starts with a UTF-8 byte-order mark. Fix: save it as UTF-8 without a BOM.', '$');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw invalid(`not valid JSON (${(cause as Error).message}). Fix the syntax.`, '$');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw invalid('the top level must be a JSON object.', '$');
  const manifest = parsed as Record<string, unknown>;
  if (manifest['zotfile'] !== 1) {
    throw invalid(`unsupported zotfile version ${JSON.stringify(manifest['zotfile'] ?? 0)}; zotbox reads version 1. Fix: set "zotfile": 1.`, '$.zotfile');
  }
  const name = manifest['name'];
  if (typeof name !== 'string' || name === '') throw invalid('"name" is required. Fix: add "name": "my-agent".', '$.name');
  if (!AGENT_NAME_RULE.test(name)) {
    throw invalid(
      `"name" ${JSON.stringify(name)} must use only lowercase letters, digits, dots, hyphens and underscores, and start and end with a letter or digit (for example "code-reviewer").`,
      '$.name',
    );
  }
  const identity: AgentIdentity = { name, version: optionalString(manifest, 'version'), description: optionalString(manifest, 'description') };

  const unknownKeys = Object.keys(manifest).filter((k) => !KNOWN_TOP_LEVEL.has(k));
  const entry = manifest['entry'];
  if (typeof entry === 'object' && entry !== null && !Array.isArray(entry)) {
    for (const key of Object.keys(entry)) if (!KNOWN_ENTRY.has(key)) unknownKeys.push(`entry.${key}`);
  }
  return { identity, manifest, unknownKeys };
}
