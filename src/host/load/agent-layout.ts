// The zotfile layout rules every source must pass (spec B §2 with Part A):
// manifest.json at the root, AGENT.md a regular file when present, no bundled
// executable extensions; then the manifest itself, through the policy layer's
// schema (src/policy/manifest.ts).

import { ZotboxError } from '../../errors.js';
import { parseManifest, type Manifest } from '../../policy/manifest.js';

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
  /** The validated manifest. */
  readonly manifest: Manifest;
  /** Keys zotbox does not know, at the top level and in `entry` (forward compatibility). */
  readonly unknownKeys: readonly string[];
  readonly warnings: readonly string[];
}

const BUNDLED_EXTENSION = /^extensions\/(?:.*\/)?extension\.json$/;

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
    throw new ZotboxError('ZB_LAYOUT_AGENT_MD_INVALID', "AGENT.md must be a regular file, but it is a directory. Rename the directory or replace it with the agent's instructions.");
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
  // zotbox enforces env.read (issue 24 §2); the reference runtime refuses any name there (spec B §1.3 step 7).
  if (manifest.permissions.env.read.length > 0) warnings.push('permissions.env.read lists variables: zot refuses such an agent ("permissions.env is not supported"), so it runs in zotbox only.');
  return { identity, manifest, unknownKeys, warnings };
}

/** Parses and validates manifest.json; throws ZB_MANIFEST_INVALID naming the JSON path and the fix. */
export function readAgentManifest(bytes: Buffer): Pick<AgentLayout, 'identity' | 'manifest' | 'unknownKeys'> {
  const manifest = parseManifest(bytes);
  return {
    identity: { name: manifest.name, version: manifest.version, description: manifest.description },
    manifest,
    unknownKeys: manifest.unknownKeys,
  };
}
